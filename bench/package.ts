// The client the bench measures is the built package, as a user installs it: `npm run build`
// writes dist/ once per bench run. --quick bundles the sources instead (see `ClientBuild`).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleSources } from '../scripts/bundle-sources.ts';

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

export type Package = typeof import('../src/index.ts');
/** The streams' entry (`txc-api-v4/streams`): the main entry does not carry them. */
export type StreamsPackage = typeof import('../src/streams/index.ts');

/**
 * Which client the contenders call: `built`, as a user runs it (dist/, tsc's output), not the
 * sources through tsx, whose transform adds work to every call (about 3 µs in process: each
 * closure a call makes is named at run time); or `bundled` (--quick, whose figures mean nothing):
 * the sources bundled by esbuild, which proves the bench runs without tsc's build (about 11 CPU-s
 * here, most of the smoke test's time).
 */
export type ClientBuild = 'built' | 'bundled';

const loaded = new Map<string, Promise<unknown>>();

/** An entry of the package as `build` makes it, built or bundled once per process. */
function entryOf<Entry>(build: ClientBuild, built: string, source: string, name: string): Promise<Entry> {
  const key = `${build} ${source}`;
  let entry = loaded.get(key);
  if (!entry) {
    entry = (async () => {
      if (build === 'built') return import(pathToFileURL(join(buildPackage(), built)).href);
      const bundle = await bundleSources(source, name);
      // The client loads its chunks when it is made: the directory goes when the bench ends.
      process.once('exit', () => rmSync(dirname(bundle), { recursive: true, force: true }));
      return import(pathToFileURL(bundle).href);
    })();
    loaded.set(key, entry);
  }
  return entry as Promise<Entry>;
}

/** The package's main entry as `build` makes it, built or bundled once per process. */
export const clientPackage = (build: ClientBuild): Promise<Package> =>
  entryOf<Package>(build, builtEntry, 'src/index.ts', 'client');

/** The package's streams entry as `build` makes it, built or bundled once per process. */
export const streamsPackage = (build: ClientBuild): Promise<StreamsPackage> =>
  entryOf<StreamsPackage>(build, 'dist/src/streams/index.js', 'src/streams/index.ts', 'streams');
