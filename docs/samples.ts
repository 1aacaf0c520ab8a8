// The TypeScript code sample of every operation lives in docs/samples/<operationId>.ts, where
// `npm run typecheck` compiles it against the client. The documents show it through the
// operation's `x-codeSamples`, whose `source` is a $ref to that file, so there is one copy.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadApiDocuments, pathItemFile } from '../model/document.ts';
import { arrayAt, recordAt, stringAt } from '../model/json.ts';
import { httpMethods } from '../model/model.ts';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));
export const sampleLang = 'TypeScript';
export const sampleLabel = 'TypeScript client';

export function sampleFile(operationId: string, root = projectRoot): string {
  return `${root}/docs/samples/${operationId}.ts`;
}

/**
 * Where a document's x-codeSamples should point for an operation, relative to the root document
 * (the model rebases the $ref written in the operation's own file, openapi/paths/, to it).
 */
export const sampleRef = (operationId: string) => `../docs/samples/${operationId}.ts`;

/**
 * What is missing: a sample file, or a document entry referring to it. Empty when complete. The
 * operations are read from the documents under `root` as they are now (the watch loop of
 * `npm start` checks a document before generated/ is rewritten from it).
 */
export function findMissingSamples(root = projectRoot): string[] {
  const problems: string[] = [];
  for (const api of loadApiDocuments(root)) {
    for (const [path, item] of Object.entries(recordAt(api.dereferenced, 'paths'))) {
      for (const method of httpMethods) {
        const operationId = stringAt(item, method, 'operationId');
        if (operationId === undefined) continue;
        if (!existsSync(sampleFile(operationId, root))) {
          problems.push(`${operationId}: no sample file docs/samples/${operationId}.ts`);
        }
        const sample = arrayAt(item, method, 'x-codeSamples').find(
          (entry) => stringAt(entry, 'lang') === sampleLang,
        );
        if (stringAt(sample, 'source', '$ref') !== sampleRef(operationId)) {
          problems.push(
            `${operationId}: ${pathItemFile(api, path)} has no ${sampleLang} x-codeSamples entry referring to docs/samples/${operationId}.ts`,
          );
        }
      }
    }
  }
  return problems;
}
