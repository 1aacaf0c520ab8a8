// The size and start-up figures are the built package's, as a user installs it: `npm run build`
// writes dist/ once per bench run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
let built = false;

/** Builds dist/ (once per process); returns the project root it lies in. */
export function buildPackage(): string {
  if (!built) {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'pipe' });
    built = true;
  }
  return root;
}

/**
 * The client's entry bundled by esbuild from the sources (`#transport` as tsconfig.json's `paths`
 * send it, to Node's transport), its dependencies imported from node_modules: for --quick, which
 * needs a client that runs, not tsc's output. Written under node_modules/.cache, where node finds
 * those dependencies; returns the file.
 */
export async function bundleClient(): Promise<string> {
  const cache = join(root, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const file = join(mkdtempSync(join(cache, 'txc-bench-')), 'client.mjs');
  await build({
    entryPoints: [join(root, 'src/index.ts')],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'error',
  });
  return file;
}

/** The built entry, the middleware's entry, the transport Node loads and the route table, relative to the root. */
export const builtEntry = 'dist/src/index.js';
export const builtMiddleware = 'dist/src/middleware.js';
export const builtTransport = 'dist/src/transport/undici.js';
export const builtRoutes = 'dist/generated/routes.js';
export const builtCli = 'dist/src/cli/txc.js';
