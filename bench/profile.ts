// `npm run bench:profile`: a CPU profile of the built client's default Node path under load
// (node --cpu-prof, concurrency 64, 5 s) drawn as a flame graph, bench/flame.svg: each box a
// function in its call stack, as wide as its share of the samples. Also prints the functions
// with the most self time, to say where the client's own time goes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { balancePath, startServer } from './http.ts';
import { buildPackage, builtEntry } from './package.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

const root = buildPackage();
const directory = mkdtempSync(join(tmpdir(), 'txc-profile-'));
const server = await startServer();
try {
  execFileSync(
    process.execPath,
    [
      '--cpu-prof',
      `--cpu-prof-dir=${directory}`,
      fileURLToPath(new URL('./profile-child.mjs', import.meta.url)),
    ],
    {
      env: {
        ...process.env,
        ENTRY: pathToFileURL(join(root, builtEntry)).href,
        ORIGIN: server.origin,
        BALANCE_PATH: balancePath,
        DURATION_MS: '5000',
      },
      stdio: 'pipe',
    },
  );
} finally {
  server.stop();
}
const file = readdirSync(directory)
  .map((name) => join(directory, name))
  .sort((a, b) => statSync(b).size - statSync(a).size)[0] as string;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
rmSync(directory, { recursive: true, force: true });

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfSamples = new Map<number, number>();
for (const sample of profile.samples) selfSamples.set(sample, (selfSamples.get(sample) ?? 0) + 1);
const total = new Map<number, number>();
const totalOf = (id: number): number => {
  const known = total.get(id);
  if (known !== undefined) return known;
  const node = byId.get(id) as ProfileNode;
  const sum =
    (selfSamples.get(id) ?? 0) + (node.children ?? []).reduce((acc, child) => acc + totalOf(child), 0);
  total.set(id, sum);
  return sum;
};
const rootNode = profile.nodes[0] as ProfileNode;
const all = totalOf(rootNode.id);
const label = (node: ProfileNode) => {
  // Paths relative to the project (or to node_modules): nothing of this machine's layout.
  const file = node.callFrame.url
    .replace(pathToFileURL(root).href, '')
    .replace(/^.*\/(node_modules\/|dist\/)/, '$1')
    .replace(/^file:\/\//, '');
  return `${node.callFrame.functionName || '(anonymous)'}${file ? ` ${file}:${node.callFrame.lineNumber + 1}` : ''}`;
};
const area = (node: ProfileNode) => {
  const url = node.callFrame.url;
  if (url.includes('/dist/')) return '#e8a33d';
  if (url.includes('node_modules/undici')) return '#7aa6d6';
  if (url.startsWith('node:')) return '#9bc48a';
  return '#c9c9c9';
};

// The flame graph: x by share of samples, y by depth; boxes below 0.1 % are left out.
const width = 1200;
const rowHeight = 16;
const boxes: string[] = [];
let depthMax = 0;
const draw = (id: number, x: number, depth: number) => {
  const node = byId.get(id) as ProfileNode;
  const share = totalOf(id) / all;
  if (share < 0.001) return;
  const w = share * width;
  depthMax = Math.max(depthMax, depth);
  const name = label(node).replace(/[<>&"]/g, '');
  const y = depth * rowHeight;
  boxes.push(
    `<g><title>${name} (${(share * 100).toFixed(1)} %)</title><rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${rowHeight - 1}" fill="${area(node)}"/>` +
      (w > 60
        ? `<text x="${(x + 3).toFixed(1)}" y="${y + 11}">${name.slice(0, Math.floor(w / 6.5))}</text>`
        : '') +
      '</g>',
  );
  let offset = x;
  for (const child of node.children ?? []) {
    draw(child, offset, depth + 1);
    offset += (totalOf(child) / all) * width;
  }
};
draw(rootNode.id, 0, 0);
const height = (depthMax + 1) * rowHeight;
writeFileSync(
  fileURLToPath(new URL('./flame.svg', import.meta.url)),
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="monospace" font-size="10">\n` +
    `<title>CPU profile of the built client, signed calls at concurrency 64</title>\n` +
    `<rect width="100%" height="100%" fill="#fff"/>\n${boxes.join('\n')}\n</svg>\n`,
);

const selfByName = new Map<string, number>();
for (const [id, count] of selfSamples) {
  const name = label(byId.get(id) as ProfileNode);
  selfByName.set(name, (selfByName.get(name) ?? 0) + count);
}
const samples = profile.samples.length;
console.log(`bench/flame.svg written (${samples} samples). Most self time:`);
for (const [name, count] of [...selfByName].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
  console.log(`${((count / samples) * 100).toFixed(1).padStart(5)} %  ${name}`);
}
