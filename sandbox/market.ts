// The sandbox's markets as other participants make them: each market's price moves on a seeded
// walk of the sandbox's clock (so that a run can be repeated), the walk's own trades and every
// fill of the sandbox's accounts are the market's public trades, and the book shows resting
// orders of other participants at the market's precision beside the accounts' own. The ticker's
// 24-hour figures and the candles are computed from those trades, so every public read agrees
// with the fills and the open orders at the same moment.
import { add, compare, divide, isZero, multiply, normalize, subtract } from './decimal.ts';
import { movePrice } from './exchange.ts';
import type { MarketState } from './orders.ts';
import type { SandboxState } from './state.ts';
import { type PublicTrade, recordTrade, tradesOf } from './trades.ts';

export type { PublicTrade };

/** The price walk: on, each market's price moves at every step of the sandbox's clock. */
export interface WalkOptions {
  /** Seeds every market's walk, so that the same seed and clock give the same prices and trades. */
  seed: number;
  /** Sandbox seconds between two steps. */
  stepSeconds: number;
  /** The most ticks (price steps) one step moves the price. Default 3. */
  maxTicks?: number;
}

/** The walk's own state, per sandbox state (a reset starts it again). */
interface Walk {
  /** Sandbox ms of the walk's last step, per market. */
  stepped: Map<string, number>;
  random: Map<string, () => number>;
}

/** The most walk steps one catch-up applies; a clock moved further skips to its end. */
const maxStepsAtOnce = 2_000;

const walks = new WeakMap<SandboxState, Walk>();

function walkOf(state: SandboxState): Walk {
  let walk = walks.get(state);
  if (!walk) {
    walk = { stepped: new Map(), random: new Map() };
    walks.set(state, walk);
  }
  return walk;
}

/** A small seeded generator (mulberry32): the same seed gives the same sequence on every runtime. */
function generator(seed: number): () => number {
  let value = seed >>> 0;
  return () => {
    value = (value + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(value ^ (value >>> 15), 1 | value);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** A number for a text, to seed one market's walk apart from another's. */
function hashOf(text: string): number {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 16777619);
  return hash >>> 0;
}

const unitOf = (precision: string) =>
  Number(precision) > 0 ? `0.${'0'.repeat(Number(precision) - 1)}1` : '1';
/** The smallest price move: the market's tick size, else one unit of its money precision. */
export const tickOf = (market: MarketState) =>
  market.tickSize && !isZero(market.tickSize) ? market.tickSize : unitOf(market.moneyPrec);
/** The smallest amount step: the market's step size, else one unit of its stock precision. */
export const stepOf = (market: MarketState) =>
  market.stepSize && !isZero(market.stepSize) ? market.stepSize : unitOf(market.stockPrec);

/**
 * Moves every trading market's price by the walk up to `now` (sandbox ms): one step each
 * `stepSeconds`, by a seeded number of ticks; each step is a trade of other participants at the
 * new price, and moves the price as `setPrice` does (resting orders it passes fill).
 */
export function walkMarkets(state: SandboxState, options: WalkOptions | undefined, now: number) {
  if (!options) return;
  const feed = walkOf(state);
  const stepMs = options.stepSeconds * 1000;
  const maxTicks = options.maxTicks ?? 3;
  for (const market of state.markets.values()) {
    if (!market.tradesEnabled || (market.delistedAt !== null && market.delistedAt * 1000 <= now)) continue;
    const last = feed.stepped.get(market.name);
    if (last === undefined) {
      // The walk starts where the clock is when the market is first seen.
      feed.stepped.set(market.name, now);
      continue;
    }
    let steps = Math.floor((now - last) / stepMs);
    if (steps <= 0) continue;
    let at = last;
    if (steps > maxStepsAtOnce) {
      at += (steps - maxStepsAtOnce) * stepMs;
      steps = maxStepsAtOnce;
    }
    let random = feed.random.get(market.name);
    if (!random) {
      random = generator(options.seed ^ hashOf(market.name));
      feed.random.set(market.name, random);
    }
    const tick = tickOf(market);
    const step = stepOf(market);
    for (let index = 0; index < steps; index++) {
      at += stepMs;
      const ticks = Math.floor(random() * (2 * maxTicks + 1)) - maxTicks;
      const lots = 1 + Math.floor(random() * 50);
      const moved = add(market.price, multiply(String(ticks), tick));
      const price = compare(moved, tick) < 0 ? tick : moved;
      const side = ticks >= 0 ? 'buy' : 'sell';
      movePrice(state, market.name, price, at);
      recordTrade(state, {
        market: market.name,
        time: Math.floor(at / 1000),
        price: normalize(price),
        amount: multiply(String(lots), step),
        side,
        rpi: false,
      });
    }
    feed.stepped.set(market.name, at);
  }
}

/** How many ticks on each side of the price other participants' orders rest at. */
export const participantLevels = 100;

/** One side of a book: `[price, amount]` levels, best first. */
export type Levels = [string, string][];

/**
 * The book of a market: other participants' orders, a seeded amount at each of the `depth`
 * ticks on either side of the price (an ask at the price itself, the price a buy fills at), with
 * the accounts' own resting limit orders added at their prices (not RPI orders, which no public
 * book shows). With `level` above 0, prices are grouped into steps of 10^level ticks.
 */
export function bookOf(state: SandboxState, market: MarketState, depth: number, level = 0) {
  return bookGroupedBy(
    state,
    market,
    depth,
    level > 0 ? multiply(tickOf(market), `1${'0'.repeat(level)}`) : undefined,
  );
}

/**
 * The book of `bookOf`, its prices grouped into steps of `step` (an ask's level rounded up to a
 * step, a bid's down), or not grouped without one: the REST book's `level` and the stream's price
 * interval are both a step.
 */
export function bookGroupedBy(
  state: SandboxState,
  market: MarketState,
  depth: number,
  step: string | undefined,
) {
  const tick = tickOf(market);
  // Other participants' orders are whole multiples of the market's smallest order.
  const lot = isZero(market.minAmount) ? stepOf(market) : market.minAmount;
  const asks = new Map<string, string>();
  const bids = new Map<string, string>();
  const seedOf = (side: string, price: string) => hashOf(`${market.name} ${side} ${price}`);
  for (let index = 0; index < depth; index++) {
    const ask = normalize(add(market.price, multiply(String(index), tick)));
    asks.set(ask, multiply(String(1 + (seedOf('ask', ask) % 200)), lot));
    const bid = normalize(subtract(market.price, multiply(String(index + 1), tick)));
    if (compare(bid, '0') > 0) bids.set(bid, multiply(String(1 + (seedOf('bid', bid) % 200)), lot));
  }
  for (const account of state.accounts.values()) {
    for (const order of account.orders.values()) {
      if (order.market !== market.name || order.status !== 'NEW' || !order.activated || order.rpi) continue;
      if (order.type !== 'limit' && order.type !== 'stop limit') continue;
      const side = order.side === 'sell' ? asks : bids;
      const price = normalize(order.price);
      side.set(price, add(side.get(price) ?? '0', order.amount));
    }
  }
  const group = (levels: Map<string, string>, up: boolean): Levels => {
    if (step === undefined || isZero(step)) return [...levels];
    const size = step;
    const grouped = new Map<string, string>();
    for (const [price, amount] of levels) {
      const units = divide(price, size, 0);
      const floor = multiply(units, size);
      const key = normalize(up && compare(floor, price) < 0 ? add(floor, size) : floor);
      grouped.set(key, add(grouped.get(key) ?? '0', amount));
    }
    return [...grouped];
  };
  const sortedAsks = group(asks, true).sort(([a], [b]) => compare(a, b));
  const sortedBids = group(bids, false)
    .filter(([price]) => compare(price, '0') > 0)
    .sort(([a], [b]) => compare(b, a));
  return { asks: sortedAsks.slice(0, depth), bids: sortedBids.slice(0, depth) };
}

/** A market's figures over the 24 hours before `now` (seconds), from its public trades. */
export function dayOf(state: SandboxState, market: MarketState, now: number) {
  return periodOf(state, market, now - 24 * 60 * 60, now);
}

/**
 * A market's figures over its public trades after `since` up to `now` (seconds): volumes, the
 * first, last, highest and lowest price (the market's price when it had none), and the change.
 */
export function periodOf(state: SandboxState, market: MarketState, since: number, now: number) {
  const trades = tradesOf(state, market.name).filter((trade) => trade.time > since && trade.time <= now);
  let stock = '0';
  let money = '0';
  let high = market.price;
  let low = market.price;
  for (const trade of trades) {
    stock = add(stock, trade.amount);
    money = add(money, trade.total);
    if (compare(trade.price, high) > 0) high = trade.price;
    if (compare(trade.price, low) < 0) low = trade.price;
  }
  const open = trades[0]?.price ?? market.price;
  const last = trades.at(-1)?.price ?? market.price;
  const change = isZero(open) ? '0' : divide(multiply(subtract(last, open), '100'), open, 2);
  return { stock, money, high, low, open, last, change, trades };
}

/** Seconds of each candle interval the documents list (a month as 30 days). */
export const intervalSeconds: Readonly<Record<string, number>> = {
  '1s': 1,
  '10s': 10,
  '30s': 30,
  '1m': 60,
  '3m': 180,
  '5m': 300,
  '15m': 900,
  '30m': 1800,
  '1h': 3600,
  '2h': 7200,
  '4h': 14_400,
  '6h': 21_600,
  '8h': 28_800,
  '12h': 43_200,
  '1d': 86_400,
  '3d': 259_200,
  '1w': 604_800,
  '1M': 2_592_000,
};

/** The candles of a market from its public trades: `[time, open, close, high, low, stock, money]`. */
export function candlesOf(
  state: SandboxState,
  market: string,
  interval: number,
  start: number,
  end: number,
): [number, string, string, string, string, string, string][] {
  const buckets = new Map<number, PublicTrade[]>();
  for (const trade of tradesOf(state, market)) {
    if (trade.time < start || trade.time > end) continue;
    const bucket = trade.time - (trade.time % interval);
    buckets.set(bucket, [...(buckets.get(bucket) ?? []), trade]);
  }
  return [...buckets.entries()]
    .sort(([a], [b]) => a - b)
    .map(([time, trades]) => {
      const prices = trades.map((trade) => trade.price);
      const high = prices.reduce((a, b) => (compare(a, b) >= 0 ? a : b));
      const low = prices.reduce((a, b) => (compare(a, b) <= 0 ? a : b));
      const stock = trades.reduce((total, trade) => add(total, trade.amount), '0');
      const money = trades.reduce((total, trade) => add(total, trade.total), '0');
      return [time, prices[0] as string, prices.at(-1) as string, high, low, stock, money];
    });
}
