// The default transport on Node: undici's Pool.request, the fastest HTTP path Node has. A WHATWG
// Request and Response cost more CPU than the whole undici round trip, so the answer is a light
// response holding just what the client reads.
import { Pool } from 'undici';
import { Deadline } from './deadline.ts';
import type { Answer, Exchange, ResponseLike, Transport } from './types.ts';

type RawHeaders = Record<string, string | string[] | undefined>;

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

export function createUndiciTransport(): Transport {
  const pools = new Map<string, Pool>();
  const poolFor = (origin: string) => {
    let pool = pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, { connections: 256, pipelining: 1 });
      pools.set(origin, pool);
    }
    return pool;
  };
  // The URL of each route is parsed once.
  const targets = new Map<string, { pool: Pool; path: string }>();
  const targetFor = (href: string) => {
    let target = targets.get(href);
    if (!target) {
      const url = new URL(href);
      target = { pool: poolFor(url.origin), path: url.pathname + url.search };
      if (targets.size < 1024) targets.set(href, target);
    }
    return target;
  };
  return {
    async send(exchange: Exchange): Promise<Answer> {
      const { pool, path } = targetFor(exchange.url);
      const deadline =
        exchange.timeoutMs > 0 || exchange.signal
          ? new Deadline(exchange.timeoutMs, exchange.signal)
          : undefined;
      try {
        const answer = await pool.request({
          path,
          method: exchange.method as 'GET',
          headers: exchange.headers,
          body: exchange.body ?? null,
          signal: (deadline ?? null) as AbortSignal | null,
        });
        const text = await answer.body.text();
        return { response: new LightResponse(answer.statusCode, answer.headers, exchange.url), text };
      } catch (error) {
        // undici rejects with its own error; the deadline's reason says why it aborted.
        throw deadline?.aborted ? deadline.reason : error;
      } finally {
        deadline?.clear();
      }
    },
    async close() {
      const closing = [...pools.values()].map((pool) => pool.close().catch(() => undefined));
      pools.clear();
      targets.clear();
      await Promise.all(closing);
    },
  };
}
