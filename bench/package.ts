// The size and start-up figures are the built package's, as a user installs it: `npm run build`
// writes dist/ once per bench run.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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

/** The built entry, the middleware's entry, the transport Node loads and the route table, relative to the root. */
export const builtEntry = 'dist/src/index.js';
export const builtMiddleware = 'dist/src/middleware.js';
export const builtTransport = 'dist/src/transport/undici.js';
export const builtRoutes = 'dist/generated/routes.js';
export const builtCli = 'dist/src/cli/txc.js';
