import { StreamError } from './stream-error.ts';

/** The client was closed: requests in flight end with this at once, and later ones fail with it. */
export class StreamClosedError extends StreamError {
  override readonly name = 'StreamClosedError';
  readonly kind = 'closed';

  constructor() {
    super('the stream client was closed');
  }
}
