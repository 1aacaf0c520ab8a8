// The contract-test suite: its own config, run by `npm run contract` (contract-tests/run.ts).
// Each transport is a vitest project named after it: the default one of Node (undici) runs every
// check, the fetch transport those about the transport (support/transport-names.ts). The target
// (Prism) is started once, by the root's global setup (the projects do not extend the root, so
// they do not repeat it), and both projects call it. Against the mocks, which keep no state, the
// files and the tests of a file run side by side.
import { defineConfig } from 'vitest/config';
import { contractVariables } from '../model/environment.ts';
import { timeLimits } from '../scripts/time-limits.ts';
import { sourceAliases } from '../vitest.resolve.ts';
import { transportBoundFiles, transportNames } from './support/transport-names.ts';

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
        include: order === 0 ? ['contract-tests/**/*.contract.ts'] : transportBoundFiles,
        provide: { transport },
        fileParallelism: mock,
        // Two files at a time against the mocks, whatever the cores: two files mostly wait on a
        // child run of the suite (meta, ci-recipe) while the others call the mocks.
        // (vitest's default, one less than the cores, is one file at a time on two cores.)
        ...(mock ? { maxWorkers: 2 } : {}),
        // The files share one module graph a worker instead of importing the client, the model
        // and the documents afresh for each file: no file changes what it imports. What a target
        // holds lives in the target (the sandbox runs in this process's global setup, a deployment
        // elsewhere), so sharing the worker's modules shares no target state between files; the
        // client's nonces, kept per key in the shared module, only keep rising across files.
        isolate: false,
        sequence: { concurrent: mock, groupOrder: mock ? 0 : order },
        // Against a real target the projects take turns too (groupOrder), for the same reason.
        // Limits (scripts/time-limits.ts): some checks start the runner or the sandbox as processes.
        testTimeout: timeLimits.processTestMs,
        hookTimeout: timeLimits.hookMs,
      },
    })),
  },
});
