// Builds txc once for the whole slow project (scripts/bundle-sources.ts). A tsx start costs about
// half a CPU-second here (it loads and transforms every source file), a start of the bundle a
// tenth of that, and the txc tests start about a hundred processes. test/cli/operations.test.ts
// still runs `npm run txc` (tsx on the sources), as a user does.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { stop } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { bundleSources } from '../../scripts/bundle-sources.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built txc (an .mjs file), for `node <file> <args>`. */
    txcBundle: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  // Dynamic imports stay chunks: a usage error or --help does not load undici (half of such a
  // run's CPU, inlined).
  const bundle = await bundleSources('src/cli/txc.ts', 'txc');
  // esbuild's service process is not needed again in this run.
  await stop();
  project.provide('txcBundle', bundle);
  return () => rmSync(dirname(bundle), { recursive: true, force: true });
}
