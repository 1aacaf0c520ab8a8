// The type-level tests can fail: vitest's typecheck, run the way npm run test:unit runs it, on a
// fixture whose one assertion is wrong must fail, naming that assertion; the same run on the
// real type tests passes (so it is the wrong assertion that is caught).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../model/document.ts';
import { typesCheckedByTsc } from '../../scripts/test-plan.ts';
import { timeLimits } from '../../scripts/time-limits.ts';

const vitest = `${projectRoot}node_modules/vitest/vitest.mjs`;
const fixtureConfig = fileURLToPath(new URL('./fixtures/vitest.config.ts', import.meta.url));

function typecheck(args: string[]) {
  return spawnSync(process.execPath, [vitest, 'run', ...args], {
    cwd: projectRoot,
    encoding: 'utf8',
    // As npm run test:unit runs it alone: with its type-check (npm test leaves that to tsc).
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', [typesCheckedByTsc]: '' },
    timeout: timeLimits.runMs,
  });
}

describe('type-level tests', () => {
  it('a wrong type assertion fails the typecheck run', () => {
    const run = typecheck(['--config', fixtureConfig]);
    const output = run.stdout + run.stderr;
    expect(run.status, output).not.toBe(0);
    expect(output).toContain('wrong-assertion.test-d.ts');
    // The failure is the assertion itself, not a broken setup.
    expect(output).toMatch(/TypeCheckError: .*"nonce"/);
    expect(output).toMatch(/Type Errors\s+1 failed/);
  });

  it('the real type tests pass through the same typecheck', () => {
    const run = typecheck(['--project', 'unit', '--typecheck.only', 'test/client/types.test-d.ts']);
    expect(run.status, run.stdout + run.stderr).toBe(0);
  });
});
