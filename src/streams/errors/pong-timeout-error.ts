import { StreamError } from './stream-error.ts';

/**
 * The server did not answer a keepalive ping within `pongTimeoutMs`: the socket may look open
 * while nothing gets through (half-open), so the client drops it and reconnects.
 */
export class PongTimeoutError extends StreamError {
  override readonly name = 'PongTimeoutError';
  readonly kind = 'pong-timeout';
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`no answer to the keepalive ping within ${timeoutMs} ms: the connection is taken as half-open`);
    this.timeoutMs = timeoutMs;
  }
}
