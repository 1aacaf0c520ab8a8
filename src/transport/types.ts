// The transport seam: the client hands a transport one request (URL, method, deadline, and how to
// produce its headers and body) and gets back the status, headers and body text. Everything
// HTTP-specific (connections, deadlines, aborts, size limits, redirects) lives behind it, one
// module per transport.

/** What a response offers: a WHATWG Response, or a transport's lighter equivalent. */
export interface ResponseLike {
  readonly status: number;
  readonly ok: boolean;
  /** The URL called, without credentials. */
  readonly url: string;
  readonly headers: { get(name: string): string | null };
}

/** The headers and body to send, produced at the last moment. */
export interface Outgoing {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

/** One request. */
export interface Exchange {
  readonly url: string;
  readonly method: string;
  /**
   * Produces the headers and body once a connection is free, right before the request goes out,
   * so that a signed call's nonce is fresh when it arrives. `wait` sleeps within the deadline.
   */
  prepare(wait: (ms: number) => Promise<void>): Outgoing | Promise<Outgoing>;
  /** The caller's signal; when it aborts, the request ends with its reason. */
  readonly signal: AbortSignal | undefined;
  /** Deadline for the whole exchange (waiting for a connection, the request, the whole body); 0: none. */
  readonly timeoutMs: number;
  /** Answers with more bytes than this end with a ResponseTooLargeError; the connection is discarded. */
  readonly maxResponseBytes: number;
}

/** The answer to an exchange: the response and its whole body as text. */
export interface Answer {
  readonly response: ResponseLike;
  readonly text: string;
}

export interface Transport {
  /**
   * Sends one exchange, never following a redirect. Rejects when no answer arrives: with a
   * `TimeoutError` DOMException at the deadline, with the caller's abort reason, with a
   * ResponseTooLargeError, or with the connection's error.
   */
  send(exchange: Exchange): Promise<Answer>;
  /** Ends every exchange in flight with `reason` and releases connections. Never rejects. */
  close(reason: unknown): Promise<void>;
}
