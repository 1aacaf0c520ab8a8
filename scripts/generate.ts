// Writes generated/ from the OpenAPI documents: the types of each API named in redocly.yaml
// (openapi-typescript, to its x-openapi-ts output) and operations.ts, the runtime table of
// operation facts read from the documents' vendor extensions. With --check it writes nothing
// and fails when any file in generated/ differs from what the documents produce, so CI
// catches a forgotten `npm run generate`. --root DIR works on a copy of the project.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { parse } from 'yaml';
import { renderOperationsModule } from './operation-facts.ts';

const rootFlag = process.argv.indexOf('--root');
const root =
  rootFlag > 0 ? (process.argv[rootFlag + 1] as string) : fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');

async function renderTypes(file: string): Promise<string> {
  const ast = await openapiTS(pathToFileURL(`${root}/${file}`), {
    enum: true,
    conditionalEnums: true,
    rootTypes: true,
    rootTypesNoSchemaPrefix: true,
    // A default is what the server assumes when a field is left out: it stays optional.
    defaultNonNullable: false,
    silent: true,
  });
  return COMMENT_HEADER + astToString(ast);
}

const outputs = new Map<string, string>();
const config = parse(readFileSync(`${root}/redocly.yaml`, 'utf8'));
for (const api of Object.values<{ root: string; 'x-openapi-ts': { output: string } }>(config.apis)) {
  outputs.set(api['x-openapi-ts'].output, await renderTypes(api.root));
}
outputs.set('generated/operations.ts', renderOperationsModule(root));

let stale = 0;
for (const [file, content] of outputs) {
  if (!check) {
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
if (stale > 0) process.exit(1);
if (check) console.log('generated/ is up to date');
