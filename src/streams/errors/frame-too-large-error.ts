import { StreamError } from './stream-error.ts';

/** A frame larger than `maxMessageBytes`: the connection is dropped, as after a malformed frame. */
export class FrameTooLargeError extends StreamError {
  override readonly name = 'FrameTooLargeError';
  readonly kind = 'frame-too-large';
  readonly limitBytes: number;

  constructor(limitBytes: number) {
    super(`a frame from the server is larger than maxMessageBytes (${limitBytes})`);
    this.limitBytes = limitBytes;
  }
}
