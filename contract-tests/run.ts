// `npm run contract [-- --target <url|mock|sandbox>] [--stream-target <ws url>] [--api <name>] [--junit <file>] [--self-check] [vitest args…]`
// Runs the contract-test suite (vitest with contract-tests/vitest.config.ts). Flags set the
// environment the suite reads (CONTRACT_TARGET, CONTRACT_JUNIT, …); everything else goes to vitest.
// --self-check runs the suite's checks of itself (support/transport-names.ts), which a run
// otherwise leaves out.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { projectRoot } from '../model/document.ts';
import { contractVariables } from '../model/environment.ts';
import { endWithParentArgs, withParentChannel } from '../scripts/child-process.ts';
import { selfCheckFiles } from './support/transport-names.ts';
import { targetProblem } from './support/variables.ts';

const usage = `usage: npm run contract -- [--target <url|mock|sandbox>] [--stream-target <ws(s) url>] [--api <name>]… [--junit <file>] [--seed <n>] [--max-response-time <ms>] [--self-check] [vitest args]`;

const env: NodeJS.ProcessEnv = { ...process.env };
const passThrough: string[] = [];
let selfCheck = false;
const apis: string[] = [];
const args = process.argv.slice(2);
for (let index = 0; index < args.length; index++) {
  const arg = args[index] as string;
  const [flag, inline] =
    arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
  const value = () => {
    const next = inline ?? args[++index];
    if (next === undefined || next === '') {
      console.error(`${flag} needs a value\n${usage}`);
      process.exit(2);
    }
    return next;
  };
  if (flag === '--target') env[contractVariables.target] = value();
  else if (flag === '--stream-target') env[contractVariables.streamTarget] = value();
  else if (flag === '--api') apis.push(value());
  else if (flag === '--junit') env[contractVariables.junit] = resolve(value());
  else if (flag === '--seed') env[contractVariables.seed] = value();
  else if (flag === '--max-response-time') env[contractVariables.maxResponseMs] = value();
  else if (flag === '--self-check') selfCheck = true;
  else if (flag === '--help' || flag === '-h') {
    console.log(usage);
    process.exit(0);
  } else passThrough.push(arg);
}

if (apis.length > 0) env[contractVariables.apis] = apis.join(',');

// What the target needs (credentials, ids), checked before vitest starts: one line, exit code 2.
const problem = targetProblem(env[contractVariables.target]?.trim() || 'mock', env);
if (problem) {
  console.error(problem);
  process.exit(2);
}

// The suite's checks of itself start their own targets: the run starts none for them. Unset for
// any other run, a child run of those checks included.
if (selfCheck) env[contractVariables.selfCheck] = '1';
else delete env[contractVariables.selfCheck];

const vitest = `${projectRoot}/node_modules/vitest/vitest.mjs`;
// vitest ends should this runner be killed (its Prisms end with it in turn): a run stopped by its
// process group, or this process alone, leaves no server behind.
const child = spawn(
  process.execPath,
  [
    ...endWithParentArgs,
    vitest,
    'run',
    '--config',
    `${projectRoot}/contract-tests/vitest.config.ts`,
    ...(selfCheck ? selfCheckFiles : selfCheckFiles.flatMap((file) => ['--exclude', file])),
    ...passThrough,
  ],
  { cwd: projectRoot, env, stdio: withParentChannel('inherit', 'inherit', 'inherit') },
);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 1 : 0));
});
