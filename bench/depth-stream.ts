// A seeded stream of one market's order book as the depth channel sends it
// (asyncapi/channels/depth.yaml): a whole book, then changes, each naming the `update_id` it
// follows. The changes are what a busy market makes: amounts at the levels near the top change
// most, levels go (an amount of "0") and new ones appear, never crossing the other side, a handful
// of levels an update, prices and amounts at the market's precision. The same seed gives the same
// frames, so every contender of a round gets the same stream, and the stream keeps the book it
// describes, to compare the consumers' books with.
//
// Every frame's `timestamp` (the matching engine's time, Unix seconds) is its place in the stream:
// `timestampOf(phase, sequence)`, a millisecond apart, half a millisecond in, so that a consumer
// that keeps the time in whole milliseconds (ccxt) and one that keeps the seconds (ours) both tell
// which update their book holds (`sequenceOf`). Each phase of the bench has a range of its own, so
// a late frame of an earlier phase is never taken for one of the current phase.
import { streamChannels } from '../generated/streams.ts';

/** A market's name and precision, as the sandbox's fixture lists it (`GET /api/v4/public/markets`). */
export interface DepthMarket {
  name: string;
  /** The price the book starts around. */
  price: string;
  /** Digits after the point of a price. */
  moneyPrec: number;
  /** Digits after the point of an amount. */
  stockPrec: number;
  /** The smallest order, in the stock. */
  minAmount: string;
}

/** One side of a book as the server writes it: `[price, amount]`, best first. */
export type BookLevels = [price: string, amount: string][];

export interface BookSides {
  /** Lowest price first. */
  asks: BookLevels;
  /** Highest price first. */
  bids: BookLevels;
}

/** A level as a consumer keeps it: the server's strings (ours), or numbers (ccxt's). */
export type HeldLevel = readonly [price: string | number, amount: string | number, ...unknown[]];
export interface HeldBook {
  asks: readonly HeldLevel[];
  bids: readonly HeldLevel[];
}

/** The depth channel's update method, as the documents name it. */
const updateMethod = streamChannels.depth.updates[0].method;

/** The levels of each side the stream keeps, as a subscription of 100 levels shows them. */
export const depthLimit = 100;
/** Fewer levels than this on a side and the stream adds rather than removes. */
const fewestLevels = 80;
/** The first phase's first millisecond (a Unix time in 2025). */
const baseMillis = 1_750_000_000_000;
/** Milliseconds of one phase's range: room for a million updates. */
const phaseMillis = 1_000_000;

/** The `timestamp` of the `sequence`th frame of `phase` (0: its whole book). */
export const timestampOf = (phase: number, sequence: number): number =>
  (baseMillis + phase * phaseMillis + sequence + 0.5) / 1000;

/** Which frame of `phase` a book's timestamp in milliseconds says it holds; -1 for another phase's. */
export function sequenceOf(phase: number, millis: number): number {
  const sequence = Math.trunc(millis) - baseMillis - phase * phaseMillis;
  return sequence >= 0 && sequence < phaseMillis ? sequence : -1;
}

/** A small seeded generator (mulberry32): the same seed gives the same stream on every run. */
function seeded(seed: number): () => number {
  let value = seed >>> 0;
  return () => {
    value = (value + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(value ^ (value >>> 15), 1 | value);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** `units` of 10^-precision as a decimal string with exactly `precision` digits after the point. */
function formatUnits(units: number, precision: number): string {
  if (precision === 0) return String(units);
  const digits = String(units).padStart(precision + 1, '0');
  return `${digits.slice(0, -precision)}.${digits.slice(-precision)}`;
}

/** A decimal string in units of 10^-precision (it has at most `precision` digits after the point). */
function parseUnits(text: string, precision: number): number {
  const [whole = '0', fraction = ''] = text.split('.');
  return Number(whole) * 10 ** precision + Number(fraction.padEnd(precision, '0'));
}

/** The index where `value` is or would go in the ascending `values`. */
function indexOf(values: readonly number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((values[middle] as number) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** One side of the stream's book: prices in ticks, ascending, and the amount in units at each. */
class Side {
  readonly prices: number[] = [];
  readonly amounts = new Map<number, number>();

  get size(): number {
    return this.prices.length;
  }

  has(price: number): boolean {
    return this.amounts.has(price);
  }

  set(price: number, amount: number): void {
    if (!this.amounts.has(price)) this.prices.splice(indexOf(this.prices, price), 0, price);
    this.amounts.set(price, amount);
  }

  remove(price: number): void {
    if (!this.amounts.delete(price)) return;
    this.prices.splice(indexOf(this.prices, price), 1);
  }
}

export interface DepthStreamOptions {
  market: DepthMarket;
  seed: number;
  /** Which range of timestamps the frames use (see `timestampOf`). */
  phase: number;
}

/**
 * A market's book and the frames that describe it: `wholeBook()` first, then `nextChange()` for
 * each change, which changes the book as the frame says.
 */
export class DepthStream {
  private readonly market: DepthMarket;
  private readonly random: () => number;
  private readonly phase: number;
  private readonly asks = new Side();
  private readonly bids = new Side();
  private readonly minUnits: number;
  private updateId: number;
  private sequence = 0;

  constructor({ market, seed, phase }: DepthStreamOptions) {
    this.market = market;
    this.random = seeded(seed);
    this.phase = phase;
    this.minUnits = Math.max(1, parseUnits(market.minAmount, market.stockPrec));
    this.updateId = 1_000_000 + Math.floor(this.random() * 1_000_000);
    // The book starts full: levels a tick or a few apart on either side of the price.
    const middle = parseUnits(market.price, market.moneyPrec);
    let ask = middle;
    let bid = middle - 1 - Math.floor(this.random() * 3);
    for (let level = 0; level < depthLimit; level++) {
      this.asks.set(ask, this.amount());
      this.bids.set(bid, this.amount());
      ask += 1 + Math.floor(this.random() ** 3 * 4);
      bid -= 1 + Math.floor(this.random() ** 3 * 4);
    }
  }

  /** The whole book as a depth update (its first parameter `true`), at the current `update_id`. */
  wholeBook(): string {
    const timestamp = timestampOf(this.phase, this.sequence);
    return JSON.stringify({
      id: null,
      method: updateMethod,
      params: [
        true,
        {
          timestamp,
          asks: this.levels(this.asks, 1),
          bids: this.levels(this.bids, -1),
          update_id: this.updateId,
          event_time: timestamp,
        },
        this.market.name,
      ],
    });
  }

  /** The next change to the book, applied to it, as a depth update (its first parameter `false`). */
  nextChange(): string {
    this.sequence++;
    const changed = { asks: new Map<number, number>(), bids: new Map<number, number>() };
    // Mostly one to three levels, now and then a burst of up to eight.
    const count = 1 + Math.floor(this.random() ** 2 * 8);
    for (let change = 0; change < count; change++) {
      const isAsk = this.random() < 0.5;
      const side = isAsk ? this.asks : this.bids;
      const [price, amount] = this.change(side, isAsk);
      if (amount === 0) side.remove(price);
      else side.set(price, amount);
      (isAsk ? changed.asks : changed.bids).set(price, amount);
    }
    const pastUpdateId = this.updateId;
    // update_id counts every change to the market's whole book, beyond the levels shown too.
    this.updateId += 1 + Math.floor(this.random() * 3);
    const timestamp = timestampOf(this.phase, this.sequence);
    const levels = (changes: Map<number, number>, order: 1 | -1) =>
      [...changes].sort(([a], [b]) => (a - b) * order).map(([price, amount]) => this.level(price, amount));
    return JSON.stringify({
      id: null,
      method: updateMethod,
      params: [
        false,
        {
          timestamp,
          update_id: this.updateId,
          past_update_id: pastUpdateId,
          asks: levels(changed.asks, 1),
          bids: levels(changed.bids, -1),
          event_time: timestamp,
        },
        this.market.name,
      ],
    });
  }

  /** The book as it stands, as the server writes its levels. */
  book(): BookSides {
    return { asks: this.levels(this.asks, 1), bids: this.levels(this.bids, -1) };
  }

  /** One change to `side`: a new amount at a level, a level gone (amount 0), or a new level. */
  private change(side: Side, isAsk: boolean): [price: number, amount: number] {
    const roll = this.random();
    const canAdd = side.size < depthLimit;
    const canRemove = side.size > fewestLevels;
    if ((roll < 0.2 && canAdd) || !canRemove) {
      const added = this.newPrice(side, isAsk);
      if (added !== undefined) return [added, this.amount()];
    }
    // Near the top most often: the level's index drawn with a bias towards the best.
    const rank = Math.floor(this.random() ** 2 * side.size);
    const price = side.prices[isAsk ? rank : side.size - 1 - rank] as number;
    if (roll < 0.4 && canRemove) return [price, 0];
    return [price, this.amount()];
  }

  /** A price with no level on `side` that does not cross the other side; undefined if none found. */
  private newPrice(side: Side, isAsk: boolean): number | undefined {
    const bestAsk = this.asks.prices[0] as number;
    const bestBid = this.bids.prices[this.bids.size - 1] as number;
    const span = (this.asks.prices[this.asks.size - 1] as number) - bestAsk + 8;
    for (let attempt = 0; attempt < 8; attempt++) {
      // From just inside the spread to a little beyond the last level, mostly near the top.
      const offset = Math.floor(this.random() ** 2 * span);
      const price = isAsk ? bestBid + 1 + offset : bestAsk - 1 - offset;
      if (price > 0 && !side.has(price)) return price;
    }
    return undefined;
  }

  /** An amount in units: whole smallest orders, from one to a few thousand, with odd digits. */
  private amount(): number {
    const orders = Math.floor(Math.exp(this.random() * Math.log(3000)));
    return orders * this.minUnits + Math.floor(this.random() * this.minUnits);
  }

  private level(price: number, amount: number): [string, string] {
    return [formatUnits(price, this.market.moneyPrec), formatUnits(amount, this.market.stockPrec)];
  }

  private levels(side: Side, order: 1 | -1): BookLevels {
    const prices = order === 1 ? side.prices : [...side.prices].reverse();
    return prices.map((price) => this.level(price, side.amounts.get(price) as number));
  }
}

/**
 * The first difference between the stream's book and a consumer's, or undefined if none: the same
 * levels in the same order, a string equal to the server's, or a number equal to its value.
 */
export function bookDifference(expected: BookSides, held: HeldBook | undefined): string | undefined {
  if (!held) return 'no book';
  const same = (text: string, value: string | number) =>
    typeof value === 'string' ? value === text : value === Number(text);
  const side = (name: 'asks' | 'bids', levels: BookLevels, got: readonly HeldLevel[]) => {
    if (levels.length !== got.length) return `${name}: ${got.length} levels, the server has ${levels.length}`;
    for (const [index, [price, amount]] of levels.entries()) {
      const [heldPrice, heldAmount] = got[index] as HeldLevel;
      if (!same(price, heldPrice) || !same(amount, heldAmount))
        return `${name}[${index}]: ${heldPrice} ${heldAmount}, the server has ${price} ${amount}`;
    }
    return undefined;
  };
  return side('asks', expected.asks, held.asks) ?? side('bids', expected.bids, held.bids);
}
