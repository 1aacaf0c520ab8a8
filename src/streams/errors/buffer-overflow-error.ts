import { StreamError } from './stream-error.ts';

/**
 * The consumer of a subscription fell more than `bufferSize` updates behind. The updates held are
 * dropped (what follows them would not be the stream), the subscription ends and is unsubscribed,
 * and the iteration's next step throws this: memory stays bounded and the gap is never silent.
 */
export class BufferOverflowError extends StreamError {
  override readonly name = 'BufferOverflowError';
  readonly kind = 'buffer-overflow';
  readonly channel: string;
  readonly bufferSize: number;

  constructor(channel: string, bufferSize: number) {
    super(
      `${channel}: the consumer fell more than ${bufferSize} updates behind (bufferSize); the subscription ended`,
    );
    this.channel = channel;
    this.bufferSize = bufferSize;
  }
}
