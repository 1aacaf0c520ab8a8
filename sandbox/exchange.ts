// The sandbox's exchange: each market's book of resting orders, the trade balance they hold, and
// fills against the market's price. Other participants (market.ts) are the liquidity at that
// price: every fill here is one of the market's public trades. A market order fills at once at the price, and so does a limit order that crosses
// it (as the taker); a limit order that does not cross rests and fills, as the maker at its own
// price, once the price moves through it. A stop order waits until the price reaches its
// activation price. Every amount is an exact decimal; every change happens inside one call,
// so concurrent calls never see a half-done fill, and every balance moves by the ledger's
// balanced entries (ledger.ts).
import { moveCollateralPrice, settleCollateral } from './collateral.ts';
import { compare, divide, isZero, multiply, normalize } from './decimal.ts';
import { available, cancel, close, releaseHold, takeHold } from './holds.ts';
import { house, spot, transfer } from './ledger.ts';
import { fee, isQuoteSized, isStop, type Order, type OrderDraft, requirement, seconds } from './orders.ts';
import type { AccountState, SandboxState } from './state.ts';

export { available, cancel };

import { type ActionTypes, settleLending } from './lending.ts';
import { recordTrade } from './trades.ts';
import { settleWithdrawals } from './wallet.ts';

/**
 * Fills an order in full at `price`: the base and quote move between the account's balances,
 * the fee (in the quote asset, by the market's rate for the role) is charged, and a deal is
 * recorded. A quote-sized buy gets what its budget buys at the market's precision.
 */
function fill(
  state: SandboxState,
  account: AccountState,
  order: Order,
  price: string,
  role: 1 | 2,
  at: number,
) {
  const market = state.market(order.market);
  const stock = isQuoteSized(order)
    ? divide(order.amount, price, Number(market.stockPrec))
    : normalize(order.amount);
  if (isZero(stock)) {
    // The budget buys nothing at this price: nothing is traded.
    cancel(account, order, at);
    return;
  }
  const money = multiply(stock, price);
  const charged = fee(market, money, role === 1 ? order.makerFee : order.takerFee);
  const paid = compare(charged, money) > 0 ? money : charged;
  releaseHold(account, order);
  // One entry: the market (the other participants) takes what the order gives and gives what it
  // receives, and the fee, in the quote asset, goes to the fee account.
  const [gives, receives] =
    order.side === 'buy'
      ? [
          { asset: market.money, amount: money },
          { asset: market.stock, amount: stock },
        ]
      : [
          { asset: market.stock, amount: stock },
          { asset: market.money, amount: money },
        ];
  account.ledger.post([
    ...transfer(spot(account), house('market'), gives.asset, gives.amount),
    ...transfer(house('market'), spot(account), receives.asset, receives.amount),
    ...transfer(spot(account), house('fees'), market.money, paid),
  ]);
  order.dealStock = stock;
  order.dealMoney = money;
  order.dealFee = paid;
  account.deals.push({
    id: state.nextDealId(),
    orderId: order.orderId,
    dealOrderId: state.nextOrderId(),
    clientOrderId: order.clientOrderId,
    market: order.market,
    time: at,
    side: order.side,
    role,
    amount: stock,
    price: normalize(price),
    deal: money,
    fee: paid,
    feeAsset: market.money,
    rpi: order.rpi,
  });
  // The fill is a public trade of the market; its side is the taker's.
  const takerSide = role === 2 ? order.side : order.side === 'buy' ? 'sell' : 'buy';
  recordTrade(state, {
    market: order.market,
    time: Math.floor(at),
    price: normalize(price),
    amount: stock,
    side: takerSide,
    rpi: order.rpi,
  });
  close(account, order, 'FILLED', at);
}

/** Whether a limit price crosses the market price: a buy at or above it, a sell at or below. */
const crosses = (order: Order, price: string) =>
  order.side === 'buy' ? compare(order.price, price) >= 0 : compare(order.price, price) <= 0;

/** Whether a stop order's activation price is reached: a buy's from below, a sell's from above. */
const reached = (order: Order, price: string) =>
  order.side === 'buy'
    ? compare(price, order.activationPrice as string) >= 0
    : compare(price, order.activationPrice as string) <= 0;

/**
 * What an active order does at the market price: a market order fills as the taker; a limit
 * order that crosses fills as the taker at the market price, unless it may only be a maker
 * (post-only, RPI), which waits for the price to come to it; one that does not cross rests, or
 * with `ioc` is cancelled.
 */
function match(state: SandboxState, account: AccountState, order: Order, at: number) {
  const { price } = state.market(order.market);
  if (order.type === 'market' || order.type === 'stock market' || order.type === 'stop market') {
    fill(state, account, order, price, 2, at);
  } else if (crosses(order, price) && !order.postOnly && !order.rpi) {
    fill(state, account, order, price, 2, at);
  } else if (order.ioc) {
    cancel(account, order, at);
  }
}

/** Places an order the caller has checked (market rules, balance): it holds, then matches. */
export function place(state: SandboxState, account: AccountState, draft: OrderDraft, now: number): Order {
  const at = seconds(now);
  const order: Order = {
    orderId: state.nextOrderId(),
    clientOrderId: draft.clientOrderId,
    market: draft.market.name,
    kind: 'spot',
    type: draft.type,
    side: draft.side,
    amount: normalize(draft.amount),
    price: draft.price === undefined ? '0' : normalize(draft.price),
    ...(draft.activationPrice === undefined ? {} : { activationPrice: normalize(draft.activationPrice) }),
    activated: !isStop(draft.type),
    postOnly: draft.postOnly,
    ioc: draft.ioc,
    rpi: draft.rpi,
    stp: draft.stp,
    timestamp: at,
    dealStock: '0',
    dealMoney: '0',
    dealFee: '0',
    status: 'NEW',
    makerFee: draft.market.makerFee,
    takerFee: draft.market.takerFee,
  };
  account.orders.set(order.orderId, order);
  takeHold(account, order, requirement(draft));
  if (order.activated) match(state, account, order, at);
  else if (reached(order, draft.market.price)) activate(state, account, order, at);
  return order;
}

function activate(state: SandboxState, account: AccountState, order: Order, at: number) {
  order.activated = true;
  match(state, account, order, at);
}

/**
 * Moves a market's price: stop orders whose activation price it reaches activate, and resting
 * limit orders it moves through fill as the maker at their own price, in the order they were
 * placed.
 */
export function movePrice(state: SandboxState, marketName: string, price: string, now: number) {
  const market = state.market(marketName);
  market.price = normalize(price);
  const at = seconds(now);
  for (const account of state.accounts.values()) {
    for (const order of [...account.orders.values()]) {
      if (order.market !== marketName || order.kind !== 'spot' || order.status !== 'NEW') continue;
      if (!order.activated) {
        if (reached(order, market.price)) activate(state, account, order, at);
      } else if (crosses(order, market.price)) {
        fill(state, account, order, order.price, 1, at);
      }
    }
  }
  moveCollateralPrice(state, marketName, now);
}

/** The order as the trading operations answer it (the documents' Order). */
export function orderView(order: Order) {
  return {
    orderId: order.orderId,
    clientOrderId: order.clientOrderId,
    market: order.market,
    side: order.side,
    type: order.type,
    timestamp: order.timestamp,
    dealMoney: order.dealMoney,
    dealStock: order.dealStock,
    amount: order.amount,
    left: order.status === 'FILLED' ? '0' : order.amount,
    dealFee: order.dealFee,
    price: order.price,
    postOnly: order.postOnly,
    ioc: order.ioc,
    status: order.status,
    stp: order.stp,
    rpi: order.rpi,
    ...(order.positionSide ? { positionSide: order.positionSide.toUpperCase() } : {}),
    ...(order.activationPrice === undefined
      ? {}
      : {
          activated: order.activated ? 1 : 0,
          activationCondition: order.side === 'buy' ? 'gte' : 'lte',
          activation_price: order.activationPrice,
        }),
  };
}

/**
 * Applies what the sandbox's clock has reached at `now` (ms): kill-switch timers that ran out
 * cancel their market's open orders of their kinds, a market past its delisting date has its
 * open orders cancelled, collateral funding is paid, pending withdrawals whose time has come go
 * out and lending pays its interest (flex earnings with the history's `actionTypes`). Each
 * cancellation is dated when it was due, not when it was applied.
 */
export function settle(state: SandboxState, now: number, actionTypes: ActionTypes) {
  for (const account of state.accounts.values()) {
    for (const timer of [...account.killSwitches.values()]) {
      if (timer.runsOutAt > now) continue;
      account.killSwitches.delete(timer.market);
      for (const order of [...account.orders.values()]) {
        if (order.market === timer.market && timer.types.includes(order.kind)) {
          cancel(account, order, seconds(timer.runsOutAt));
        }
      }
    }
  }
  for (const market of state.markets.values()) {
    if (market.delistedAt === null || market.delistedAt * 1000 > now) continue;
    for (const account of state.accounts.values()) {
      for (const order of [...account.orders.values()]) {
        if (order.market !== market.name) continue;
        order.cancelledByDelisting = true;
        cancel(account, order, market.delistedAt);
      }
    }
  }
  settleCollateral(state, now);
  settleWithdrawals(state, now);
  settleLending(state, now, actionTypes);
}
