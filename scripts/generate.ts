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

/**
 * A named enum (a schema with x-enum-varnames) as a const object beside the union type of the same name,
 * so `ActionType.INVEST` reads as it would with a TypeScript enum while the output stays erasable
 * syntax (no `enum`), which Node's type stripping and every bundler accept.
 */
function renderNamedEnums(document: { components?: { schemas?: Record<string, Record<string, unknown>> } }) {
  const blocks: string[] = [];
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    const names = schema['x-enum-varnames'];
    const values = schema.enum;
    if (!Array.isArray(names) || !Array.isArray(values)) continue;
    const descriptions = Array.isArray(schema['x-enum-descriptions']) ? schema['x-enum-descriptions'] : [];
    const members = names.map((member, index) => {
      const description = descriptions[index];
      const doc = typeof description === 'string' ? `    /** ${description} */\n` : '';
      return `${doc}    ${member}: ${JSON.stringify(values[index])},`;
    });
    // The union type of the same name is openapi-typescript's root type alias.
    blocks.push(`export const ${name} = {\n${members.join('\n')}\n} as const;\n`);
  }
  return blocks.join('');
}

async function renderTypes(file: string): Promise<string> {
  const ast = await openapiTS(pathToFileURL(`${root}/${file}`), {
    rootTypes: true,
    rootTypesNoSchemaPrefix: true,
    // A default is what the server assumes when a field is left out: it stays optional.
    defaultNonNullable: false,
    silent: true,
  });
  return COMMENT_HEADER + astToString(ast) + renderNamedEnums(parse(readFileSync(`${root}/${file}`, 'utf8')));
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
