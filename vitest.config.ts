import { defineConfig } from 'vitest/config';
import { nativeTsc } from './scripts/native-tsc.ts';
import { typesCheckedByTsc } from './scripts/test-plan.ts';
import { timeLimits } from './scripts/time-limits.ts';
import { sourceAliases } from './vitest.resolve.ts';

/**
 * Tests that spawn processes or take long (codegen drift, the README type-check, bench smoke and
 * the bench's grown copy, txc (txc watch too), the sandbox command (ccxt.pro's streams against it too), npm start, the Redocly wrapper and the
 * prerequisites check, the spec watch loop and gate, the type tests' self-test, a hook's uncaught
 * error, a slow transport load, and the ones making thousands of calls: nonce sequences, window-mode freshness, the sandbox's rate limits): the slow
 * project. Everything else is the unit project, quick feedback (`npm run test:unit`, under 30 s
 * on a 2-core machine).
 */
const slow = [
  'test/documents/drift.test.ts',
  'test/readme.test.ts',
  'test/bench/smoke.test.ts',
  'test/bench/growth.test.ts',
  'test/cli/errors.test.ts',
  'test/cli/operations.test.ts',
  'test/cli/every-operation.test.ts',
  'test/one-more-operation.test.ts',
  'test/cli/terminal.test.ts',
  'test/cli/watch.test.ts',
  'test/cli/watch-terminal.test.ts',
  'test/cli/validate.test.ts',
  'test/sandbox/cli.test.ts',
  'test/sandbox/load.test.ts',
  'test/spec/watch.test.ts',
  'test/spec/gate.test.ts',
  'test/client/queued-exit.test.ts',
  'test/client/throwing-hook.test.ts',
  'test/client/first-call.test.ts',
  'test/typecheck/self-test.test.ts',
  'test/start.test.ts',
  'test/exit-with-parent.test.ts',
  'test/redocly-banner.test.ts',
  'test/prerequisites.test.ts',
  'test/client/fresh-nonces.test.ts',
  'test/client/nonce.test.ts',
  'test/sandbox/limits.test.ts',
  'test/sandbox/ccxt-pro-streams.test.ts',
  'test/docs/recipes.test.ts',
];
// The installed package has its own config: npm run test:package.
const exclude = ['test/package/**', 'test/typecheck/fixtures/**', 'node_modules/**'];

export default defineConfig({
  resolve: { alias: sourceAliases },
  test: {
    // expect.poll waits on a condition (a socket closed, a request arrived): its limit too is sized
    // for a loaded machine, not vitest's default second.
    expect: { poll: { timeout: timeLimits.unitTestMs } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...exclude, ...slow],
          // The unit tests wait on servers in the same process more than they compute: two workers
          // overlap those waits even on a 2-core machine (about 34 s with one, 26 s with two, here).
          maxWorkers: 2,
          // The files of a worker share one module graph rather than each importing the sources
          // afresh: importing was half the project's CPU (about 68 CPU-s, 38 s, with isolation;
          // 21 CPU-s, 14 s, without). So a file puts back whatever global it changes (timers,
          // process.env, spies) by its end, and no test relies on a module's state being new.
          isolate: false,
          // Projects with their own maxWorkers run as separate groups: unit first, for quick feedback.
          sequence: { groupOrder: 0 },
          testTimeout: timeLimits.unitTestMs,
          hookTimeout: timeLimits.hookMs,
          // Type-level tests (*.test-d.ts) are type-checked, not run. Within npm test, whose
          // typecheck stage runs tsc over the same files (a failed expectTypeOf is a type error
          // there too), they are not type-checked a second time (scripts/test-stages.ts).
          typecheck: {
            enabled: process.env[typesCheckedByTsc] !== '1',
            include: ['test/**/*.test-d.ts'],
            // The self-test's deliberately wrong assertion is checked by the slow project only.
            exclude: ['test/typecheck/fixtures/**'],
            tsconfig: './tsconfig.json',
            checker: nativeTsc,
          },
        },
      },
      {
        extends: true,
        test: {
          name: 'slow',
          include: slow,
          exclude,
          // Most of these wait on the processes they start: two files at a time overlap the waits.
          maxWorkers: 2,
          // As in the unit project, the files of a worker share one module graph: importing afresh
          // for each file was a third of this project's CPU (about 205 CPU-s with isolation, 148
          // without, on a loaded machine). A file puts back what it changes (fake timers, stubbed
          // environment variables) by its end.
          isolate: false,
          sequence: { groupOrder: 1 },
          // txc built once, for the tests that run it many times (test/cli/helpers.ts).
          globalSetup: ['test/cli/txc-bundle.setup.ts'],
          // Each starts processes: one limit for all, sized for a loaded machine (scripts/time-limits.ts).
          testTimeout: timeLimits.processTestMs,
          hookTimeout: timeLimits.hookMs,
        },
      },
    ],
  },
});
