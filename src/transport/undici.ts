// The default transport on Node: undici's Pool.request, the fastest HTTP path Node has. A WHATWG
// Request and Response cost more CPU than the whole undici round trip, so the answer is a light
// response holding just what the client reads. undici's pool never follows redirects.
import { type Dispatcher, Pool } from 'undici';
import { ResponseTooLargeError } from '../errors.ts';
import { Exchanges } from './exchanges.ts';
import { Slots } from './slots.ts';
import type { Answer, Exchange, ResponseLike, Transport } from './types.ts';

type RawHeaders = Record<string, string | string[] | undefined>;

/** Connections per origin; as many exchanges may be on the wire at once. */
const connections = 256;

class LightResponse implements ResponseLike {
  readonly status: number;
  readonly ok: boolean;
  readonly url: string;
  readonly headers: { get(name: string): string | null };

  constructor(status: number, raw: RawHeaders, url: string) {
    this.status = status;
    this.ok = status >= 200 && status < 300;
    this.url = url;
    this.headers = {
      get(name) {
        const value = raw[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(', ') : value;
      },
    };
  }
}

function tooLarge(limit: number): ResponseTooLargeError {
  return new ResponseTooLargeError(`the answer is larger than maxResponseBytes (${limit})`);
}

type Body = Dispatcher.ResponseData['body'];

/**
 * The whole body as text, refused past `limit` bytes, declared or streamed; destroying the body
 * discards its connection, so nothing more is read. Plain 'data' events: an async iterator over
 * the stream measured several promise hops a call more.
 */
function readLimited(body: Body, declared: number, limit: number): Promise<string> {
  if (declared > limit) {
    body.destroy();
    return Promise.reject(tooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        body.destroy();
        reject(tooLarge(limit));
      } else chunks.push(chunk);
    });
    body.on('end', () =>
      resolve(
        chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8'),
      ),
    );
    body.on('error', reject);
  });
}

export function createUndiciTransport(): Transport {
  const pools = new Map<string, { pool: Pool; slots: Slots }>();
  const poolFor = (origin: string) => {
    let entry = pools.get(origin);
    if (!entry) {
      entry = { pool: new Pool(origin, { connections, pipelining: 1 }), slots: new Slots(connections) };
      pools.set(origin, entry);
    }
    return entry;
  };
  // The URL of each route is parsed once.
  const targets = new Map<string, { pool: Pool; slots: Slots; path: string }>();
  const targetFor = (href: string) => {
    let target = targets.get(href);
    if (!target) {
      const url = new URL(href);
      target = { ...poolFor(url.origin), path: url.pathname + url.search };
      if (targets.size < 1024) targets.set(href, target);
    }
    return target;
  };
  const exchanges = new Exchanges();

  return {
    send(exchange: Exchange): Promise<Answer> {
      const { pool, slots, path } = targetFor(exchange.url);
      return exchanges.run(exchange, slots, async ({ headers, body }, deadline) => {
        const answer = await pool.request({
          path,
          method: exchange.method as 'GET',
          headers,
          body: body ?? null,
          // The one cast in src/: the deadline is the part of an AbortSignal undici reads (aborted,
          // reason, 'abort' listeners) without being one; a real AbortSignal per call measured
          // about 6 µs, a fifth of the client's own cost (deadline.ts).
          signal: deadline as unknown as AbortSignal,
        });
        const length = Number(answer.headers['content-length']);
        const text = await readLimited(answer.body, length, exchange.maxResponseBytes);
        return { response: new LightResponse(answer.statusCode, answer.headers, exchange.url), text };
      });
    },
    async close(reason) {
      exchanges.close(reason);
      const closing = [...pools.values()].map(({ pool }) => pool.destroy().catch(() => undefined));
      pools.clear();
      targets.clear();
      await Promise.all(closing);
    },
  };
}
