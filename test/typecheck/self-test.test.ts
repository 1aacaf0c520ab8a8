// The type-level tests can fail: vitest's typecheck, set as the unit project sets it (the same
// compiler options, tsconfig.json's), over a fixture whose one assertion is wrong and the real type
// tests, in one run: the run fails, naming that assertion and no other, and the real type tests
// pass in it (so it is the wrong assertion that is caught). One run, so tsc checks the sources once.
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
  it('a wrong type assertion fails the typecheck run, and the real type tests pass in it', () => {
    const run = typecheck(['--config', fixtureConfig]);
    const output = run.stdout + run.stderr;
    expect(run.status, output).not.toBe(0);
    expect(output).toMatch(/❯ +TS +test\/typecheck\/fixtures\/wrong-assertion\.test-d\.ts/);
    // The failure is the assertion itself, not a broken setup.
    expect(output).toMatch(/TypeCheckError: .*"nonce"/);
    expect(output).toMatch(/Type Errors\s+1 failed/);
    expect(output).toMatch(/✓ +TS +test\/client\/types\.test-d\.ts \(\d+ tests?\)/);
    expect(output).toMatch(/Test Files\s+1 failed \| 1 passed \(2\)/);
  });
});
