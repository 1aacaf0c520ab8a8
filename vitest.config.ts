import { defineConfig } from 'vitest/config';
import { sourceAliases } from './vitest.resolve.ts';

/**
 * Tests that spawn processes or take long (codegen drift, the README type-check, bench smoke,
 * txc, the sandbox command, npm start, the Redocly wrapper and the prerequisites check, the spec
 * watch loop and gate, the type tests' self-test, a hook's uncaught error, a slow transport load,
 * and the ones making
 * thousands of calls: nonce sequences, window-mode freshness, the sandbox's rate limits): the slow
 * project. Everything else is the unit project, quick feedback (`npm run test:unit`, under 30 s
 * on a 2-core machine).
 */
const slow = [
  'test/documents/drift.test.ts',
  'test/readme.test.ts',
  'test/bench/smoke.test.ts',
  'test/cli/errors.test.ts',
  'test/cli/operations.test.ts',
  'test/cli/terminal.test.ts',
  'test/sandbox/cli.test.ts',
  'test/sandbox/load.test.ts',
  'test/spec/watch.test.ts',
  'test/spec/gate.test.ts',
  'test/client/queued-exit.test.ts',
  'test/client/throwing-hook.test.ts',
  'test/client/first-call.test.ts',
  'test/typecheck/self-test.test.ts',
  'test/start.test.ts',
  'test/redocly-banner.test.ts',
  'test/prerequisites.test.ts',
  'test/client/fresh-nonces.test.ts',
  'test/client/nonce.test.ts',
  'test/sandbox/limits.test.ts',
];
// The installed package has its own config: npm run test:package.
const exclude = ['test/package/**', 'test/typecheck/fixtures/**', 'node_modules/**'];

export default defineConfig({
  resolve: { alias: sourceAliases },
  test: {
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
          // Projects with their own maxWorkers run as separate groups: unit first, for quick feedback.
          sequence: { groupOrder: 0 },
          // Type-level tests (*.test-d.ts) are type-checked, not run.
          typecheck: {
            enabled: true,
            include: ['test/**/*.test-d.ts'],
            // The self-test's deliberately wrong assertion is checked by the slow project only.
            exclude: ['test/typecheck/fixtures/**'],
            tsconfig: './tsconfig.json',
          },
        },
      },
      { extends: true, test: { name: 'slow', include: slow, exclude, sequence: { groupOrder: 1 } } },
    ],
  },
});
