// The default transport on Node (the `node` condition of `#transport` in package.json, loaded when
// a client is made): undici's `Client.dispatch` on an idle connection of its own, the lowest
// layer of Node's fastest HTTP stack. `Pool.request` above it wraps every answer in a Readable
// stream and follows an AbortSignal through listeners, which measured about 14 µs a call more at
// concurrency 64 than this handler, which collects the body itself and aborts through undici's
// own `abort`. An undici Client never follows redirects.
import { Client, type Dispatcher } from 'undici';
import { type Answer, type ResponseLike, ResponseTooLargeError } from '../errors.ts';
import { type Deadline, Permits } from '../waits.ts';
import type { Lease, Outgoing, Target, Transport } from './types.ts';

/** Header names and values as undici reads them off the wire, one after the other. */
type RawHeaders = readonly (Buffer | string)[];

const latin1 = (item: Buffer | string | undefined): string =>
  item === undefined ? '' : typeof item === 'string' ? item : item.toString('latin1');

/**
 * Whether a raw header name is `name` (lowercase), in any case: compared byte by byte, so that
 * the names a call does not ask for are never decoded into strings.
 */
function isHeader(key: Buffer | string, name: string): boolean {
  if (key.length !== name.length) return false;
  if (typeof key === 'string') return key.toLowerCase() === name;
  for (let i = 0; i < name.length; i++) {
    const byte = key[i] as number;
    const code = name.charCodeAt(i);
    if (byte !== code && !(byte >= 0x41 && byte <= 0x5a && byte + 0x20 === code)) return false;
  }
  return true;
}

/** Every value of the header `name` (lowercase) joined by ", ", as Headers.get does; null when absent. */
function headerValue(raw: RawHeaders, name: string): string | null {
  let value: string | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    if (!isHeader(raw[i] as Buffer | string, name)) continue;
    const item = latin1(raw[i + 1]);
    value = value === null ? item : `${value}, ${item}`;
  }
  return value;
}

/**
 * The length the answer declares (its first Content-Length), or -1 without one: read from the
 * raw bytes, digits only, so that the check every answer goes through makes no string.
 */
function declaredLength(raw: RawHeaders): number {
  for (let i = 0; i < raw.length; i += 2) {
    if (!isHeader(raw[i] as Buffer | string, 'content-length')) continue;
    const value = raw[i + 1];
    if (value === undefined || typeof value === 'string') return Number(value);
    let length = 0;
    for (let j = 0; j < value.length; j++) {
      const digit = (value[j] as number) - 0x30;
      if (digit < 0 || digit > 9) return Number(latin1(value));
      length = length * 10 + digit;
    }
    return length;
  }
  return -1;
}

/** Connections per origin; as many requests may be on the wire at once, the rest wait for a lease. */
const connectionsPerOrigin = 256;

/**
 * The connections to one origin: undici Clients (one connection each, one request at a time),
 * opened as needed and kept idle on a stack between requests, at most one per permit of `slots`.
 * A Pool does the same with a scan for a free client and a queue of its own on every dispatch:
 * this measured about 6 µs a call less at concurrency 64. A Client reconnects by itself after
 * its connection fails or is discarded.
 */
class Origin {
  readonly slots = new Permits(connectionsPerOrigin);
  private readonly idle: Client[] = [];
  private readonly opened: Client[] = [];
  private readonly origin: string;

  constructor(origin: string) {
    this.origin = origin;
  }

  /** An idle connection, the one used last (kept warm), or a new one. */
  take(): Client {
    const client = this.idle.pop();
    if (client) return client;
    const opened = new Client(this.origin, { pipelining: 1 });
    this.opened.push(opened);
    return opened;
  }

  /** Back on the stack once its request has ended, and the slot free for the next lease. */
  give(client: Client): void {
    this.idle.push(client);
    this.slots.give();
  }

  /** Closes every connection at once, requests in flight included. */
  async destroy(): Promise<void> {
    const closing = this.opened.splice(0).map((client) => client.destroy().catch(() => undefined));
    this.idle.length = 0;
    await Promise.all(closing);
  }
}

/**
 * A response holding just what the client reads; it is its own headers (names in any case),
 * looked up in undici's raw list when asked: a success reads none of them, so none is decoded.
 */
class LightResponse implements ResponseLike {
  readonly status: number;
  readonly ok: boolean;
  readonly url: string;
  private readonly raw: RawHeaders;

  constructor(status: number, raw: RawHeaders, url: string) {
    this.status = status;
    this.ok = status >= 200 && status < 300;
    this.url = url;
    this.raw = raw;
  }

  get headers(): { get(name: string): string | null } {
    return this;
  }

  get(name: string): string | null {
    return headerValue(this.raw, name.toLowerCase());
  }
}

/** What undici is told when an exchange it carries is abandoned; the caller sees the real reason. */
const abandoned = new Error('the exchange was abandoned');

function tooLarge(limit: number): ResponseTooLargeError {
  return new ResponseTooLargeError(`the answer is larger than maxResponseBytes (${limit})`);
}

/**
 * A lease, then one request on the wire as undici's dispatch handler: collects the answer,
 * refused past `maxResponseBytes`, declared or received. The deadline ending (or the size limit)
 * aborts the request through undici's `abort`, which discards its connection; the promise
 * settles at once either way. A class rather than closures: one object a call instead of eight.
 *
 * It implements the hooks undici's dispatcher calls itself (onConnect, onHeaders, onData,
 * onComplete, onError), as undici's own `request()` does, rather than the newer onRequestStart
 * family: for those, undici wraps every request in an adapter that allocates a controller and
 * decodes each response header into an object, about 1 µs a call in process, for headers a
 * successful call never reads. undici marks these hooks deprecated in its types; the version is
 * pinned exactly, and test/client covers this transport end to end.
 */
class UndiciExchange implements Lease, Dispatcher.DispatchHandler {
  private abort: ((reason?: Error) => void) | undefined;
  private client: Client | undefined;
  private settled = false;
  private status = 0;
  private raw: RawHeaders = [];
  private size = 0;
  private readonly chunks: Buffer[] = [];
  private resolve: ((answer: Answer) => void) | undefined;
  private reject: ((reason: unknown) => void) | undefined;
  private readonly onDeadline = () => this.fail(this.deadline.reason);
  private readonly origin: Origin;
  private readonly path: string;
  private readonly target: Target;
  private readonly deadline: Deadline;

  constructor(origin: Origin, path: string, target: Target, deadline: Deadline) {
    this.origin = origin;
    this.path = path;
    this.target = target;
    this.deadline = deadline;
  }

  send(outgoing: Outgoing): Promise<Answer> {
    return new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      if (this.deadline.ended) return this.fail(this.deadline.reason);
      this.deadline.onEnd(this.onDeadline);
      this.client = this.origin.take();
      const method = this.target.method as Dispatcher.HttpMethod;
      this.client.dispatch(
        { path: this.path, method, headers: outgoing.headers, body: outgoing.body ?? null },
        this,
      );
    });
  }

  release(): void {
    this.origin.slots.give();
  }

  private fail(reason: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.deadline.offEnd(this.onDeadline);
    // undici hands this back to onError, which is ignored once settled.
    this.abort?.(abandoned);
    if (this.client) this.origin.give(this.client);
    else this.origin.slots.give();
    this.reject?.(reason);
  }

  onConnect(abort: (reason?: Error) => void): void {
    this.abort = abort;
    // Ended while the request waited for its connection: it is never written.
    if (this.settled) abort(abandoned);
  }

  onHeaders(status: number, raw: Buffer[]): boolean {
    this.status = status;
    this.raw = raw;
    const limit = this.target.maxResponseBytes;
    if (declaredLength(raw) > limit) this.fail(tooLarge(limit));
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.size += chunk.length;
    const limit = this.target.maxResponseBytes;
    if (this.size > limit) this.fail(tooLarge(limit));
    else this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.settled) return;
    this.settled = true;
    this.deadline.offEnd(this.onDeadline);
    this.origin.give(this.client as Client);
    const { chunks } = this;
    const text =
      chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8');
    (this.resolve as (answer: Answer) => void)({
      response: new LightResponse(this.status, this.raw, this.target.url),
      text,
    });
  }

  onError(error: Error): void {
    this.fail(error);
  }
}

export function createDefaultTransport(): Transport {
  const origins = new Map<string, Origin>();
  // Each target's origin and path, found once.
  const targets = new Map<string, { origin: Origin; path: string }>();
  const routeOf = (href: string) => {
    let route = targets.get(href);
    if (!route) {
      const url = new URL(href);
      let origin = origins.get(url.origin);
      if (!origin) {
        origin = new Origin(url.origin);
        origins.set(url.origin, origin);
      }
      route = { origin, path: url.pathname + url.search };
      if (targets.size < 1024) targets.set(href, route);
    }
    return route;
  };
  let closed: { reason: unknown } | undefined;

  return {
    lease(target, deadline) {
      if (closed) return Promise.reject(closed.reason);
      const { origin, path } = routeOf(target.url);
      const lease = new UndiciExchange(origin, path, target, deadline);
      // A free slot is taken at once, without a promise.
      return origin.slots.tryTake() ? lease : origin.slots.take(deadline).then(() => lease);
    },
    async close(reason) {
      closed = { reason };
      const closing = [...origins.values()].map((origin) => origin.destroy());
      origins.clear();
      targets.clear();
      await Promise.all(closing);
    },
  };
}
