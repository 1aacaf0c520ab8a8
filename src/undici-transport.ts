// The default transport on Node: undici's Pool.request, the fastest HTTP path Node has, behind
// the `fetch` and `Request` seams of openapi-fetch. openapi-fetch builds one request object per
// call; a WHATWG Request (and the Response fetch returns) costs more than the whole undici
// round trip, so this transport hands openapi-fetch a plain LightRequest instead and answers
// with a LightResponse that has just what openapi-fetch and the client read.
import { Pool } from 'undici';

type HeaderSource = { forEach(callback: (value: string, name: string) => void): void };

export class LightRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: HeaderSource;
  readonly body: string | undefined;
  readonly signal: AbortSignal | undefined;

  constructor(
    url: string,
    init: { method?: string; headers?: HeaderSource; body?: unknown; signal?: AbortSignal },
  ) {
    this.url = url;
    this.method = init.method ?? 'GET';
    this.headers = init.headers ?? { forEach() {} };
    this.body = typeof init.body === 'string' ? init.body : undefined;
    this.signal = init.signal ?? undefined;
  }
}

export class LightHeaders {
  constructor(private readonly raw: Record<string, string | string[] | undefined>) {}
  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined;
  }
  forEach(callback: (value: string, name: string) => void): void {
    for (const name of Object.keys(this.raw)) callback(this.get(name) as string, name);
  }
}

export class LightResponse {
  readonly ok: boolean;
  readonly headers: LightHeaders;
  readonly body = null;
  constructor(
    readonly status: number,
    headers: Record<string, string | string[] | undefined>,
    private readonly content: string,
    readonly url: string,
  ) {
    this.ok = status >= 200 && status < 300;
    this.headers = new LightHeaders(headers);
  }
  async text(): Promise<string> {
    return this.content;
  }
  async json(): Promise<unknown> {
    return JSON.parse(this.content);
  }
}

export interface UndiciTransport {
  Request: typeof LightRequest;
  fetch(request: LightRequest): Promise<LightResponse>;
  /** What `fetch` does, without a request object: the client's direct path on Node. */
  send(
    url: string,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<LightResponse>;
  close(): Promise<void>;
}

export function createUndiciTransport(): UndiciTransport {
  const pools = new Map<string, Pool>();
  const poolFor = (origin: string) => {
    let pool = pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, { connections: 256, pipelining: 1 });
      pools.set(origin, pool);
    }
    return pool;
  };
  // A client calls a handful of URLs over and over: each is parsed once, not once per call.
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
  const send: UndiciTransport['send'] = async (url, method, headers, body, signal) => {
    const { pool, path } = targetFor(url);
    const answer = await pool.request({ path, method: method as 'GET', headers, body, signal });
    const content = await answer.body.text();
    return new LightResponse(answer.statusCode, answer.headers, content, url);
  };
  return {
    Request: LightRequest,
    send,
    async fetch(request) {
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        headers[name] = value;
      });
      return send(request.url, request.method, headers, request.body, request.signal);
    },
    async close() {
      await Promise.all([...pools.values()].map((pool) => pool.close()));
      pools.clear();
      targets.clear();
    },
  };
}
