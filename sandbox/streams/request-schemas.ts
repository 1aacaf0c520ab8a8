// The stream requests' schemas, from the documents' catalog (model/stream-catalog.ts): a request
// whose payload breaks its message's schema is refused before a channel reads it. The catalog is
// read once per process, at the first request that needs it (not when a sandbox starts: most
// never serve a stream); each message's validator is compiled when it is first needed.
import { loadStreamCatalog, type StreamCatalog } from '../../model/stream-catalog.ts';

let catalog: StreamCatalog | undefined;

/** Whether `payload` is a valid request of `method` (a method of the documents). */
export function isValidRequest(method: string, payload: unknown): boolean {
  catalog ??= loadStreamCatalog();
  const request = catalog.request(method);
  if (!request) throw new Error(`the stream documents have no request ${method}`);
  return request.message.problems(payload).length === 0;
}
