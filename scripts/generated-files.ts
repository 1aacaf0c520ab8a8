// What generated/ should hold for the documents of a project root: the types of each API named in
// redocly.yaml (openapi-typescript, to its x-openapi-ts output) and operations.ts, the runtime
// table of operation facts. Used by `npm run generate` and by the watch loop of `npm start`.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { parse } from 'yaml';
import { renderOperationsModule } from './operation-facts.ts';

async function renderTypes(root: string, file: string): Promise<string> {
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

/** The content of every generated file, by path relative to `root`. */
export async function renderGeneratedFiles(root: string): Promise<Map<string, string>> {
  const outputs = new Map<string, string>();
  const config = parse(readFileSync(`${root}/redocly.yaml`, 'utf8'));
  for (const api of Object.values<{ root: string; 'x-openapi-ts': { output: string } }>(config.apis)) {
    outputs.set(api['x-openapi-ts'].output, await renderTypes(root, api.root));
  }
  outputs.set('generated/operations.ts', renderOperationsModule(root));
  return outputs;
}
