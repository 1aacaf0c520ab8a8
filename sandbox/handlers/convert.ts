// Converting one asset into another at a quoted rate, on the main balance (the balance the
// documents say a conversion draws on): a quote at the price the sandbox has for the market
// between the two assets, either way round, valid for the time the estimate's document states
// (`x-quote-valid-seconds`) on the sandbox's clock; its confirmation, which moves both balances
// by exactly the quoted amounts, once, in one step; and the history of conversions. Every
// refusal is a named example of the operation called.
import { numberAt } from '../../model/json.ts';
import type { Answer } from '../answer.ts';
import { type CallContext, caller, ok, refuse } from '../context.ts';
import { add, compare, divide, isZero, multiply, normalize, round } from '../decimal.ts';
import type { FixtureAsset } from '../fixture.ts';
import { isTrading } from '../orders.ts';
import type { Conversion, Quote } from '../state.ts';
import { page, sixMonthsBack } from './queries.ts';

/**
 * The most decimals an amount and a rate carry: the documents say the service cuts `amount` to 8
 * (observed upstream), and its rates have 8.
 */
const decimals = 8;
const day = 86_400;

/** How long a quote lasts, in seconds: the operation's `x-quote-valid-seconds`. */
function validSeconds(context: CallContext): number {
  const seconds = numberAt(context.operation.object, 'x-quote-valid-seconds');
  if (seconds === undefined || seconds <= 0) {
    throw new Error(`${context.operation.id} makes quotes but has no x-quote-valid-seconds`);
  }
  return seconds;
}

/** The decimals a conversion gives an asset's amounts: its `currency_precision`, at most 8. */
export function convertedDecimals(asset: FixtureAsset | undefined): number {
  const precision = asset?.currency_precision;
  return Math.min(decimals, typeof precision === 'number' ? precision : decimals);
}

const places = (context: CallContext, ticker: string) => convertedDecimals(context.state.assets.get(ticker));

/** One unit of the last of `scale` decimals. */
const unit = (scale: number) => (scale === 0 ? '1' : `0.${'0'.repeat(scale - 1)}1`);

/**
 * Units of `to` for one unit of `from`, at the price of the spot market between them that is
 * trading now: its price when `from` is the market's base, one over it when it is the quote.
 * Undefined when no such market exists.
 */
function rateOf(context: CallContext, from: string, to: string): string | undefined {
  for (const market of context.state.markets.values()) {
    if (market.type !== 'spot' || !isTrading(market, context.now)) continue;
    if (market.stock === from && market.money === to) return normalize(market.price);
    if (market.stock === to && market.money === from) return divide('1', market.price, decimals);
  }
  return undefined;
}

/** receive ÷ rate, rounded up to `scale` decimals: what must be given to receive `receive`. */
function toGive(receive: string, rate: string, scale: number): string {
  const given = divide(receive, rate, scale);
  return compare(multiply(given, rate), receive) < 0 ? add(given, unit(scale)) : given;
}

export interface EstimateBody {
  from: string;
  to: string;
  direction: 'from' | 'to';
  amount: string;
}

/**
 * A quote: `amount` cut to 8 decimals is what is given (direction `from`, the received side
 * rounded down to the asset's decimals) or received (direction `to`, the given side rounded up),
 * at the market's rate. Refused, in this order: no trading spot market between the two assets
 * (`marketsNotAvailable`), an amount that converts into nothing (`amountConvertsToZero`), a main
 * balance that does not cover what is given (`insufficientBalance`).
 */
export function quoteConversion(context: CallContext, body: EstimateBody): Answer {
  const { account } = caller(context);
  const rate = body.from === body.to ? undefined : rateOf(context, body.from, body.to);
  if (rate === undefined) return refuse(context, 'marketsNotAvailable');
  const amount = round(body.amount, decimals, 'down');
  let give: string;
  let receive: string;
  if (body.direction === 'from') {
    give = round(amount, places(context, body.from), 'down');
    receive = round(multiply(give, rate), places(context, body.to), 'down');
  } else {
    receive = round(amount, places(context, body.to), 'down');
    give = isZero(rate) ? '0' : toGive(receive, rate, places(context, body.from));
  }
  if (isZero(give) || isZero(receive)) return refuse(context, 'amountConvertsToZero');
  if (compare(context.state.mainBalance(account.id, body.from), give) < 0) {
    return refuse(context, 'insufficientBalance');
  }
  const expiresAt = context.now + validSeconds(context) * 1000;
  const quote: Quote = {
    id: context.state.nextQuoteId(),
    from: body.from,
    to: body.to,
    give,
    receive,
    rate,
    // A client that confirms before this second confirms in time.
    expireAt: Math.floor(expiresAt / 1000),
    expiresAt,
  };
  account.quotes.set(quote.id, quote);
  const { expiresAt: _, ...answer } = quote;
  return ok(answer);
}

/**
 * Carries out one of the caller's quotes. Refused, in this order: a quote the account does not
 * hold (`quoteAlreadyUsed` when it confirmed it before, else `quoteNotFound`: another account's
 * quote is not the caller's to confirm), a quote whose time ran out on the sandbox's clock
 * (`quoteExpired`), a main balance that no longer covers it (`insufficientBalance`).
 */
export function confirmQuote(context: CallContext, body: { quoteId: string }): Answer {
  const { account } = caller(context);
  const quote = account.quotes.get(body.quoteId);
  if (!quote) {
    return refuse(context, account.usedQuoteIds.has(body.quoteId) ? 'quoteAlreadyUsed' : 'quoteNotFound');
  }
  if (context.now >= quote.expiresAt) return refuse(context, 'quoteExpired');
  if (compare(context.state.mainBalance(account.id, quote.from), quote.give) < 0) {
    return refuse(context, 'insufficientBalance');
  }
  const conversion = context.state.convert(account.id, quote, Math.floor(context.now / 1000));
  return ok({ finalGive: conversion.give, finalReceive: conversion.receive });
}

export interface ConversionHistoryQuery {
  fromTicker?: string;
  toTicker?: string;
  from?: string;
  to?: string;
  quoteId?: string;
  limit?: number;
  offset?: number;
}

const conversionView = (conversion: Conversion) => ({
  id: conversion.id,
  date: conversion.date,
  give: conversion.give,
  receive: conversion.receive,
  rate: conversion.rate,
  path: [{ from: conversion.from, to: conversion.to, rate: conversion.rate }],
});

/**
 * The caller's conversions, newest (highest id) first, a page at a time. The window: `to`
 * defaults to now and `from` to 30 days before `to`; a longer window is `dateRangeExceeded`, one
 * that starts before six months back from the current month `dateOutOfRange`. An unknown asset
 * is `fromTickerInvalid` or `toTickerInvalid`.
 */
export function listConversions(context: CallContext, body: ConversionHistoryQuery): Answer {
  const { account } = caller(context);
  if (body.fromTicker !== undefined && !context.state.assets.has(body.fromTicker)) {
    return refuse(context, 'fromTickerInvalid');
  }
  if (body.toTicker !== undefined && !context.state.assets.has(body.toTicker)) {
    return refuse(context, 'toTickerInvalid');
  }
  const end = body.to === undefined ? Math.floor(context.now / 1000) : Number(body.to);
  const start = body.from === undefined ? end - 30 * day : Number(body.from);
  if (end - start > 30 * day) return refuse(context, 'dateRangeExceeded');
  if (start < sixMonthsBack(context.now)) return refuse(context, 'dateOutOfRange');
  const rows = account.conversions
    .filter(
      (conversion) =>
        (body.fromTicker === undefined || conversion.from === body.fromTicker) &&
        (body.toTicker === undefined || conversion.to === body.toTicker) &&
        (body.quoteId === undefined || conversion.quoteId === body.quoteId) &&
        conversion.date >= start &&
        conversion.date <= end,
    )
    .sort((a, b) => Number(b.id) - Number(a.id));
  const { rows: shown, limit, offset } = page(context, rows, body);
  return ok({ records: shown.map(conversionView), total: rows.length, limit, offset });
}
