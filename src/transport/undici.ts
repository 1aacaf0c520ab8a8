// The default transport on Node (the `node` condition of `#transport` in package.json, loaded when
// a client is made): undici's `Client.dispatch` on an idle connection of its own, the lowest
// layer of Node's fastest HTTP stack. `Pool.request` above it wraps every answer in a Readable
// stream and follows an AbortSignal through listeners, which measured about 14 µs a call more at
// concurrency 64 than this handler, which collects the body itself and aborts through undici's
// own controller. An undici Client never follows redirects.
import { Client, type Dispatcher } from 'undici';
import { type Answer, type ResponseLike, ResponseTooLargeError } from '../errors.ts';
import { type Deadline, Permits } from '../waits.ts';
import type { Lease, Outgoing, Target, Transport } from './types.ts';

type ParsedHeaders = Record<string, string | string[] | undefined>;

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

/** A response holding just what the client reads; it is its own headers (names in any case). */
class LightResponse implements ResponseLike {
  readonly status: number;
  readonly ok: boolean;
  readonly url: string;
  private readonly parsed: ParsedHeaders;

  constructor(status: number, parsed: ParsedHeaders, url: string) {
    this.status = status;
    this.ok = status >= 200 && status < 300;
    this.url = url;
    this.parsed = parsed;
  }

  get headers(): { get(name: string): string | null } {
    return this;
  }

  get(name: string): string | null {
    const value = this.parsed[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
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
 * aborts the request through undici's controller, which discards its connection; the promise
 * settles at once either way. A class rather than closures: one object a call instead of eight.
 */
class UndiciExchange implements Lease, Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private client: Client | undefined;
  private settled = false;
  private status = 0;
  private parsed: ParsedHeaders = {};
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
    // undici hands this back to onResponseError, which is ignored once settled.
    this.controller?.abort(abandoned);
    if (this.client) this.origin.give(this.client);
    else this.origin.slots.give();
    this.reject?.(reason);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // Ended while the request waited for its connection: it is never written.
    if (this.settled) controller.abort(abandoned);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: ParsedHeaders): void {
    this.status = status;
    this.parsed = headers;
    const limit = this.target.maxResponseBytes;
    if (Number(headers['content-length']) > limit) this.fail(tooLarge(limit));
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.size += chunk.length;
    const limit = this.target.maxResponseBytes;
    if (this.size > limit) this.fail(tooLarge(limit));
    else this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.settled) return;
    this.settled = true;
    this.deadline.offEnd(this.onDeadline);
    this.origin.give(this.client as Client);
    const { chunks } = this;
    const text =
      chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8');
    (this.resolve as (answer: Answer) => void)({
      response: new LightResponse(this.status, this.parsed, this.target.url),
      text,
    });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
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
