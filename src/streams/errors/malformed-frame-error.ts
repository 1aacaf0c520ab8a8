import { StreamError } from './stream-error.ts';

/**
 * A frame that is not JSON, or not a message of the protocol (an answer with an `id`, or an update
 * with `id: null`, a `method` and `params`). What it means for the stream cannot be known (it may
 * have been an update), so the client drops the connection and subscribes again on a new one.
 */
export class MalformedFrameError extends StreamError {
  override readonly name = 'MalformedFrameError';
  readonly kind = 'malformed-frame';
  /** The beginning of the frame, scrubbed of the token. */
  readonly excerpt: string;

  constructor(reason: string, excerpt: string, cause?: unknown) {
    super(
      `a frame from the server is ${reason}: ${JSON.stringify(excerpt)}`,
      cause === undefined ? undefined : { cause },
    );
    this.excerpt = excerpt;
  }
}
