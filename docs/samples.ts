// Every operation's TypeScript sample is derived from its first named request example by
// `npm run generate` (scripts/code-samples.ts) into generated/samples/<operationId>.ts, where
// `npm run typecheck` compiles it against the client; the docs build puts it into the pages as
// the operation's `x-codeSamples`. Nothing here is written per operation.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadApiDocuments } from '../model/document.ts';
import { recordAt, stringAt } from '../model/json.ts';
import { httpMethods } from '../model/model.ts';
import { samplePath } from '../scripts/code-samples.ts';

export { readerSource, sampleLabel, sampleLang, sampleLineWidth } from '../scripts/code-samples.ts';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

export function sampleFile(operationId: string, root = projectRoot): string {
  return join(root, samplePath(operationId));
}

/** The operations of the documents under `root` whose generated sample is missing. */
export function findMissingSamples(root = projectRoot): string[] {
  return loadApiDocuments(root).flatMap((api) =>
    Object.values(recordAt(api.dereferenced, 'paths')).flatMap((item) =>
      httpMethods.flatMap((method) => {
        const operationId = stringAt(item, method, 'operationId');
        return operationId && !existsSync(sampleFile(operationId, root))
          ? [`${operationId}: no sample ${samplePath(operationId)} (run npm run generate)`]
          : [];
      }),
    ),
  );
}
