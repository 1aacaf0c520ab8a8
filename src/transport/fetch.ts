// The transport of every runtime but Node: a WHATWG fetch, the runtime's own or one the caller
// injects. It owns the deadline like every transport, never follows a redirect (a 3xx, or a
// browser's opaque redirect, comes back as it is), and reads the body within a size limit.
import { ResponseTooLargeError } from '../errors.ts';
import { Exchanges } from './exchanges.ts';
import { Slots } from './slots.ts';
import type { Answer, Exchange, Transport } from './types.ts';

/** A fetch as openapi-fetch takes it: called with a Request. */
export type FetchLike = (request: Request) => Promise<Response>;

/**
 * Exchanges on the wire at once. A browser opens about six connections per origin and queues the
 * rest where a signed call cannot be re-signed; elsewhere fetch pools freely.
 */
const inFlight = 'document' in globalThis || 'WorkerGlobalScope' in globalThis ? 6 : 64;

async function readLimited(response: Response, limit: number): Promise<string> {
  const declared = response.headers.get('content-length');
  if (Number(declared) > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw new ResponseTooLargeError(`the answer is larger than maxResponseBytes (${limit})`);
  }
  if (!response.body) return '';
  // A declared length within the limit, not compressed (a compressed body grows as it is decoded):
  // the runtime reads no more than that, in one piece, faster than a chunk loop.
  const encoding = response.headers.get('content-encoding');
  if (declared !== null && (encoding === null || encoding === 'identity')) return response.text();
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new ResponseTooLargeError(`the answer is larger than maxResponseBytes (${limit})`);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/** `fetch` given: every call goes through it with a Request; none: the runtime's global fetch. */
export function createFetchTransport(fetch?: FetchLike): Transport {
  const slots = new Slots(inFlight);
  const exchanges = new Exchanges();
  return {
    send(exchange: Exchange): Promise<Answer> {
      return exchanges.run(exchange, slots, async ({ headers, body }, deadline) => {
        const init: RequestInit = {
          method: exchange.method,
          headers,
          body: body ?? null,
          signal: deadline.signal,
          redirect: 'manual',
        };
        const response = fetch
          ? await fetch(new Request(exchange.url, init))
          : await globalThis.fetch(exchange.url, init);
        return { response, text: await readLimited(response, exchange.maxResponseBytes) };
      });
    },
    async close(reason) {
      exchanges.close(reason);
    },
  };
}
