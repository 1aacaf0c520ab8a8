// Size: the built package's entry (dist/src/index.js) bundled by esbuild for Node (ESM, minified,
// code splitting), gzipped. With openapi-fetch and undici external, the entry chunk is the
// client's own code (src/ and the generated operation table) and a second chunk is the undici
// transport, which the client imports on its first call. Each package's share is what bundling it in adds; the metafile
// gives the minified bytes of every input.
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { buildPackage, builtEntry, builtTransport } from './package.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface SizeResult {
  /** Gzipped bytes of the entry chunk: the client's own code, loaded on import. */
  own: number;
  /** Gzipped bytes of the entry chunk with the generated operation table left external. */
  ownWithoutTable: number;
  /** Gzipped bytes of the chunk holding the undici transport, loaded on the first call. */
  transport: number;
  /** Gzipped bytes that bundling openapi-fetch in adds. */
  openapiFetch: number;
  /** Gzipped bytes that bundling undici in adds. */
  undici: number;
  /** Gzipped bytes of the whole self-contained bundle (one file, no splitting). */
  total: number;
  /** Minified (not gzipped) bytes in the full bundle, by group: src/, generated/, each package. */
  minifiedByGroup: Record<string, number>;
  /** Minified bytes of each of our own files. */
  minifiedOwnFiles: Record<string, number>;
}

const gzip = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;

async function bundle(external: string[], splitting: boolean, tableExternal = false) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: { index: builtEntry },
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
    plugins: tableExternal
      ? [
          {
            name: 'table-external',
            setup(plugin) {
              plugin.onResolve({ filter: /generated\/operations\.js$/ }, (args) => ({
                path: args.path,
                external: true,
              }));
            },
          },
        ]
      : [],
  });
  const outputs = result.outputFiles.map((file) => {
    const key = Object.keys(result.metafile.outputs).find((name) => file.path.endsWith(name)) ?? '';
    return { gzip: gzip(file.contents), meta: result.metafile.outputs[key] as Metafile['outputs'][string] };
  });
  return outputs;
}

function groupOf(input: string): string {
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (packageMatch) return packageMatch[1] as string;
  // dist/src/… and dist/generated/… count as src and generated.
  return input.replace(/^dist\//, '').split('/')[0] as string;
}

export async function runSize(): Promise<SizeResult> {
  buildPackage();
  const split = await bundle(['undici', 'openapi-fetch'], true);
  const entry = split.find((output) => output.meta.entryPoint === builtEntry);
  const transport = split.find((output) => builtTransport in output.meta.inputs);
  if (!entry || !transport || entry === transport) throw new Error('unexpected esbuild chunks');
  const sum = (outputs: { gzip: number }[]) => outputs.reduce((total, output) => total + output.gzip, 0);
  const own = sum(split.filter((output) => output !== transport));
  const withoutTable = await bundle(['undici', 'openapi-fetch'], true, true);
  const ownWithoutTable = sum(withoutTable.filter((output) => !(builtTransport in output.meta.inputs)));
  const ownAll = sum(await bundle(['undici', 'openapi-fetch'], false));
  const withOpenapiFetch = sum(await bundle(['undici'], false));
  const full = await bundle([], false);
  const minifiedByGroup: Record<string, number> = {};
  for (const [input, { bytesInOutput }] of Object.entries(full[0]?.meta.inputs ?? {})) {
    const group = groupOf(input);
    minifiedByGroup[group] = (minifiedByGroup[group] ?? 0) + bytesInOutput;
  }
  const minifiedOwnFiles: Record<string, number> = {};
  for (const output of split) {
    for (const [input, { bytesInOutput }] of Object.entries(output.meta.inputs)) {
      if (bytesInOutput > 0) minifiedOwnFiles[input] = bytesInOutput;
    }
  }
  return {
    own,
    ownWithoutTable,
    transport: transport.gzip,
    openapiFetch: withOpenapiFetch - ownAll,
    undici: sum(full) - withOpenapiFetch,
    total: sum(full),
    minifiedByGroup,
    minifiedOwnFiles,
  };
}
