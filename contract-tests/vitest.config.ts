// The contract-test suite: its own project, run by `npm run contract` (contract-tests/run.ts).
import { defineConfig } from 'vitest/config';

const junit = process.env.CONTRACT_JUNIT;

export default defineConfig({
  // tsconfig.json maps the package's own name to the sources. `#transport` is named here too:
  // Vite resolves it from package.json's "imports" (dist/, absent on a fresh clone) before paths.
  resolve: {
    tsconfigPaths: true,
    alias: { '#transport': new URL('../src/transport/node.ts', import.meta.url).pathname },
  },
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['contract-tests/**/*.contract.ts'],
    globalSetup: ['contract-tests/global-setup.ts'],
    // A real target sees one key from every worker: one file at a time keeps its nonces rising.
    fileParallelism: !process.env.CONTRACT_TARGET || process.env.CONTRACT_TARGET === 'mock',
    testTimeout: 20_000,
    hookTimeout: 40_000,
    reporters: [
      'default',
      './contract-tests/reporter.ts',
      ...(junit ? [['junit', { outputFile: junit }] as [string, Record<string, unknown>]] : []),
    ],
  },
});
