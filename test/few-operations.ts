// Cuts the HTTP documents of a copy of the project to a few operations each, for the tests whose
// promise does not depend on how many operations a document has (the watch loop, codegen drift,
// one more operation): rendering, mocking and reading the whole private document was most of
// their time, and grows with every operation the documents gain.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseDocument, type Scalar, type YAMLMap } from 'yaml';
import { operations } from '../generated/operations.ts';
import { streamTokenOperation } from '../generated/streams.ts';
import { recordAt, stringAt } from '../model/json.ts';

/** How many of a document's paths a cut keeps, besides those asked for: the first ones. */
const firstPaths = 3;

/**
 * Leaves, in each document of the copy at `root`, its first three paths, the stream token's (the
 * stream documents name its operation), the first operation of each kind of authorisation the
 * document has (else a security scheme is left that nothing uses, which the lint refuses) and the
 * paths of `operationIds`: the path items go from the root document's `paths`, their files stay
 * where they are.
 */
export function keepFewOperations(
  root: string,
  { operationIds = [] }: { operationIds?: readonly string[] } = {},
): void {
  const asked = [streamTokenOperation.operationId, ...operationIds].map((operationId) => {
    const operation = (operations as Record<string, { path: string } | undefined>)[operationId];
    if (!operation) throw new Error(`${operationId} is no operation of the documents`);
    return operation.path;
  });
  // The root documents as redocly.yaml names them: read, not dereferenced (all a cut touches).
  const apis = recordAt(parse(readFileSync(join(root, 'redocly.yaml'), 'utf8')), 'apis');
  for (const [name, api] of Object.entries(apis)) {
    const rootFile = stringAt(api, 'root');
    if (!rootFile) throw new Error(`redocly.yaml: api ${name} has no root`);
    const file = join(root, rootFile);
    const document = parseDocument(readFileSync(file, 'utf8'));
    const paths = document.get('paths') as YAMLMap<Scalar<string>, unknown>;
    const ofThisApi = Object.values(operations as Record<string, { api: string; auth: string; path: string }>)
      .filter((operation) => operation.api === name)
      .sort((a, b) => a.path.localeCompare(b.path));
    const eachAuthorisation = [...new Set(ofThisApi.map((operation) => operation.auth))].map(
      (auth) => ofThisApi.find((operation) => operation.auth === auth)?.path as string,
    );
    const kept = new Set([
      ...asked,
      ...eachAuthorisation,
      ...paths.items.slice(0, firstPaths).map((pair) => pair.key.value),
    ]);
    for (const pair of [...paths.items]) if (!kept.has(pair.key.value)) paths.delete(pair.key);
    writeFileSync(file, document.toString());
  }
}
