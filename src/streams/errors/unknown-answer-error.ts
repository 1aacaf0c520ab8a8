import { StreamError } from './stream-error.ts';

/**
 * An answer whose `id` no request waits for: a late answer to a request that timed out, or a
 * server's mistake. Reported through the `error` hook; the connection stays.
 */
export class UnknownAnswerError extends StreamError {
  override readonly name = 'UnknownAnswerError';
  readonly kind = 'unknown-answer';
  /** The id the answer carried, as it came. */
  readonly id: unknown;

  constructor(id: unknown) {
    super(`an answer with id ${JSON.stringify(id) ?? String(id)} that no request waits for`);
    this.id = id;
  }
}
