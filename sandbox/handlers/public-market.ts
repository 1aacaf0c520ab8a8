// The public market data of the sandbox's own markets, each read at the moment of the call from
// the same state the trading operations change: the order book (other participants' orders and
// the accounts' resting ones), the recent trades (every fill and every trade of the walk), the
// 24-hour ticker and the candles computed from those trades, and the server's clock. A market
// the sandbox does not trade is the operation's `marketNotAvailable` example.
import type { Answer } from '../answer.ts';
import { collateralOf, defaultFundingRate, fundingIntervalMs, isPerpetual } from '../collateral.ts';
import { type CallContext, ok, refuse } from '../context.ts';
import { add, normalize } from '../decimal.ts';
import { bookOf, candlesOf, dayOf, intervalSeconds, participantLevels } from '../market.ts';
import { isTrading, type MarketState, seconds } from '../orders.ts';
import { tradesOf } from '../trades.ts';

/** The market a public call names (its path's or query's `market`), when the sandbox trades it now. */
function namedMarket(context: CallContext): MarketState | undefined {
  const name = context.params?.path.market ?? context.params?.query.market;
  const market = typeof name === 'string' ? context.state.markets.get(name) : undefined;
  return market && isTrading(market, context.now) ? market : undefined;
}

const nowSeconds = (context: CallContext) => Math.floor(seconds(context.now));
const query = (context: CallContext, name: string) => context.params?.query[name];
/** A query parameter's value, or the default its document gives it. */
const queryOrDefault = (context: CallContext, name: string): unknown =>
  query(context, name) ??
  context.operation.parameters().find((parameter) => parameter.name === name)?.schema.default;

/** The book, `limit` levels a side (the documents: 0 or none gives 100), grouped by `level`. */
export function readOrderBook(context: CallContext): Answer {
  const market = namedMarket(context);
  if (!market) return refuse(context, 'marketNotAvailable');
  // The documents: 0, as none, gives the default number of levels; an operation without a limit
  // (the depth) shows every level other participants keep.
  const limit = Number(query(context, 'limit') || queryOrDefault(context, 'limit') || participantLevels);
  const { asks, bids } = bookOf(context.state, market, limit, Number(query(context, 'level') ?? 0));
  return ok({ ticker_id: market.name, timestamp: nowSeconds(context), asks, bids });
}

/** The recent trades, newest first, of one side when `type` says so. */
export function readRecentTrades(context: CallContext): Answer {
  const market = namedMarket(context);
  if (!market) return refuse(context, 'marketNotAvailable');
  const side = query(context, 'type');
  const trades = tradesOf(context.state, market.name)
    .filter((trade) => side === undefined || trade.side === side)
    .slice(-100)
    .reverse();
  return ok(
    trades.map((trade) => ({
      tradeID: trade.id,
      price: trade.price,
      // The operator's names: quote_volume is the amount in the base asset, base_volume in the quote.
      quote_volume: trade.amount,
      base_volume: trade.total,
      trade_timestamp: trade.time,
      type: trade.side,
      rpi: trade.rpi,
    })),
  );
}

/** Every trading market's last price and 24-hour volumes and change, from its trades. */
export function readTickers(context: CallContext): Answer {
  const now = nowSeconds(context);
  const idOf = (ticker: string) => {
    const asset = context.state.assets.get(ticker) as { unified_cryptoasset_id?: unknown } | undefined;
    return typeof asset?.unified_cryptoasset_id === 'number' ? asset.unified_cryptoasset_id : 0;
  };
  const tickers = [...context.state.markets.values()]
    .filter((market) => isTrading(market, context.now))
    .map((market) => {
      const day = dayOf(context.state, market, now);
      return [
        market.name,
        {
          base_id: idOf(market.stock),
          quote_id: idOf(market.money),
          last_price: day.last,
          quote_volume: day.money,
          base_volume: day.stock,
          isFrozen: false,
          change: day.change,
        },
      ];
    });
  return ok(Object.fromEntries(tickers));
}

/**
 * The candles of a market from its trades. Without `start` and `end`, the window the documents
 * give each interval; with `limit`, `limit` intervals back from `end`.
 */
export function readCandles(context: CallContext): Answer {
  const market = namedMarket(context);
  if (!market) return refuse(context, 'marketNotAvailable');
  const interval = intervalSeconds[String(queryOrDefault(context, 'interval'))] ?? 3600;
  const end = Number(query(context, 'end') ?? nowSeconds(context));
  const given = query(context, 'start');
  const limit = query(context, 'limit');
  if (given !== undefined && Number(given) >= end) return refuse(context, 'endBeforeStart');
  const window =
    interval < 60
      ? 600
      : interval < 3600
        ? 86_400
        : interval < 86_400
          ? 604_800
          : interval < 2_592_000
            ? 2_592_000
            : 31_536_000;
  const start =
    limit !== undefined ? end - Number(limit) * interval : given !== undefined ? Number(given) : end - window;
  const candles = candlesOf(context.state, market.name, interval, start, end);
  return ok({
    success: true,
    message: null,
    result: candles.slice(-Number(queryOrDefault(context, 'limit'))),
  });
}

/** The sandbox's clock, Unix seconds. */
export function readServerTime(context: CallContext): Answer {
  return ok({ time: nowSeconds(context) });
}

/** The names of the markets that trade on collateral. */
export function collateralMarketNames(context: CallContext): Answer {
  const names = [...context.state.markets.values()]
    .filter((market) => market.isCollateral && isTrading(market, context.now))
    .map((market) => market.name);
  return ok({ success: true, message: null, result: names });
}

/**
 * The perpetual markets, each at the moment of the call: its day from its trades, the book's best,
 * the mark price as the index, the open interest as the accounts' open long positions, the funding
 * rate and the next settlement on the sandbox's clock. What the sandbox does not model (the index's
 * name, the funding cap and floor, the leverage brackets, the highest leverage) is the documented
 * example's row.
 */
export function readFuturesMarkets(context: CallContext): Answer {
  const documented = context.operation.successExample()?.value as { result?: Record<string, unknown>[] };
  const [row = {}] = documented?.result ?? [];
  const now = nowSeconds(context);
  const result = [...context.state.markets.values()]
    .filter((market) => isPerpetual(market) && isTrading(market, context.now))
    .map((market) => {
      const day = dayOf(context.state, market, now);
      const { asks, bids } = bookOf(context.state, market, 1);
      let longs = '0';
      for (const account of context.state.accounts.values())
        for (const position of collateralOf(context.state, account, context.now).positions.values())
          if (position.market === market.name && !position.size.startsWith('-'))
            longs = add(longs, position.size);
      return {
        ...row,
        ticker_id: market.name,
        stock_currency: market.stock,
        money_currency: market.money,
        last_price: day.last,
        stock_volume: day.stock,
        money_volume: day.money,
        bid: bids[0]?.[0] ?? '0',
        ask: asks[0]?.[0] ?? '0',
        high: day.high,
        low: day.low,
        open_interest: normalize(longs),
        index_price: market.price,
        index_currency: market.stock,
        funding_rate: normalize(market.fundingRate ?? defaultFundingRate),
        next_funding_rate_timestamp: String(
          (Math.floor(context.now / fundingIntervalMs) + 1) * fundingIntervalMs,
        ),
        funding_interval_minutes: fundingIntervalMs / 60_000,
      };
    });
  return ok({ success: true, message: null, result });
}

/** One market's day, in the v1 form: the day's prices and volumes from its trades, the book's best. */
export function readMarketActivity(context: CallContext): Answer {
  const market = namedMarket(context);
  if (!market) return refuse(context, 'marketNotAvailable');
  const day = dayOf(context.state, market, nowSeconds(context));
  const { asks, bids } = bookOf(context.state, market, 1);
  return ok({
    success: true,
    message: null,
    result: {
      open: day.open,
      bid: bids[0]?.[0] ?? '0',
      ask: asks[0]?.[0] ?? '0',
      low: day.low,
      high: day.high,
      last: day.last,
      volume: day.stock,
      deal: day.money,
      change: day.change,
    },
  });
}
