// `npm run lint`'s Redocly CLI (`tsx scripts/redocly-cli.ts lint`): the CLI with its arguments,
// stdout as it is, stderr without the Node 20 banner (scripts/redocly-banner.ts says why), and
// its exit code.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../model/document.ts';
import { withoutBanner } from './redocly-banner.ts';

const child = spawn(join(projectRoot, 'node_modules/.bin/redocly'), process.argv.slice(2), {
  stdio: ['inherit', 'inherit', 'pipe'],
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
});
const filter = withoutBanner();
let pending = '';
child.stderr.on('data', (chunk: Buffer) => {
  pending += chunk.toString();
  const lines = pending.split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) for (const kept of filter(line)) process.stderr.write(`${kept}\n`);
});
child.once('exit', (code, signal) => {
  for (const kept of filter(pending)) if (kept !== '') process.stderr.write(`${kept}\n`);
  process.exitCode = code ?? (signal ? 1 : 0);
});
