// The two documents, dereferenced, and the operations in them, for the document tests: read
// through the document model (model/), parsed once and shared with everything else.
import { loadApiDocuments } from '../../model/document.ts';
import { documentModel } from '../../model/model.ts';

// The document tests still walk the documents freely; the model itself is typed.
// biome-ignore lint/suspicious/noExplicitAny: parsed YAML, see above
export type Json = any;

export const apiDocuments = loadApiDocuments();

export const documents: Record<string, Json> = documentModel().documents;

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
