// Size: src/index.ts bundled by esbuild for Node (ESM, minified), gzipped. Our own code (src/ and
// the generated operation table) is measured with openapi-fetch and undici external; each
// dependency's share is what it adds when it is bundled in, and the metafile gives the
// minified bytes of every input.
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface SizeResult {
  /** Gzipped bytes of the bundle with openapi-fetch and undici external: our code alone. */
  own: number;
  /** Gzipped bytes that bundling openapi-fetch in adds. */
  openapiFetch: number;
  /** Gzipped bytes that bundling undici in adds. */
  undici: number;
  /** Gzipped bytes of the whole self-contained bundle. */
  total: number;
  /** Minified (not gzipped) bytes in the full bundle, by group: src/, generated/, each package. */
  minifiedByGroup: Record<string, number>;
  /** Minified bytes of each of our own files. */
  minifiedOwnFiles: Record<string, number>;
}

async function bundle(external: string[]) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['src/index.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    external,
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error('esbuild produced no output');
  const inputs = Object.values(result.metafile.outputs)[0]?.inputs ?? {};
  return { gzip: gzipSync(output.contents, { level: 9 }).length, inputs };
}

function groupOf(input: string): string {
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (packageMatch) return packageMatch[1] as string;
  return input.split('/')[0] as string;
}

export async function runSize(): Promise<SizeResult> {
  const own = await bundle(['undici', 'openapi-fetch']);
  const withOpenapiFetch = await bundle(['undici']);
  const full = await bundle([]);
  const minifiedByGroup: Record<string, number> = {};
  for (const [input, { bytesInOutput }] of Object.entries(full.inputs)) {
    const group = groupOf(input);
    minifiedByGroup[group] = (minifiedByGroup[group] ?? 0) + bytesInOutput;
  }
  const minifiedOwnFiles: Record<string, number> = {};
  for (const [input, { bytesInOutput }] of Object.entries(own.inputs)) {
    if (bytesInOutput > 0) minifiedOwnFiles[input] = bytesInOutput;
  }
  return {
    own: own.gzip,
    openapiFetch: withOpenapiFetch.gzip - own.gzip,
    undici: full.gzip - withOpenapiFetch.gzip,
    total: full.gzip,
    minifiedByGroup,
    minifiedOwnFiles,
  };
}
