// The contract-test suite: its own config, run by `npm run contract` (contract-tests/run.ts).
// Every check runs once per transport, each in its own vitest project named after it: the
// default one of Node (undici) and the fetch transport. The target (Prism) is started once, by
// the root's global setup (the projects do not extend the root, so they do not repeat it), and
// both projects call it.
import { defineConfig } from 'vitest/config';
import { contractVariables } from '../model/environment.ts';
import { sourceAliases } from '../vitest.resolve.ts';
import { transportNames } from './support/transport-names.ts';

const junit = process.env[contractVariables.junit];
const root = new URL('..', import.meta.url).pathname;
// A real target sees one key from every worker: one file at a time keeps its nonces rising.
const mock = !process.env[contractVariables.target] || process.env[contractVariables.target] === 'mock';

export default defineConfig({
  resolve: { alias: sourceAliases },
  test: {
    root,
    globalSetup: ['contract-tests/global-setup.ts'],
    reporters: [
      'default',
      './contract-tests/reporter.ts',
      ...(junit ? [['junit', { outputFile: junit }] as [string, Record<string, unknown>]] : []),
    ],
    projects: transportNames.map((transport, order) => ({
      root,
      resolve: { alias: sourceAliases },
      test: {
        name: transport,
        root,
        include: ['contract-tests/**/*.contract.ts'],
        provide: { transport },
        fileParallelism: mock,
        // Against a real target the projects take turns too, for the same reason.
        sequence: { groupOrder: mock ? 0 : order },
        testTimeout: 20_000,
        hookTimeout: 40_000,
      },
    })),
  },
});
