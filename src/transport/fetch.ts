// The transport of every runtime but Node: a WHATWG fetch, the runtime's own or one the caller
// injects. It owns the deadline like every transport and reads the whole body within it.
import { Deadline } from './deadline.ts';
import type { Answer, Exchange, Transport } from './types.ts';

/** A fetch as openapi-fetch takes it: called with a Request. */
export type FetchLike = (request: Request) => Promise<Response>;

/** `fetch` given: every call goes through it with a Request; none: the runtime's global fetch. */
export function createFetchTransport(fetch?: FetchLike): Transport {
  return {
    async send(exchange: Exchange): Promise<Answer> {
      const deadline =
        exchange.timeoutMs > 0 || exchange.signal
          ? new Deadline(exchange.timeoutMs, exchange.signal)
          : undefined;
      const init: RequestInit = {
        method: exchange.method,
        headers: exchange.headers,
        body: exchange.body ?? null,
        signal: deadline?.signal ?? null,
      };
      try {
        const response = fetch
          ? await fetch(new Request(exchange.url, init))
          : await globalThis.fetch(exchange.url, init);
        return { response, text: await response.text() };
      } catch (error) {
        throw deadline?.aborted ? deadline.reason : error;
      } finally {
        deadline?.clear();
      }
    },
    async close() {},
  };
}
