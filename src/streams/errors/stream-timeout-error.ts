import { StreamError } from './stream-error.ts';

/** A request got no answer within its deadline: the server never answered, or never connected. */
export class StreamTimeoutError extends StreamError {
  override readonly name = 'StreamTimeoutError';
  readonly kind = 'timeout';
  /** The method of the request, as the stream documents name it. */
  readonly method: string;
  readonly timeoutMs: number;
  /** Whether the request was sent: false when no connection opened within the deadline. */
  readonly sent: boolean;

  constructor(method: string, timeoutMs: number, sent: boolean, cause?: unknown) {
    super(
      `${method}: no answer within ${timeoutMs} ms${sent ? '' : ' (no connection was open to send it on)'}`,
      cause === undefined ? undefined : { cause },
    );
    this.method = method;
    this.timeoutMs = timeoutMs;
    this.sent = sent;
  }
}
