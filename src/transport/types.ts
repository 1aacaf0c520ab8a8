// The transport seam: the engine asks a transport for a connection to a target (a lease), signs
// its request only once it holds one, and sends the request on it. Everything HTTP-specific
// (connections, aborts, size limits, redirects) lives behind it, one module per transport; the
// deadline that bounds the attempt is the engine's.
import type { Answer } from '../errors.ts';
import type { Deadline } from '../waits.ts';

/** Where a request goes: one route of one client, made once. */
export interface Target {
  /** The whole URL: the client's base URL and the route's path, its parameters filled in. */
  readonly url: string;
  /** The route's path as the documents write it (`/api/v4/public/orderbook/{market}`). */
  readonly path: string;
  readonly method: string;
  /** Answers with more bytes than this end with a ResponseTooLargeError; the connection is discarded. */
  readonly maxResponseBytes: number;
}

/** The headers (names in lowercase) and body to send. */
export interface Outgoing {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

/** A connection held for one request. */
export interface Lease {
  /**
   * Sends the request and reads the whole answer, never following a redirect; the connection is
   * given back when the answer has ended. Rejects when no answer arrives: with the deadline's
   * reason once it has ended, with a ResponseTooLargeError, or with the connection's error.
   */
  send(outgoing: Outgoing): Promise<Answer>;
  /** Gives the connection back unused (the deadline ended before the request was ready). */
  release(): void;
}

export interface Transport {
  /**
   * A connection to `target`'s origin, at once when one is free, else once one is; rejects with
   * the deadline's reason if it ends first (or with the reason the transport was closed with).
   * Nothing is signed before a call holds one, so nothing signed ever queues inside the HTTP
   * stack, where a window-mode nonce would go stale.
   */
  lease(target: Target, deadline: Deadline): Lease | Promise<Lease>;
  /** Releases every connection, ending exchanges in flight; later leases are refused. Never rejects. */
  close(reason: unknown): Promise<void>;
}
