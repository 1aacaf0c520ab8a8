// A process with calls queued behind the client's rate limiter stays alive until they are
// answered: spawned in a child process, so it lives in the slow project.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { timeLimits } from '../../scripts/time-limits.ts';

describe('client-side rate limiting', () => {
  it('a process does not exit while its calls wait for a permit', () => {
    const script = fileURLToPath(new URL('./fixtures/queued-calls.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
      encoding: 'utf8',
      timeout: timeLimits.runMs,
    });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('answered 3');
    expect(run.status).toBe(0);
  });
});
