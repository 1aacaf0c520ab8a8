// The transport of every runtime but Node (the other conditions of `#transport` in package.json:
// Bun, Deno, browsers, workers), and of a client given its own `fetch`: a WHATWG fetch, the
// runtime's own or the caller's. It never follows a redirect (a 3xx, or a browser's opaque
// redirect, comes back as it is) and reads the body within a size limit. No `node:` module and no
// undici is reachable from here, so a bundler with default settings never sees them.
import { type Answer, ResponseTooLargeError } from '../errors.ts';
import { type Deadline, Permits } from '../waits.ts';
import type { Lease, Outgoing, Target, Transport } from './types.ts';

/** A fetch as openapi-fetch takes it: called with a Request. */
export type FetchLike = (request: Request) => Promise<Response>;

/**
 * Requests on the wire at once. A browser opens about six connections per origin and queues the
 * rest where a signed call cannot be re-signed; elsewhere fetch pools freely.
 */
const inFlight = 'document' in globalThis || 'WorkerGlobalScope' in globalThis ? 6 : 64;

function tooLarge(limit: number): ResponseTooLargeError {
  return new ResponseTooLargeError(`the answer is larger than maxResponseBytes (${limit})`);
}

async function readLimited(response: Response, limit: number): Promise<string> {
  const declared = response.headers.get('content-length');
  if (Number(declared) > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(limit);
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
      throw tooLarge(limit);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/** `fetch` given: every request goes through it as a Request; none: the runtime's global fetch. */
export function createFetchTransport(fetch?: FetchLike): Transport {
  const slots = new Permits(inFlight);
  let closed: { reason: unknown } | undefined;
  const live = new Set<Deadline>();

  async function send(target: Target, deadline: Deadline, { headers, body }: Outgoing): Promise<Answer> {
    live.add(deadline);
    try {
      if (deadline.ended) throw deadline.reason;
      const init: RequestInit = {
        method: target.method,
        headers,
        body: body ?? null,
        signal: deadline.signal,
        redirect: 'manual',
      };
      const response = fetch
        ? await fetch(new Request(target.url, init))
        : await globalThis.fetch(target.url, init);
      return { response, text: await readLimited(response, target.maxResponseBytes) };
    } catch (error) {
      // fetch rejects with its own error; the deadline's reason says why it ended.
      throw deadline.ended ? deadline.reason : error;
    } finally {
      live.delete(deadline);
      slots.give();
    }
  }

  const leaseFor = (target: Target, deadline: Deadline): Lease => ({
    send: (outgoing) => send(target, deadline, outgoing),
    release: () => slots.give(),
  });

  return {
    lease(target, deadline) {
      if (closed) return Promise.reject(closed.reason);
      return slots.tryTake()
        ? leaseFor(target, deadline)
        : slots.take(deadline).then(() => leaseFor(target, deadline));
    },
    async close(reason) {
      closed = { reason };
      for (const deadline of [...live]) deadline.end(reason);
    },
  };
}

export function createDefaultTransport(): Transport {
  return createFetchTransport();
}
