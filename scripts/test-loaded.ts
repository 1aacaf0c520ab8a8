// `npm run test:loaded`: the whole of `npm test` while every core is kept busy, as on a loaded CI
// machine. The load is Debian's stress-ng (`apt-get install -y stress-ng`) when it is installed,
// else one busy Node process per core; it ends with this run, however the run ends.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { projectRoot } from '../model/document.ts';
import { endWithParentArgs, withParentChannel } from './child-process.ts';

const cores = availableParallelism();
const hasStressNg = spawnSync('stress-ng', ['--version'], { stdio: 'ignore' }).status === 0;
// stress-ng runs under a small Node wrapper that ends with this process (scripts/exit-with-parent.mjs)
// and takes stress-ng's process group (its workers) with it.
const stressNg = `
const { spawn } = require('node:child_process');
const stress = spawn('stress-ng', ['--cpu', '${cores}', '--quiet'], { stdio: 'ignore', detached: true });
process.on('exit', () => { try { process.kill(-stress.pid, 'SIGKILL'); } catch {} });
stress.on('exit', () => process.exit(1));
process.on('SIGTERM', () => process.exit(1));
`;
const busy = 'for (;;) {}';
const load: ChildProcess[] = Array.from({ length: hasStressNg ? 1 : cores }, () =>
  spawn(process.execPath, [...endWithParentArgs, '-e', hasStressNg ? stressNg : busy], {
    stdio: withParentChannel('ignore', 'ignore', 'ignore'),
  }),
);
const stopLoad = () => {
  // SIGTERM: the stress-ng wrapper takes its workers along on its way out.
  for (const child of load) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
};
process.on('exit', stopLoad);

console.log(
  `test:loaded: ${cores} core(s) kept busy by ${hasStressNg ? `stress-ng --cpu ${cores}` : `${cores} busy Node process(es)`} during npm test`,
);
const started = performance.now();
// Its own process group: npm passes a signal to its script but not on down, so a stop reaches the
// whole run only through the group.
const test = spawn('npm', ['test'], { cwd: projectRoot, stdio: 'inherit', detached: true });
const stopTest = (signal: NodeJS.Signals) => {
  try {
    if (test.pid !== undefined) process.kill(-test.pid, signal);
  } catch {
    // already gone
  }
};
process.on('exit', () => stopTest('SIGKILL'));
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    stopTest(signal);
    stopLoad();
  });
}
test.on('exit', (code, signal) => {
  stopLoad();
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  console.log(`test:loaded: npm test ${code === 0 ? 'passed' : 'FAILED'} under load in ${minutes} min`);
  process.exit(code ?? (signal ? 1 : 0));
});
