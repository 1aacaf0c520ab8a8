// A market's public trades: every fill of an account's order and every trade of the price walk,
// kept per sandbox state (a reset starts them again), for the recent trades, the ticker and
// the candles.
import { multiply } from './decimal.ts';
import type { SandboxState } from './state.ts';

/** One public trade of a market: a fill of an account's order, or a trade of the walk. */
export interface PublicTrade {
  id: number;
  market: string;
  /** Unix seconds. */
  time: number;
  price: string;
  /** In the base (stock) asset. */
  amount: string;
  /** amount × price, in the quote (money) asset. */
  total: string;
  /** The taker's side: `buy` took an ask, `sell` a bid. */
  side: 'buy' | 'sell';
  rpi: boolean;
}

interface Feed {
  trades: Map<string, PublicTrade[]>;
  lastTradeId: number;
}

/** The most public trades a market keeps; older ones drop off, as a live feed's do. */
const keptTrades = 20_000;

const feeds = new WeakMap<SandboxState, Feed>();

function feedOf(state: SandboxState): Feed {
  let feed = feeds.get(state);
  if (!feed) {
    feed = { trades: new Map(), lastTradeId: 0 };
    feeds.set(state, feed);
  }
  return feed;
}

/** Records a public trade of `market` (an account's fill, or the walk's). */
export function recordTrade(state: SandboxState, trade: Omit<PublicTrade, 'id' | 'total'>) {
  const feed = feedOf(state);
  const list = feed.trades.get(trade.market) ?? [];
  feed.lastTradeId += 1;
  list.push({ ...trade, id: feed.lastTradeId, total: multiply(trade.amount, trade.price) });
  if (list.length > keptTrades) list.splice(0, list.length - keptTrades);
  feed.trades.set(trade.market, list);
}

/** A market's public trades, oldest first. */
export function tradesOf(state: SandboxState, market: string): readonly PublicTrade[] {
  return feedOf(state).trades.get(market) ?? [];
}
