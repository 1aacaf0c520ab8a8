// The spot trading transitions that read: the trade balance, the open orders, the deals, the
// order history and the orders a delisting closed, each paged and filtered as its document says.
import type { Answer } from '../answer.ts';
import { type CallContext, caller, ok, refuse, refuseWorded } from '../context.ts';
import { isZero, percent } from '../decimal.ts';
import { orderView } from '../exchange.ts';
import { type Deal, type Order, seconds } from '../orders.ts';
import type { AccountState } from '../state.ts';

/** A page of `rows` by the request's limit and offset, or the operation's defaults for them. */
export function page<Row>(
  context: CallContext,
  rows: readonly Row[],
  body: { limit?: number; offset?: number },
) {
  const limit = body.limit ?? (context.operation.requestDefault('limit') as number);
  const offset = body.offset ?? (context.operation.requestDefault('offset') as number);
  return { rows: rows.slice(offset, offset + limit), limit, offset };
}

/** Rows keyed by market, in the order they come. */
function byMarket<Row extends { market: string }, View>(rows: readonly Row[], view: (row: Row) => View) {
  const grouped: Record<string, View[]> = {};
  for (const row of rows) grouped[row.market] = [...(grouped[row.market] ?? []), view(row)];
  return grouped;
}

/**
 * The trade balances of the named assets (each, held or not), or without names of every asset
 * the account holds something of: what is available and what open orders hold (`freeze`). The
 * REST balance and the spot balance stream both answer these.
 */
export function tradeBalances(account: AccountState, tickers?: readonly string[]) {
  const named = tickers ?? [...account.trade.keys()].sort();
  const balances: Record<string, { available: string; freeze: string }> = {};
  for (const ticker of named) {
    const { available, frozen } = account.trade.get(ticker) ?? { available: '0', frozen: '0' };
    if (tickers === undefined && isZero(available) && isZero(frozen)) continue;
    balances[ticker] = { available, freeze: frozen };
  }
  return balances;
}

export function readTradeBalance(context: CallContext, body: { ticker?: string }): Answer {
  const { account } = caller(context);
  if (body.ticker !== undefined && !context.state.assets.has(body.ticker))
    return refuse(context, 'unknownTicker');
  return ok(tradeBalances(account, body.ticker === undefined ? undefined : [body.ticker]));
}

export interface ActiveOrdersQuery {
  market?: string;
  orderId?: number;
  clientOrderId?: string;
  limit?: number;
  offset?: number;
}

/** The open spot orders, in the order they were placed. */
export function listOpenOrders(context: CallContext, body: ActiveOrdersQuery): Answer {
  const { account } = caller(context);
  if (body.market !== undefined && !context.state.markets.has(body.market)) {
    return refuse(context, 'marketNotAvailable');
  }
  const open = [...account.orders.values()].filter(
    (order) =>
      order.kind === 'spot' &&
      (body.market === undefined || order.market === body.market) &&
      (body.orderId === undefined || order.orderId === body.orderId) &&
      (body.clientOrderId === undefined || order.clientOrderId === body.clientOrderId),
  );
  return ok(page(context, open, body).rows.map(orderView));
}

/** The start of the month six months before `now` (ms), Unix seconds: how far back deals are kept. */
export function sixMonthsBack(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 6, 1) / 1000;
}

export interface DealsQuery {
  market?: string;
  clientOrderId?: string;
  startDate?: number;
  endDate?: number;
  limit?: number;
  offset?: number;
}

const dealView = (deal: Deal) => ({
  id: deal.id,
  orderId: deal.orderId,
  clientOrderId: deal.clientOrderId,
  time: deal.time,
  side: deal.side,
  role: deal.role,
  amount: deal.amount,
  price: deal.price,
  deal: deal.deal,
  fee: deal.fee,
  feeAsset: deal.feeAsset,
});

/**
 * The account's deals, newest first, within the last six months: with `market` a list, without
 * it an object keyed by market (the page is taken before grouping).
 */
export function listDeals(context: CallContext, body: DealsQuery): Answer {
  const { account } = caller(context);
  const earliest = Math.max(sixMonthsBack(context.now), body.startDate ?? 0);
  const deals = account.deals
    .filter(
      (deal) =>
        (body.market === undefined || deal.market === body.market) &&
        (body.clientOrderId === undefined || deal.clientOrderId === body.clientOrderId) &&
        Math.floor(deal.time) >= earliest &&
        (body.endDate === undefined || Math.floor(deal.time) <= body.endDate),
    )
    .reverse();
  const { rows } = page(context, deals, body);
  return ok(body.market === undefined ? byMarket(rows, dealView) : rows.map(dealView));
}

export interface OrderDealsQuery {
  orderId: number;
  limit?: number;
  offset?: number;
}

/** One order's deals, oldest first; an order of another account, or none, has no deals. */
export function listDealsOfOrder(context: CallContext, body: OrderDealsQuery): Answer {
  const { account } = caller(context);
  const deals = account.deals.filter((deal) => deal.orderId === body.orderId);
  const { rows, limit, offset } = page(context, deals, body);
  return ok({
    records: rows.map((deal) => ({
      id: deal.id,
      dealOrderId: deal.dealOrderId,
      clientOrderId: deal.clientOrderId,
      time: deal.time,
      role: deal.role,
      amount: deal.amount,
      price: deal.price,
      deal: deal.deal,
      fee: deal.fee,
      feeAsset: deal.feeAsset,
      rpi: deal.rpi,
    })),
    offset,
    limit,
  });
}

const day = 86_400;

/** `at` (Unix seconds) moved by whole UTC calendar months, at 00:00 UTC of that day when `midnight`. */
function monthsBefore(at: number, months: number, midnight: boolean): number {
  const date = new Date(at * 1000);
  const moved = new Date(date);
  moved.setUTCMonth(date.getUTCMonth() - months);
  if (midnight) moved.setUTCHours(0, 0, 0, 0);
  return Math.floor(moved.getTime() / 1000);
}

const historyView = (order: Order, feeAsset: string) => ({
  id: order.orderId,
  clientOrderId: order.clientOrderId,
  side: order.side,
  type: order.type,
  amount: order.amount,
  price: order.price,
  ctime: order.timestamp,
  ftime: order.finishedAt ?? order.timestamp,
  dealStock: order.dealStock,
  dealMoney: order.dealMoney,
  dealFee: order.dealFee,
  feeAsset,
  takerFee: percent(order.takerFee),
  makerFee: percent(order.makerFee),
  postOnly: order.postOnly,
  ioc: order.ioc,
  status: order.status,
  stp: order.stp,
  rpi: order.rpi,
  reduceOnly: false,
});

/**
 * The account's closed spot orders that `keep` keeps and whose end falls in [start, end] (Unix
 * seconds), the latest closed first.
 */
function closedBetween(account: AccountState, start: number, end: number, keep: (order: Order) => boolean) {
  return account.closed
    .filter(
      (order) =>
        order.kind === 'spot' &&
        keep(order) &&
        Math.floor(order.finishedAt ?? 0) >= start &&
        Math.floor(order.finishedAt ?? 0) <= end,
    )
    .reverse();
}

/**
 * Whether the order history keeps a finished order: a filled one always, a cancelled one while
 * the account records cancelled orders. The executed-orders stream keeps the same ones.
 */
export const keptInHistory = (account: AccountState, order: Order) =>
  order.status !== 'CANCELED' || account.recordCancelledOrders;

export interface OrderHistoryQuery {
  market?: string;
  startDate?: number;
  endDate?: number;
  limit?: number;
  offset?: number;
}

/**
 * The filled and cancelled orders whose end falls in the window, newest first, keyed by market.
 * The window: by default the last month; `endDate` later than now is now; `startDate` at most
 * six months back (00:00 UTC of that day) and at most 31 days before `endDate`.
 */
export function listClosedOrders(context: CallContext, body: OrderHistoryQuery): Answer {
  const { account } = caller(context);
  const now = Math.floor(seconds(context.now));
  const end = Math.min(body.endDate ?? now, now);
  const start = body.startDate ?? monthsBefore(end, 1, false);
  const earliest = monthsBefore(now, 6, true);
  if (start < earliest)
    return refuseWorded(context, 'startDate', 'startTooEarly', { earliest: String(earliest) });
  if (end - start > 31 * day) return refuseWorded(context, 'endDate', 'windowTooLong');
  const closed = closedBetween(
    account,
    start,
    end,
    (order) => keptInHistory(account, order) && (body.market === undefined || order.market === body.market),
  );
  const { rows } = page(context, closed, body);
  return ok(byMarket(rows, (order) => historyView(order, context.state.market(order.market).money)));
}

export interface DelistedOrdersQuery {
  market?: string;
  status?: 'filled' | 'delisting';
  startDate?: number;
  endDate?: number;
  limit?: number;
  offset?: number;
}

/**
 * The furthest record a page may reach, `offset` plus `limit` (observed upstream, as the
 * operation's `limit` says).
 */
const deepestRecord = 10_000;

/** The `delistingKind` each request `status` keeps. */
const kindOfStatus = { delisting: 'canceled', filled: 'reverse' } as const;

const delistedView = (order: Order, feeAsset: string) => ({
  id: order.orderId,
  clientOrderId: order.clientOrderId,
  createdAt: order.timestamp,
  finishAt: order.finishedAt ?? order.timestamp,
  market: order.market,
  side: order.side,
  type: order.type,
  price: order.price,
  amount: order.amount,
  dealStock: order.dealStock,
  dealMoney: order.dealMoney,
  fee: order.dealFee,
  feeAsset,
  status: order.status.toLowerCase(),
  delistingKind: kindOfStatus.delisting,
});

/**
 * The orders a delisting closed: those still open when their market's `delistedAt` passed,
 * cancelled then (`delistingKind` `canceled`). The sandbox places no closing orders of its own, so
 * it lists no `reverse` ones. The window is on the end: by default the 30 days up to `endDate`
 * (now; a later one is now), at most 31 days, not starting after it; a page reaches at most
 * record 10000. The latest end first, then the highest id.
 */
export function listDelistedOrders(context: CallContext, body: DelistedOrdersQuery): Answer {
  const { account } = caller(context);
  const now = Math.floor(seconds(context.now));
  const end = Math.min(body.endDate ?? now, now);
  const start = body.startDate ?? end - 30 * day;
  if (start > end) return refuseWorded(context, 'startDate', 'startAfterEnd');
  if (end - start > 31 * day) return refuseWorded(context, 'endDate', 'windowTooLong');
  const { limit, offset } = page(context, [], body);
  if (offset + limit > deepestRecord) {
    return refuseWorded(context, 'offset', 'pageTooDeep', { most: String(deepestRecord) });
  }
  const closed = closedBetween(
    account,
    start,
    end,
    (order) =>
      order.cancelledByDelisting === true &&
      (body.market === undefined || order.market === body.market) &&
      (body.status === undefined || kindOfStatus[body.status] === kindOfStatus.delisting),
  ).sort((a, b) => (b.finishedAt ?? 0) - (a.finishedAt ?? 0) || b.orderId - a.orderId);
  const { rows } = page(context, closed, body);
  return ok(rows.map((order) => delistedView(order, context.state.market(order.market).money)));
}
