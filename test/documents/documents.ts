// The two documents, dereferenced, and the operations in them, for the document tests: read
// through the document model (model/), parsed once and shared with everything else. Nodes are
// `unknown`; the tests look inside with the narrowing helpers below, which name the path of a
// node that is missing or of the wrong kind instead of crashing on `undefined`.
import { loadApiDocuments } from '../../model/document.ts';
import { at, isRecord, type JsonRecord } from '../../model/json.ts';
import { documentModel } from '../../model/model.ts';

export type { JsonRecord };
export { at };

export const apiDocuments = loadApiDocuments();

export const documents: Readonly<Record<string, JsonRecord>> = documentModel().documents;

type Step = string | number;

/** The object at `path` below `value`; throws, naming the path, when it is not one. */
export function record(value: unknown, ...path: Step[]): JsonRecord {
  const node = at(value, ...path);
  if (!isRecord(node)) throw new Error(`no object at ${path.join('.') || '(root)'}`);
  return node;
}

/** The string at `path` below `value`; throws, naming the path, when it is not one. */
export function text(value: unknown, ...path: Step[]): string {
  const node = at(value, ...path);
  if (typeof node !== 'string') throw new Error(`no string at ${path.join('.') || '(root)'}`);
  return node;
}

/** The array at `path` below `value`; throws, naming the path, when it is not one. */
export function list(value: unknown, ...path: Step[]): readonly unknown[] {
  const node = at(value, ...path);
  if (!Array.isArray(node)) throw new Error(`no array at ${path.join('.') || '(root)'}`);
  return node;
}

/** The entries of the object at `path`, or none when there is no object there. */
export function entries(value: unknown, ...path: Step[]): [string, unknown][] {
  const node = at(value, ...path);
  return isRecord(node) ? Object.entries(node) : [];
}

/** The operation object; throws when the document has no such operation. */
export function operationAt(api: string, method: string, path: string): JsonRecord {
  return record(documents[api], 'paths', path, method);
}

export function requestSchema(path: string): JsonRecord {
  return record(
    operationAt('private-v4', 'post', path),
    'requestBody',
    'content',
    'application/json',
    'schema',
  );
}

/** Every media type of every request and response, with where it is. */
export function* mediaTypes(): Generator<{ where: string; mediaType: JsonRecord }> {
  for (const [api, document] of Object.entries(documents)) {
    for (const [path, item] of entries(document, 'paths')) {
      for (const [method, operation] of entries(item)) {
        for (const [type, mediaType] of entries(operation, 'requestBody', 'content')) {
          if (isRecord(mediaType)) yield { where: `${api} ${method} ${path} request ${type}`, mediaType };
        }
        for (const [status, response] of entries(operation, 'responses')) {
          for (const [type, mediaType] of entries(response, 'content')) {
            if (isRecord(mediaType)) yield { where: `${api} ${method} ${path} ${status} ${type}`, mediaType };
          }
        }
      }
    }
  }
}
