import { StreamError } from './stream-error.ts';

/**
 * A depth update that cannot be applied to the book held: its `past_update_id` is not the last
 * `update_id` seen (a gap), a change came before any whole book, or a level is not a decimal
 * price and amount, or the book came out crossed. The book is dropped and a fresh snapshot asked
 * for; this says why, through the `resnapshot` hook.
 */
export class OrderBookGapError extends StreamError {
  override readonly name = 'OrderBookGapError';
  readonly kind = 'order-book-gap';
  readonly market: string;
  /** The last `update_id` the book had applied, if any. */
  readonly lastUpdateId: number | undefined;
  /** The `past_update_id` of the update refused, if it had one. */
  readonly pastUpdateId: number | undefined;

  constructor(
    market: string,
    reason: string,
    ids: { lastUpdateId?: number | undefined; pastUpdateId?: number | undefined } = {},
  ) {
    super(`${market}: ${reason}; the book is dropped and a fresh snapshot asked for`);
    this.market = market;
    this.lastUpdateId = ids.lastUpdateId;
    this.pastUpdateId = ids.pastUpdateId;
  }
}
