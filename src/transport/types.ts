// The transport seam: the client hands a transport one finished request (URL, method, headers,
// signed body, deadline) and gets back the status, headers and body text. Everything HTTP-specific
// (connections, deadlines, aborts) lives behind it, one module per transport.

/** What a response offers: a WHATWG Response, or a transport's lighter equivalent. */
export interface ResponseLike {
  readonly status: number;
  readonly ok: boolean;
  /** The URL called, without credentials. */
  readonly url: string;
  readonly headers: { get(name: string): string | null };
}

/** One request, ready to go out. */
export interface Exchange {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  /** The caller's signal; when it aborts, the request ends with its reason. */
  readonly signal: AbortSignal | undefined;
  /** Deadline for the whole exchange, body included; 0 means none. */
  readonly timeoutMs: number;
}

/** The answer to an exchange: the response and its whole body as text. */
export interface Answer {
  readonly response: ResponseLike;
  readonly text: string;
}

export interface Transport {
  /**
   * Sends one exchange. Rejects when no answer arrives: with a `TimeoutError` DOMException at the
   * deadline, with the caller's abort reason, or with the connection's error.
   */
  send(exchange: Exchange): Promise<Answer>;
  /** Releases connections. Never rejects. */
  close(): Promise<void>;
}
