// The sources bundled by esbuild into ES modules that plain `node` runs, for what needs a program
// that starts fast and not tsc's build (the txc tests, the bench's --quick run). The bundle is
// the same program: `#transport` resolved as tsconfig.json's `paths` say, the dependencies
// imported from node_modules as installed. It is written under node_modules/.cache, where node
// finds them, in a directory of its own: two runs in one checkout never share a bundle.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { projectRoot } from '../model/document.ts';

/**
 * Bundles `source` (relative to the project) as `<name>.mjs` in a new directory; returns the
 * file. What the sources import dynamically (the transport with undici, the engine, the route
 * table) stays a chunk beside it, loaded on first use as in the built package: the directory must
 * outlive the program's use of it.
 */
export async function bundleSources(source: string, name: string): Promise<string> {
  const cache = join(projectRoot, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, `${name}-bundle-`));
  await build({
    entryPoints: { [name]: join(projectRoot, source) },
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    tsconfig: join(projectRoot, 'tsconfig.json'),
    logLevel: 'error',
  });
  return join(dir, `${name}.mjs`);
}
