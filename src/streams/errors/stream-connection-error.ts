import { StreamError } from './stream-error.ts';

/**
 * The connection could not be opened, or it dropped: a request on it ends with this (its `cause`
 * says why the connection ended, e.g. a PongTimeoutError), and a subscription ends with it only
 * once reconnecting has given up.
 */
export class StreamConnectionError extends StreamError {
  override readonly name = 'StreamConnectionError';
  readonly kind = 'connection';
  /** The WebSocket close code, when the socket closed with one. */
  readonly code: number | undefined;

  constructor(message: string, details: { code?: number | undefined; cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = details.code;
  }
}
