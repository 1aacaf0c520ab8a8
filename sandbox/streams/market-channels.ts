// The public channels of the sandbox's streams, each read from the same state, by the same
// functions, as the REST market data (handlers/public-market.ts): the book (`bookGroupedBy`), the
// public trades (`tradesOf`), the candles (`candlesOf`), a period's figures (`periodOf`, the
// ticker's `dayOf`) and the sandbox's clock. So a stream and a REST call at the same moment
// agree.
import { compare } from '../decimal.ts';
import { bookGroupedBy, candlesOf, dayOf, type Levels, periodOf } from '../market.ts';
import { isTrading, type MarketState } from '../orders.ts';
import type { PublicTrade } from '../trades.ts';
import { tradesOf } from '../trades.ts';
import type { ChannelSource, Feed, Params, StreamView } from './channel.ts';
import { invalidArgument, type Refusal } from './failures.ts';
import { keepalive } from './methods.ts';

/** The most trades a trades answer or a subscription's first update holds (observed upstream). */
const recentTrades = 100;
/** A depth subscription gets a whole book again after this long without an update (observed upstream). */
const depthKeepaliveMs = 10_000;

const secondsOf = (view: StreamView) => view.now / 1000;
const wholeSecondsOf = (view: StreamView) => Math.floor(view.now / 1000);

/** The market a request names, when the sandbox trades it now (as the REST market data's). */
function tradingMarket(view: StreamView, name: unknown): MarketState | undefined {
  const market = typeof name === 'string' ? view.state.markets.get(name) : undefined;
  return market && isTrading(market, view.now) ? market : undefined;
}

/** The markets a list names, every trading market for an empty one; undefined when one is not traded. */
function tradingMarkets(view: StreamView, names: readonly unknown[]): MarketState[] | undefined {
  if (names.length === 0)
    return [...view.state.markets.values()].filter((market) => isTrading(market, view.now));
  const markets = names.map((name) => tradingMarket(view, name));
  return markets.every((market) => market !== undefined) ? markets : undefined;
}

/** A price interval's step: `"0"` groups nothing. */
const stepOf = (interval: string) => (compare(interval, '0') === 0 ? undefined : interval);

/** The levels of `after` that differ from `before`, a level gone as amount `"0"`, in `after`'s order. */
function changedLevels(before: Levels, after: Levels, ascending: boolean): Levels {
  const old = new Map(before);
  const now = new Map(after);
  const changed: Levels = [];
  for (const price of new Set([...old.keys(), ...now.keys()])) {
    const amount = now.get(price);
    const was = old.get(price);
    if (amount === undefined) changed.push([price, '0']);
    else if (was === undefined || compare(amount, was) !== 0) changed.push([price, amount]);
  }
  return changed.sort(([a], [b]) => (ascending ? compare(a, b) : compare(b, a)));
}

/**
 * One market's book as a depth subscription shows it: the whole book first, then the levels that
 * changed since the last update (with the sequence numbers it went from and to), and the whole
 * book again after `depthKeepaliveMs` without an update.
 */
function depthFeed(market: string, limit: number, step: string | undefined): Feed {
  let sent: { state: unknown; asks: Levels; bids: Levels; sequence: number; at: number } | undefined;
  return {
    key: market,
    next(view) {
      const { sequence } = view.books.read(view.state, market);
      const { asks, bids } = bookGroupedBy(view.state, view.state.market(market), limit, step);
      const times = { timestamp: secondsOf(view), event_time: secondsOf(view) };
      if (!sent || sent.state !== view.state || view.now - sent.at >= depthKeepaliveMs) {
        sent = { state: view.state, asks, bids, sequence, at: view.now };
        return [
          [
            true,
            { timestamp: times.timestamp, asks, bids, update_id: sequence, event_time: times.event_time },
            market,
          ],
        ];
      }
      const changedAsks = changedLevels(sent.asks, asks, true);
      const changedBids = changedLevels(sent.bids, bids, false);
      if (changedAsks.length === 0 && changedBids.length === 0) return [];
      const past = sent.sequence;
      sent = { state: view.state, asks, bids, sequence, at: view.now };
      return [
        [
          false,
          {
            timestamp: times.timestamp,
            update_id: sequence,
            past_update_id: past,
            asks: changedAsks,
            bids: changedBids,
            event_time: times.event_time,
          },
          market,
        ],
      ];
    },
  };
}

/** A public trade as the trades channel gives it. */
const tradeView = (trade: PublicTrade) => ({
  id: trade.id,
  time: trade.time,
  price: trade.price,
  amount: trade.amount,
  type: trade.side,
  rpi: trade.rpi,
});

/** The newest trades of a market first, at most `limit`, from the id `from` down (0: the latest). */
function recentOf(view: StreamView, market: string, limit: number, from = 0) {
  return tradesOf(view.state, market)
    .filter((trade) => from <= 0 || trade.id <= from)
    .slice(-limit)
    .reverse()
    .map(tradeView);
}

/** The trades of some markets: each one's recent trades first, then new trades as they happen. */
function tradesFeed(markets: readonly string[]): Feed {
  let seen: { state: unknown; lastId: number } | undefined;
  const lastIdOf = (view: StreamView) =>
    Math.max(0, ...markets.map((market) => tradesOf(view.state, market).at(-1)?.id ?? 0));
  return {
    next(view) {
      if (seen && seen.state !== view.state) {
        // A reset starts the trades again, ids too: what was sent stays sent.
        seen = { state: view.state, lastId: lastIdOf(view) };
        return [];
      }
      const from = seen?.lastId;
      seen = { state: view.state, lastId: lastIdOf(view) };
      return markets.flatMap((market) => {
        const trades =
          from === undefined
            ? recentOf(view, market, recentTrades)
            : tradesOf(view.state, market)
                .filter((trade) => trade.id > from)
                .reverse()
                .map(tradeView);
        return trades.length > 0 ? [[market, trades]] : [];
      });
    },
  };
}

type Candle = [number, string, string, string, string, string, string];

/**
 * The candle of one market and interval as it forms: each update is a candle that changed since
 * the last, from the last one sent on (so the close of a candle that ended is sent too), and every
 * interval with nothing new the forming one again. Candles are the REST candles'; only a period
 * without a trade, which REST lists no candle for, is streamed as a flat candle at the last price.
 */
function klineFeed(market: string, interval: number): Feed {
  let sent: { state: unknown; candle: Candle } | undefined;
  return {
    next(view) {
      const now = wholeSecondsOf(view);
      const from = sent && sent.state === view.state ? sent.candle[0] : now - (now % interval);
      const candles = candlesOf(view.state, market, interval, from, now);
      const last = sent && sent.state === view.state ? JSON.stringify(sent.candle) : undefined;
      const changed = candles.filter((candle) => JSON.stringify(candle) !== last);
      const newest = candles.at(-1);
      if (newest) sent = { state: view.state, candle: newest };
      return changed.map((candle) => [[...candle, market]]);
    },
    again(view) {
      const now = wholeSecondsOf(view);
      const start = now - (now % interval);
      const forming = candlesOf(view.state, market, interval, start, now).at(-1);
      if (forming) return [[[...forming, market]]];
      // A period without a trade yet: the documents send the forming candle all the same, its close
      // the latest price, so it is flat at that price with no volume. REST lists no candle for it.
      const price = lastPrice(view, view.state.market(market));
      return [[[start, price, price, price, price, '0', '0', market]]];
    },
  };
}

/**
 * A value per market, sent whenever it differs from the one sent before (every market's at
 * first): the last price, a market's figures.
 */
function valueFeed(
  markets: readonly string[],
  read: (view: StreamView, market: MarketState) => unknown,
): Feed {
  const sent = new Map<string, string>();
  return {
    again: (view) =>
      markets.flatMap((name) => {
        const market = view.state.markets.get(name);
        return market ? [[name, read(view, market)]] : [];
      }),
    next(view) {
      return markets.flatMap((name) => {
        const market = view.state.markets.get(name);
        if (!market) return [];
        const value = read(view, market);
        const text = JSON.stringify(value);
        if (sent.get(name) === text) return [];
        sent.set(name, text);
        return [[name, value]];
      });
    },
  };
}

/** The best bid and ask of one market, on every change. */
function bookTickerFeed(market: string): Feed {
  let sent: string | undefined;
  return {
    key: market,
    next(view) {
      const { asks, bids, sequence } = view.books.read(view.state, market);
      const best = [bids[0]?.[0] ?? '0', bids[0]?.[1] ?? '0', asks[0]?.[0] ?? '0', asks[0]?.[1] ?? '0'];
      const text = JSON.stringify(best);
      if (text === sent) return [];
      sent = text;
      return [[[secondsOf(view), secondsOf(view), market, sequence, ...best]]];
    },
  };
}

const lastPrice = (view: StreamView, market: MarketState) =>
  dayOf(view.state, market, wholeSecondsOf(view)).last;

/** A market's figures over `period` seconds up to now, as the market channel gives them. */
function statistics(view: StreamView, market: MarketState, period: number) {
  const now = wholeSecondsOf(view);
  const figures = periodOf(view.state, market, now - period, now);
  return {
    period,
    last: figures.last,
    open: figures.open,
    close: figures.last,
    high: figures.high,
    low: figures.low,
    volume: figures.stock,
    deal: figures.money,
  };
}

/** A market's figures since the last midnight UTC. */
function today(view: StreamView, market: MarketState) {
  const now = wholeSecondsOf(view);
  // Trade times are whole seconds: after the second before midnight is from midnight on.
  const figures = periodOf(view.state, market, now - (now % 86_400) - 1, now);
  return {
    last: figures.last,
    open: figures.open,
    high: figures.high,
    low: figures.low,
    volume: figures.stock,
    deal: figures.money,
  };
}

/** A channel whose subscription names markets and gets one value per market. */
function perMarket(
  read: (view: StreamView, market: MarketState) => unknown,
): Required<Pick<ChannelSource, 'subscribe'>> {
  return {
    subscribe(params, view) {
      const markets = tradingMarkets(view, params);
      return markets
        ? [
            valueFeed(
              markets.map((market) => market.name),
              read,
            ),
          ]
        : invalidArgument;
    },
  };
}

/** Drops the feeds an unsubscribe request names by market, or all of them for an empty list. */
const dropNamed = (params: Params, held: readonly Feed[]) =>
  params.length === 0 ? [] : held.filter((feed) => !params.includes(feed.key));

function oneMarket(view: StreamView, params: Params): MarketState | Refusal {
  return tradingMarket(view, params[0]) ?? invalidArgument;
}

const isMarket = (value: MarketState | Refusal): value is MarketState => 'name' in value;

export const marketChannels = {
  service: {
    query: (method, _params, view) => (method === keepalive.method ? 'pong' : wholeSecondsOf(view)),
  },
  depth: {
    query(_method, [name, limit, interval], view) {
      const market = tradingMarket(view, name);
      if (!market || limit < 1) return invalidArgument;
      const { asks, bids } = bookGroupedBy(view.state, market, limit, stepOf(interval));
      return { timestamp: secondsOf(view), asks, bids };
    },
    subscribe([name, limit, interval, keepOthers], view, held) {
      const market = tradingMarket(view, name);
      if (!market) return invalidArgument;
      const feed = depthFeed(market.name, limit, stepOf(interval));
      return keepOthers ? [...held.filter((other) => other.key !== market.name), feed] : [feed];
    },
    unsubscribe: dropNamed,
  },
  trades: {
    query(_method, [name, limit, from], view) {
      const market = tradingMarket(view, name);
      if (!market || limit < 1) return invalidArgument;
      return recentOf(view, market.name, limit, from);
    },
    subscribe(params, view) {
      const markets = tradingMarkets(view, params);
      return markets ? [tradesFeed(markets.map((market) => market.name))] : invalidArgument;
    },
  },
  kline: {
    query(_method, [name, start, end, interval], view) {
      const market = tradingMarket(view, name);
      if (!market || !(interval > 0)) return invalidArgument;
      return candlesOf(view.state, market.name, interval, start, end).map((candle) => [
        ...candle,
        market.name,
      ]);
    },
    subscribe(params, view) {
      const market = oneMarket(view, params);
      if (!isMarket(market) || !(params[1] > 0)) return invalidArgument;
      return [klineFeed(market.name, params[1])];
    },
  },
  lastprice: {
    query(_method, params, view) {
      const market = oneMarket(view, params);
      return isMarket(market) ? lastPrice(view, market) : market;
    },
    ...perMarket(lastPrice),
  },
  market: {
    query(_method, [name, period], view) {
      const market = tradingMarket(view, name);
      if (!market || !(period > 0)) return invalidArgument;
      return statistics(view, market, period);
    },
    // The subscription's period is always the last 24 hours (observed upstream).
    ...perMarket((view, market) => statistics(view, market, 86_400)),
  },
  marketToday: {
    query(_method, params, view) {
      const market = oneMarket(view, params);
      return isMarket(market) ? today(view, market) : market;
    },
    ...perMarket(today),
  },
  bookTicker: {
    subscribe(params, view, held) {
      const markets = tradingMarkets(view, params);
      if (!markets) return invalidArgument;
      const names = markets.map((market) => market.name);
      return [...held.filter((feed) => !names.includes(feed.key ?? '')), ...names.map(bookTickerFeed)];
    },
    unsubscribe: dropNamed,
  },
} satisfies Record<string, ChannelSource>;
