// One subscription as its consumer sees it: an async iterable of the channel's updates, with a
// bounded buffer between the socket and the consumer. A consumer that falls more than `bufferSize`
// updates behind gets a BufferOverflowError at its next step (memory stays bounded and the gap is
// never silent); leaving the iteration (break, return, close) unsubscribes. The client decides
// when updates arrive, when the subscription is confirmed and when it fails.
import { BufferOverflowError } from './errors/buffer-overflow-error.ts';

export interface Subscription<Update> extends AsyncIterableIterator<Update, undefined> {
  readonly channel: string;
  /** Whether it is still subscribed: false once it has ended, however it ended. */
  readonly live: boolean;
  /**
   * Resolves once the server has confirmed the subscription (or once it is left before that);
   * rejects with the error that ended it first. Waiting for it is optional: an unobserved
   * rejection is never reported as unhandled.
   */
  readonly ready: Promise<void>;
  /** Ends the iteration and unsubscribes, as `break` does. */
  close(): Promise<void>;
}

type Waiter<Update> = {
  resolve: (result: IteratorResult<Update, undefined>) => void;
  reject: (error: unknown) => void;
};

const done = Object.freeze({ done: true, value: undefined }) as IteratorReturnResult<undefined>;

export class LiveSubscription<Update> implements Subscription<Update> {
  readonly channel: string;
  /** The subscribe request's params, sent again on each new connection. */
  readonly params: unknown;
  readonly ready: Promise<void>;
  /** How many times a server has confirmed it: more than once after reconnections. */
  confirmations = 0;
  /** The connection it was last given to (the client's bookkeeping: subscribed again on a new one). */
  connection: unknown = undefined;
  private ended = false;
  /** An error the consumer has still to be given, once the buffered updates are taken. */
  private failure: unknown = undefined;
  private readonly buffer: Update[] = [];
  private head = 0;
  private readonly waiters: Waiter<Update>[] = [];
  private settleReady: ((error?: unknown) => void) | undefined;
  private readonly bufferSize: number;
  private readonly onLeave: (subscription: LiveSubscription<Update>, error?: unknown) => void;

  /** `onLeave` runs once, when the subscription ends for any reason: the client unsubscribes. */
  constructor(
    channel: string,
    params: unknown,
    bufferSize: number,
    onLeave: (subscription: LiveSubscription<Update>, error?: unknown) => void,
  ) {
    this.channel = channel;
    this.params = params;
    this.bufferSize = bufferSize;
    this.onLeave = onLeave;
    this.ready = new Promise<void>((resolve, reject) => {
      this.settleReady = (error?: unknown) => (error === undefined ? resolve() : reject(error));
    });
    this.ready.catch(() => undefined);
  }

  get live(): boolean {
    return !this.ended;
  }

  /** The server confirmed it (again, after a reconnection). */
  confirm(): void {
    this.confirmations++;
    this.settleReady?.();
    this.settleReady = undefined;
  }

  /** An update arrived: to a waiting consumer, to the buffer, or over its bound. */
  push(update: Update): void {
    if (this.ended) return;
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve({ done: false, value: update });
    else if (this.buffer.length - this.head < this.bufferSize) this.buffer.push(update);
    else this.fail(new BufferOverflowError(this.channel, this.bufferSize), { dropBuffered: true });
  }

  /**
   * Ends it with `error`: the consumer takes the updates buffered first (unless they are dropped,
   * as after an overflow, where what follows them would not be the stream), then the error.
   */
  fail(error: unknown, { dropBuffered = false }: { dropBuffered?: boolean } = {}): void {
    if (this.ended) return;
    if (dropBuffered) this.clearBuffer();
    this.end(error);
    const waiters = this.waiters.splice(0);
    for (const [index, waiter] of waiters.entries()) {
      if (index === 0) waiter.reject(this.takeFailure());
      else waiter.resolve(done);
    }
  }

  /** Ends it without an error (the client was closed): the consumer's loop finishes. */
  finish(): void {
    if (this.ended) return;
    this.clearBuffer();
    this.end(undefined);
    for (const waiter of this.waiters.splice(0)) waiter.resolve(done);
  }

  next(): Promise<IteratorResult<Update, undefined>> {
    if (this.head < this.buffer.length) {
      const value = this.buffer[this.head] as Update;
      this.buffer[this.head] = undefined as Update;
      this.head++;
      if (this.head === this.buffer.length) this.clearBuffer();
      return Promise.resolve({ done: false, value });
    }
    if (this.failure !== undefined) return Promise.reject(this.takeFailure());
    if (this.ended) return Promise.resolve(done);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** The consumer leaves (break, return): ends it and unsubscribes. */
  return(): Promise<IteratorResult<Update, undefined>> {
    this.finish();
    this.failure = undefined;
    return Promise.resolve(done);
  }

  async close(): Promise<void> {
    await this.return();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** What is shown of it, however it is inspected or serialized: never its connection. */
  toJSON(): { channel: string; live: boolean; buffered: number } {
    return { channel: this.channel, live: this.live, buffered: this.buffer.length - this.head };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Subscription ${JSON.stringify(this.toJSON())}`;
  }

  private end(error: unknown): void {
    this.ended = true;
    this.failure = error;
    this.settleReady?.(error);
    this.settleReady = undefined;
    this.onLeave(this, error);
  }

  private takeFailure(): unknown {
    const failure = this.failure;
    this.failure = undefined;
    return failure;
  }

  private clearBuffer(): void {
    this.buffer.length = 0;
    this.head = 0;
  }
}
