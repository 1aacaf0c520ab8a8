import { defineConfig } from 'vitest/config';
import { sourceAliases } from './vitest.resolve.ts';

/**
 * Tests that spawn processes or take long (codegen drift, the README type-check, bench smoke,
 * txc, the sandbox command, the spec watch loop and gate, the type tests' self-test): the slow
 * project. Everything else is the unit project, quick feedback: `npm run test:unit`.
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
  'test/typecheck/self-test.test.ts',
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
          // Type-level tests (*.test-d.ts) are type-checked, not run.
          typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
        },
      },
      { extends: true, test: { name: 'slow', include: slow, exclude } },
    ],
  },
});
