// Size: the built package (dist/) bundled as a consumer bundles it, by esbuild (Node, ESM,
// minified, code splitting, openapi-fetch and undici external), gzipped at level 9:
// - the full client's entry (dist/src/index.js): the entry chunk and the chunks it imports
//   statically, what importing the package loads;
// - what a client loads when it is made (dynamic imports: the engine, the transport, the route
//   table), reported beside it;
// - an app that imports only the signing middleware (txc-api-v4/middleware, dist/src/middleware.js);
// - the route table as it is, and as a table of 106 operations (about the operator's whole v4 REST
//   API, its routes copied under new names) would be: it grows a chunk a client loads, not the entry.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import type { BodyRules } from '../generated/operations.ts';
import { buildPackage, builtEntry, builtMiddleware, builtRoutes } from './package.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface SizeResult {
  /** Gzipped bytes loaded by importing the package: the entry chunk and its static imports. */
  entry: number;
  /** Gzipped bytes of the chunks a client loads when it is made, by their main input. */
  loadedWithClient: Record<string, number>;
  /** Gzipped bytes of a bundle of the middleware entry alone. */
  middleware: number;
  /** Operations in the route table, and its gzipped bytes as a chunk; then grown to `grownTo`. */
  routes: { operations: number; bytes: number; grownTo: number; grown: number };
  /** Gzipped bytes that bundling undici in adds. */
  undici: number;
  /** Gzipped bytes of the whole self-contained bundle of the entry (one file, no splitting). */
  total: number;
  /** Minified bytes of each of our own files, across the split bundle. */
  minifiedOwnFiles: Record<string, number>;
}

const gzip = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;

interface Output {
  name: string;
  gzip: number;
  meta: Metafile['outputs'][string];
}

async function bundle(entry: string, external: string[], splitting: boolean): Promise<Output[]> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    // As a consumer bundles it: package.json's conditions, not this repository's tsconfig paths.
    tsconfigRaw: '{}',
    bundle: true,
    splitting,
    outdir: 'out', // not written
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    external,
  });
  return result.outputFiles.map((file) => {
    const name = Object.keys(result.metafile.outputs).find((output) => file.path.endsWith(output)) ?? '';
    return { name, gzip: gzip(file.contents), meta: result.metafile.outputs[name] as Output['meta'] };
  });
}

/** About as many v4 REST paths as the operator's own OpenAPI files hold: the size to grow towards. */
const operatorPaths = 106;

/** The entry chunk and every chunk it reaches through static imports. */
function staticallyLoaded(outputs: Output[], entry: string): Output[] {
  const byName = new Map(outputs.map((output) => [output.name, output]));
  const start = outputs.find((output) => output.meta.entryPoint === entry);
  if (!start) throw new Error(`no chunk for ${entry}`);
  const loaded = new Set<Output>([start]);
  for (const output of loaded) {
    for (const imported of output.meta.imports) {
      const chunk = byName.get(imported.path);
      if (chunk && imported.kind === 'import-statement') loaded.add(chunk);
    }
  }
  return [...loaded];
}

/** The built route table (generated as JSON, which tsc emits as it is). */
function builtRouteTable(): Record<string, { operationId: string; path: string }> {
  const source = readFileSync(join(root, builtRoutes), 'utf8');
  return JSON.parse(source.slice(source.indexOf('{'), source.lastIndexOf('}') + 1));
}

/**
 * The route table grown to `count` operations: its routes copied under new paths, operationIds
 * and body field names, so that a copy does not compress into a mere repeat of its original.
 */
function routesOf(count: number, dir: string): string {
  const routes = Object.values(builtRouteTable());
  const grown: Record<string, unknown> = {};
  for (let index = 0; index < count; index++) {
    const route = routes[index % routes.length] as (typeof routes)[number] & { body?: BodyRules };
    const copy = Math.floor(index / routes.length);
    const path = copy === 0 ? route.path : `${route.path}/copy${copy}`;
    const rename = (field: string) => (copy === 0 ? field : `${field}Copy${copy}`);
    const body = route.body && {
      required: route.body.required.map(rename),
      properties: Object.fromEntries(
        Object.entries(route.body.properties).map(([field, rule]) => [rename(field), rule]),
      ),
    };
    grown[`post ${path}`] = {
      ...route,
      operationId: `${route.operationId}${copy || ''}`,
      path,
      ...(body && { body }),
    };
  }
  const file = join(dir, `routes-${count}.js`);
  writeFileSync(file, `export const clientRoutes = ${JSON.stringify(grown)};\n`);
  return file;
}

export async function runSize(): Promise<SizeResult> {
  buildPackage();
  const external = ['undici', 'openapi-fetch'];
  const split = await bundle(builtEntry, external, true);
  const atImport = staticallyLoaded(split, builtEntry);
  const loadedWithClient: Record<string, number> = {};
  for (const output of split) {
    if (atImport.includes(output)) continue;
    const main = Object.entries(output.meta.inputs).sort(
      (a, b) => b[1].bytesInOutput - a[1].bytesInOutput,
    )[0];
    loadedWithClient[main?.[0] ?? output.name] = output.gzip;
  }
  const routesChunk = split.find((output) => builtRoutes in output.meta.inputs);
  const dir = mkdtempSync(join(tmpdir(), 'txc-bench-size-'));
  try {
    const grown = (await bundle(routesOf(operatorPaths, dir), [], false))[0]?.gzip ?? Number.NaN;
    const middleware = (await bundle(builtMiddleware, external, false)).reduce(
      (sum, output) => sum + output.gzip,
      0,
    );
    const whole = await bundle(builtEntry, ['openapi-fetch'], false);
    const withoutUndici = await bundle(builtEntry, external, false);
    const minifiedOwnFiles: Record<string, number> = {};
    for (const output of split) {
      for (const [input, { bytesInOutput }] of Object.entries(output.meta.inputs)) {
        if (bytesInOutput > 0) minifiedOwnFiles[input] = bytesInOutput;
      }
    }
    const sum = (outputs: Output[]) => outputs.reduce((total, output) => total + output.gzip, 0);
    return {
      entry: sum(atImport),
      loadedWithClient,
      middleware,
      routes: {
        operations: Object.keys(builtRouteTable()).length,
        bytes: routesChunk?.gzip ?? Number.NaN,
        grownTo: operatorPaths,
        grown,
      },
      undici: sum(whole) - sum(withoutUndici),
      total: sum(whole),
      minifiedOwnFiles,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
