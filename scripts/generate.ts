// Writes generated/ from the OpenAPI documents: the types of each API named in redocly.yaml
// (openapi-typescript, to its x-openapi-ts output), operations.ts, the runtime table of
// operation facts read from the documents' vendor extensions, and routes.ts, what the client
// reads of it. With --check it writes nothing and fails when any file in generated/ differs
// from what the documents produce or is not produced by them at all, so CI catches a forgotten
// `npm run generate`. --root DIR works on a copy of the project.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { leftoverGeneratedFiles, renderGeneratedFiles } from './generated-files.ts';

const rootFlag = process.argv.indexOf('--root');
const root =
  rootFlag > 0 ? (process.argv[rootFlag + 1] as string) : fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');

const outputs = await renderGeneratedFiles(root);
let stale = 0;
for (const [file, content] of outputs) {
  if (!check) {
    mkdirSync(dirname(`${root}/${file}`), { recursive: true });
    writeFileSync(`${root}/${file}`, content);
    console.log(`wrote ${file}`);
    continue;
  }
  let current: string | undefined;
  try {
    current = readFileSync(`${root}/${file}`, 'utf8');
  } catch {}
  if (current !== content) {
    console.error(`${file} is stale: run npm run generate`);
    stale++;
  }
}
for (const file of leftoverGeneratedFiles(root, outputs)) {
  if (check) {
    console.error(`${file} is not produced by the documents: run npm run generate`);
    stale++;
  } else {
    rmSync(`${root}/${file}`);
    console.log(`removed ${file}`);
  }
}
if (stale > 0) process.exit(1);
if (check) console.log('generated/ is up to date');
