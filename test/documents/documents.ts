// The two documents, dereferenced, and the operations in them, for the document tests.
import { dereference, projectRoot, readDocument } from '../../scripts/openapi-document.ts';
import { loadApiDocuments } from '../../scripts/operation-facts.ts';

// biome-ignore lint/suspicious/noExplicitAny: parsed YAML
export type Json = any;

export const apiDocuments = loadApiDocuments(projectRoot);

export const documents: Record<string, Json> = Object.fromEntries(
  apiDocuments.map((api) => [api.name, dereference(readDocument(api.file))]),
);

export function operationAt(api: string, method: string, path: string): Json {
  return documents[api]?.paths?.[path]?.[method];
}

export function requestSchema(path: string): Json {
  return operationAt('private-v4', 'post', path).requestBody.content['application/json'].schema;
}

/** Every media type of every request and response, with where it is. */
export function* mediaTypes(): Generator<{ where: string; mediaType: Json }> {
  for (const [api, document] of Object.entries(documents)) {
    for (const [path, item] of Object.entries<Json>(document.paths)) {
      for (const [method, operation] of Object.entries<Json>(item)) {
        for (const [type, mediaType] of Object.entries<Json>(operation.requestBody?.content ?? {})) {
          yield { where: `${api} ${method} ${path} request ${type}`, mediaType };
        }
        for (const [status, response] of Object.entries<Json>(operation.responses)) {
          for (const [type, mediaType] of Object.entries<Json>(response.content ?? {})) {
            yield { where: `${api} ${method} ${path} ${status} ${type}`, mediaType };
          }
        }
      }
    }
  }
}
