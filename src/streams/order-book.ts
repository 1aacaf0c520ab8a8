// A local order book kept from the depth channel (asyncapi/channels/depth.yaml, observed
// upstream): the first update after subscribing is a whole book, the ones after it carry the levels
// that changed, an amount of "0" removes a level, and each change names the `update_id` it follows
// (`past_update_id`). Prices and amounts stay the server's decimal strings, compared exactly
// (decimal.ts), never as Numbers. A change that does not follow the book held (a gap in the
// sequence), a level that is not a decimal pair, or a book that comes out crossed is never applied:
// the book is dropped and a fresh whole book asked for, by subscribing again.
import type { StreamUpdate, SubscribeParams } from './channels.ts';
import type { StreamClient } from './client.ts';
import { compareDecimals, isDecimal, isZeroDecimal } from './decimal.ts';
import { OrderBookGapError } from './errors/order-book-gap-error.ts';
import { emit, type StreamHooks } from './hooks.ts';

/** One price level: the price, then the amount resting at it, as the server writes them. */
export type PriceLevel = readonly [price: string, amount: string];

/** What a depth update carries: whether it is a whole book, the book or its changes, the market. */
export type DepthUpdate = StreamUpdate<'depth'>;

/** A book as its reader sees it. */
export interface OrderBookView {
  readonly market: string;
  /** Highest price first. Changed in place by the next update: copy what you keep. */
  readonly bids: readonly PriceLevel[];
  /** Lowest price first. Changed in place by the next update: copy what you keep. */
  readonly asks: readonly PriceLevel[];
  /** The `update_id` of the last update applied, when the server sent one. */
  readonly updateId: number | undefined;
  /** The matching engine's time of the last update applied (Unix seconds with a fraction). */
  readonly timestamp: number | undefined;
}

const isLevel = (level: unknown): level is PriceLevel =>
  Array.isArray(level) && level.length === 2 && isDecimal(level[0]) && isDecimal(level[1]);

const optionalId = (value: unknown): number | undefined =>
  Number.isSafeInteger(value) ? (value as number) : undefined;

/** Where `price` is in `levels` (sorted by `order`), or where it would go. */
function find(
  levels: readonly PriceLevel[],
  price: string,
  order: 1 | -1,
): { index: number; found: boolean } {
  let low = 0;
  let high = levels.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const compared = compareDecimals((levels[middle] as PriceLevel)[0], price) * order;
    if (compared === 0) return { index: middle, found: true };
    if (compared < 0) low = middle + 1;
    else high = middle;
  }
  return { index: low, found: false };
}

/** Sets the amount at `price` (an amount of zero removes the level), keeping the side sorted. */
function setLevel(levels: PriceLevel[], [price, amount]: PriceLevel, order: 1 | -1): void {
  const { index, found } = find(levels, price, order);
  const zero = isZeroDecimal(amount);
  if (found) {
    if (zero) levels.splice(index, 1);
    else levels[index] = [price, amount];
  } else if (!zero) levels.splice(index, 0, [price, amount]);
}

/** The highest bid (`order` -1) or lowest ask (1) that `levels` set to an amount, if any. */
function outermost(levels: readonly PriceLevel[], order: 1 | -1): string | undefined {
  let best: string | undefined;
  for (const [price, amount] of levels) {
    if (!isZeroDecimal(amount) && (best === undefined || compareDecimals(price, best) * order < 0))
      best = price;
  }
  return best;
}

/** Whether a bid at `bid` stays below an ask at `ask` (true when either is missing). */
const below = (bid: string | undefined, ask: string | undefined) =>
  bid === undefined || ask === undefined || compareDecimals(bid, ask) < 0;

/**
 * One market's book. `apply` takes each depth update in order: a whole book replaces the book, a
 * change is applied once it is known to follow the book held. Until a whole book has arrived
 * (after `reset`, or at first) changes are skipped: they may be a stream's tail from before.
 */
export class OrderBook implements OrderBookView {
  readonly market: string;
  bids: PriceLevel[] = [];
  asks: PriceLevel[] = [];
  updateId: number | undefined = undefined;
  timestamp: number | undefined = undefined;
  /** Whether the book holds a whole book and the changes that followed it: safe to read. */
  synced = false;

  constructor(market: string) {
    this.market = market;
  }

  /**
   * Applies one depth update; returns whether it changed the book. Throws an OrderBookGapError,
   * the book left as it was, when the update cannot follow it: drop the book (`reset`) and ask
   * for a whole one.
   */
  apply([fullReload, book, market]: DepthUpdate): boolean {
    if (market !== this.market)
      throw this.gap(`an update of ${String(market)} reached the book of ${this.market}`);
    if (typeof book !== 'object' || book === null) throw this.gap('an update without a book');
    const { asks, bids } = book;
    if (!Array.isArray(asks) || !Array.isArray(bids) || !asks.every(isLevel) || !bids.every(isLevel)) {
      throw this.gap('an update with a level that is not a decimal price and amount');
    }
    const updateId = optionalId(book.update_id);
    const pastUpdateId = optionalId(book.past_update_id);
    if (fullReload !== true) {
      if (!this.synced) return false;
      // The sequence is checked where both ids are known; where the server sends none the
      // documents' order of updates is all there is to go by.
      if (pastUpdateId !== undefined && this.updateId !== undefined && pastUpdateId !== this.updateId) {
        throw this.gap(
          `a gap in the sequence: the update follows ${pastUpdateId}, the book is at ${this.updateId}`,
          pastUpdateId,
        );
      }
    }
    // A change is made in place when it cannot cross the book: removing levels only moves the
    // sides apart, so it can only if a price it sets reaches the other side. Otherwise it is made
    // on copies, so that a book that comes out crossed is left as it was.
    const topBid = outermost(bids, -1);
    const topAsk = outermost(asks, 1);
    const inPlace =
      fullReload !== true &&
      below(topBid, topAsk) &&
      below(topBid, this.asks[0]?.[0]) &&
      below(this.bids[0]?.[0], topAsk);
    const nextBids = fullReload === true ? [] : inPlace ? this.bids : [...this.bids];
    const nextAsks = fullReload === true ? [] : inPlace ? this.asks : [...this.asks];
    for (const level of bids) setLevel(nextBids, level, -1);
    for (const level of asks) setLevel(nextAsks, level, 1);
    const bestBid = nextBids[0];
    const bestAsk = nextAsks[0];
    if (bestBid && bestAsk && compareDecimals(bestBid[0], bestAsk[0]) >= 0) {
      throw this.gap(
        `the book came out crossed (bid ${bestBid[0]} at or above ask ${bestAsk[0]})`,
        pastUpdateId,
      );
    }
    this.bids = nextBids;
    this.asks = nextAsks;
    this.updateId = updateId ?? (fullReload === true ? undefined : this.updateId);
    this.timestamp = typeof book.timestamp === 'number' ? book.timestamp : this.timestamp;
    this.synced = true;
    return true;
  }

  /** Drops the book: nothing is read from it until the next whole book. */
  reset(): void {
    this.bids = [];
    this.asks = [];
    this.updateId = undefined;
    this.timestamp = undefined;
    this.synced = false;
  }

  private gap(reason: string, pastUpdateId?: number): OrderBookGapError {
    return new OrderBookGapError(this.market, reason, { lastUpdateId: this.updateId, pastUpdateId });
  }
}

export interface WatchOrderBookOptions {
  market: string;
  /** Levels of each side, one of the depth channel's (default 100). */
  limit?: DepthSubscribeLimit;
  /** The price interval levels are grouped by; `"0"` (the default) for none. */
  priceInterval?: SubscribeParams<'depth'>[2];
  /** `resnapshot`: the book was dropped for a fresh snapshot, and why. */
  hooks?: Pick<StreamHooks, 'resnapshot'>;
}

type DepthSubscribeLimit = SubscribeParams<'depth'>[1];

/**
 * A market's book, kept from the depth channel: yields the book (one object, updated in place:
 * copy what you keep) after each update once it is whole. A gap or a broken sequence drops it,
 * says so through the `resnapshot` hook, and subscribes again for a fresh whole book; the book is
 * not yielded meanwhile. Leaving the iteration unsubscribes. Uses the client's depth subscription.
 */
export async function* watchOrderBook(
  client: Pick<StreamClient, 'subscribe'>,
  options: WatchOrderBookOptions,
): AsyncGenerator<OrderBookView, void, undefined> {
  const { market, limit = 100, priceInterval = '0', hooks } = options;
  const book = new OrderBook(market);
  for (;;) {
    // `false`: this is the connection's one depth subscription (the client keeps one per channel).
    const subscription = client.subscribe('depth', [market, limit, priceInterval, false]);
    let gap: OrderBookGapError | undefined;
    try {
      for await (const update of subscription) {
        try {
          if (book.apply(update)) yield book;
        } catch (error) {
          if (!(error instanceof OrderBookGapError)) throw error;
          gap = error;
          break;
        }
      }
    } finally {
      await subscription.close();
    }
    if (!gap) return;
    book.reset();
    emit(hooks?.resnapshot, { market, error: gap });
  }
}
