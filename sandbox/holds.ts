// The holds of the trade balance: what an open order locks of the account's available amount,
// and giving it back when the order closes (filled or cancelled). Below both the spot exchange
// (exchange.ts) and the collateral one (collateral.ts), which each close orders.
import { add, isNegative } from './decimal.ts';
import type { Order, OrderStatus } from './orders.ts';
import type { AccountState } from './state.ts';

/** What the account has available of an asset. */
export function available(account: AccountState, asset: string): string {
  return account.trade.get(asset)?.available ?? '0';
}

export function move(account: AccountState, asset: string, change: { available?: string; frozen?: string }) {
  const balance = account.trade.get(asset) ?? { available: '0', frozen: '0' };
  const next = {
    available: add(balance.available, change.available ?? '0'),
    frozen: add(balance.frozen, change.frozen ?? '0'),
  };
  // A check before every debit makes this unreachable; were it reached, money would be created.
  if (isNegative(next.available) || isNegative(next.frozen)) {
    throw new Error(`the trade balance of ${asset} of ${account.id} would go below zero`);
  }
  account.trade.set(asset, next);
}

export function takeHold(account: AccountState, order: Order, hold: { asset: string; amount: string }) {
  move(account, hold.asset, { available: `-${hold.amount}`, frozen: hold.amount });
  order.hold = hold;
}

export function releaseHold(account: AccountState, order: Order) {
  if (!order.hold) return;
  move(account, order.hold.asset, { available: order.hold.amount, frozen: `-${order.hold.amount}` });
  delete order.hold;
}

export function close(account: AccountState, order: Order, status: OrderStatus, at: number) {
  releaseHold(account, order);
  order.status = status;
  order.finishedAt = at;
  account.orders.delete(order.orderId);
  account.closed.push(order);
}

/** Cancels an open order: what it holds goes back to available, exactly. */
export function cancel(account: AccountState, order: Order, at: number) {
  close(account, order, 'CANCELED', at);
}
