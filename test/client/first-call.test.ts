// The first call of a process does not pay for loading its transport inside its own time limit:
// the transport loads when the client is made (before any call: a transport loaded on the first
// call leaves the script waiting until the child is killed), and a call waits for it before its
// deadline starts. Module hooks make the load observable and hold it longer than the time limit; in a
// child process, since hooks are a process's own (the slow project).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { timeLimits } from '../../scripts/time-limits.ts';

it('the transport loads with the client; a first call whose transport loads slower than its timeoutMs succeeds', () => {
  const script = fileURLToPath(new URL('./fixtures/slow-transport-load.ts', import.meta.url));
  const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
    encoding: 'utf8',
    timeout: timeLimits.runMs,
  });
  expect(run.stderr).toBe('');
  expect(run.stdout.trim().split('\n')).toEqual(['transport: loading', 'first call: ok']);
  expect(run.status).toBe(0);
});
