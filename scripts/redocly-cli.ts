// `npm run lint`'s Redocly CLI (`tsx scripts/redocly-cli.ts lint`): the CLI with its arguments,
// stdout as it is, stderr without the Node 20 banner (scripts/redocly-banner.ts says why), and
// its exit code. A clean lint of the whole project is remembered (scripts/clean-lints.ts), so
// that `npm start` does not lint the same files again.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { projectRoot } from '../model/document.ts';
import { apiLintKey, rememberClean } from './clean-lints.ts';
import { withoutBanner } from './redocly-banner.ts';

const args = process.argv.slice(2);
// Keyed by the files as they were before the lint read them: a file saved during the lint makes
// another key, which no clean lint has.
const wholeProjectLint =
  args.length === 1 && args[0] === 'lint' && resolve(process.cwd()) === resolve(projectRoot)
    ? apiLintKey(projectRoot)
    : undefined;

const child = spawn(join(projectRoot, 'node_modules/.bin/redocly'), args, {
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
  if (process.exitCode === 0 && wholeProjectLint) void rememberClean('lint-clean', wholeProjectLint);
});
