// A hook that throws never changes a call's result (an investment made is reported made), and its
// error is not lost: it is thrown again on its own. Uncaught exceptions are a process's own, so
// this runs in a child process (the slow project).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { timeLimits } from '../../scripts/time-limits.ts';

it("a hook's error surfaces as an uncaught exception; the call's result is the server's answer", () => {
  const script = fileURLToPath(new URL('./fixtures/throwing-hook.ts', import.meta.url));
  const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
    encoding: 'utf8',
    timeout: timeLimits.runMs,
  });
  expect(run.stderr).toBe('');
  expect(run.stdout.trim().split('\n').sort()).toEqual([
    'result: {"id":"x"} no error',
    'uncaught: end hook',
    'uncaught: request hook',
  ]);
  expect(run.status).toBe(0);
});
