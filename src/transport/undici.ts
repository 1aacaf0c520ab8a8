// The default transport on Node: undici's `Client.dispatch` on an idle connection of its own
// (connections.ts), the lowest layer of Node's fastest HTTP stack. `Pool.request` above it wraps
// every answer in a Readable stream and follows an AbortSignal through listeners, which measured
// about 14 µs a call more at concurrency 64 than this handler, which collects the body itself and
// aborts through undici's own controller. The answer is a light response holding just what the
// client reads. An undici Client never follows redirects.
import type { Client, Dispatcher } from 'undici';
import { ResponseTooLargeError } from '../errors.ts';
import { Connections } from './connections.ts';
import type { Deadline } from './deadline.ts';
import { Exchanges } from './exchanges.ts';
import { Slots } from './slots.ts';
import type { Answer, Exchange, ResponseLike, Transport } from './types.ts';

type ParsedHeaders = Record<string, string | string[] | undefined>;

/** Connections per origin; as many exchanges may be on the wire at once. */
const connectionsPerOrigin = 256;

/** The headers of a light response, read as Headers reads them (names in any case). */
class LightHeaders {
  private readonly parsed: ParsedHeaders;

  constructor(parsed: ParsedHeaders) {
    this.parsed = parsed;
  }

  get(name: string): string | null {
    const value = this.parsed[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
}

class LightResponse implements ResponseLike {
  readonly status: number;
  readonly ok: boolean;
  readonly url: string;
  readonly headers: LightHeaders;

  constructor(status: number, parsed: ParsedHeaders, url: string) {
    this.status = status;
    this.ok = status >= 200 && status < 300;
    this.url = url;
    this.headers = new LightHeaders(parsed);
  }
}

/** What undici is told when an exchange it carries is abandoned; the caller sees the real reason. */
const abandoned = new Error('the exchange was abandoned');

function tooLarge(limit: number): ResponseTooLargeError {
  return new ResponseTooLargeError(`the answer is larger than maxResponseBytes (${limit})`);
}

/**
 * One request on the wire, as undici's dispatch handler: collects the answer, refused past
 * `limit` bytes, declared or received. Ending the deadline (or the size limit) aborts the request
 * through undici's controller, which discards its connection; the promise settles at once either
 * way. A class rather than closures: one object a call instead of eight.
 */
class UndiciExchange implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private settled = false;
  private status = 0;
  private parsed: ParsedHeaders = {};
  private size = 0;
  private readonly chunks: Buffer[] = [];
  private readonly url: string;
  private readonly limit: number;
  private readonly deadline: Deadline;
  private readonly resolve: (answer: Answer) => void;
  private readonly reject: (reason: unknown) => void;
  private readonly onDeadline = () => this.fail(this.deadline.reason);
  private readonly connections: Connections;
  private readonly client: Client;

  constructor(
    connections: Connections,
    url: string,
    limit: number,
    deadline: Deadline,
    resolve: (answer: Answer) => void,
    reject: (reason: unknown) => void,
  ) {
    this.connections = connections;
    this.client = connections.take();
    this.url = url;
    this.limit = limit;
    this.deadline = deadline;
    this.resolve = resolve;
    this.reject = reject;
    deadline.onEnd(this.onDeadline);
  }

  private fail(reason: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.deadline.offEnd(this.onDeadline);
    // undici hands this back to onResponseError, which is ignored once settled.
    this.controller?.abort(abandoned);
    this.connections.give(this.client);
    this.reject(reason);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // Ended while the request waited for its connection: it is never written.
    if (this.settled) controller.abort(abandoned);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: ParsedHeaders): void {
    this.status = status;
    this.parsed = headers;
    if (Number(headers['content-length']) > this.limit) this.fail(tooLarge(this.limit));
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.limit) this.fail(tooLarge(this.limit));
    else this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.settled) return;
    this.settled = true;
    this.deadline.offEnd(this.onDeadline);
    this.connections.give(this.client);
    const { chunks } = this;
    const text =
      chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8');
    this.resolve({ response: new LightResponse(this.status, this.parsed, this.url), text });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.fail(error);
  }

  /** Sends the request on this exchange's connection. */
  dispatch(options: Dispatcher.DispatchOptions): void {
    this.client.dispatch(options, this);
  }
}

export function createUndiciTransport(): Transport {
  const origins = new Map<string, { connections: Connections; slots: Slots }>();
  const originFor = (origin: string) => {
    let entry = origins.get(origin);
    if (!entry) {
      entry = { connections: new Connections(origin), slots: new Slots(connectionsPerOrigin) };
      origins.set(origin, entry);
    }
    return entry;
  };
  // The URL of each route is parsed once.
  const targets = new Map<string, { connections: Connections; slots: Slots; path: string }>();
  const targetFor = (href: string) => {
    let target = targets.get(href);
    if (!target) {
      const url = new URL(href);
      target = { ...originFor(url.origin), path: url.pathname + url.search };
      if (targets.size < 1024) targets.set(href, target);
    }
    return target;
  };
  const exchanges = new Exchanges();

  return {
    send(exchange: Exchange): Promise<Answer> {
      const { connections, slots, path } = targetFor(exchange.url);
      return exchanges.run(
        exchange,
        slots,
        ({ headers, body }, deadline) =>
          new Promise((resolve, reject) => {
            const { url, maxResponseBytes } = exchange;
            const sending = new UndiciExchange(connections, url, maxResponseBytes, deadline, resolve, reject);
            const method = exchange.method as Dispatcher.HttpMethod;
            sending.dispatch({ path, method, headers, body: body ?? null });
          }),
      );
    },
    async close(reason) {
      exchanges.close(reason);
      const closing = [...origins.values()].map((entry) => entry.connections.destroy());
      origins.clear();
      targets.clear();
      await Promise.all(closing);
    },
  };
}
