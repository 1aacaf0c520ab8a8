// Builds txc once for the whole slow project: src/cli/txc.ts bundled by esbuild into ES modules
// that plain `node` runs. A tsx start costs about half a CPU-second here (it loads and
// transforms every source file), a start of the bundle a tenth of that, and the txc tests start
// about a hundred processes. The bundle is the same program: the sources as they are, `#transport`
// resolved as tsconfig.json's `paths` say, its dependencies imported from node_modules as installed
// (it is written under node_modules/.cache, so that node finds them). test/cli/operations.test.ts
// still runs `npm run txc` (tsx on the sources), as a user does.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build, stop } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { projectRoot } from '../../model/document.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built txc (an .mjs file), for `node <file> <args>`. */
    txcBundle: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const cache = join(projectRoot, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  // A directory of this run's own: two runs in one checkout never share a bundle.
  const dir = mkdtempSync(join(cache, 'txc-tests-'));
  await build({
    entryPoints: { txc: join(projectRoot, 'src/cli/txc.ts') },
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // What the sources import dynamically (the transport with undici, the engine, the route
    // table) stays a chunk loaded on first use, as in the built package: a usage error or --help
    // does not load undici (half of such a run's CPU, inlined).
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    tsconfig: join(projectRoot, 'tsconfig.json'),
    logLevel: 'error',
  });
  // esbuild's service process is not needed again in this run.
  await stop();
  project.provide('txcBundle', join(dir, 'txc.mjs'));
  return () => rmSync(dir, { recursive: true, force: true });
}
