// The holds of the trade balance: what an open order locks of the account's available amount,
// and giving it back when the order closes (filled or cancelled), each a move of the ledger
// between the spot balance and what it holds. Below both the spot exchange (exchange.ts) and the
// collateral one (collateral.ts), which each close orders.
import { spot, spotHeld, transfer } from './ledger.ts';
import type { Order, OrderStatus } from './orders.ts';
import type { AccountState } from './state.ts';

/** What the account has available of an asset. */
export function available(account: AccountState, asset: string): string {
  return account.trade.get(asset)?.available ?? '0';
}

export function takeHold(account: AccountState, order: Order, hold: { asset: string; amount: string }) {
  account.ledger.post(transfer(spot(account), spotHeld(account), hold.asset, hold.amount));
  order.hold = hold;
}

export function releaseHold(account: AccountState, order: Order) {
  if (!order.hold) return;
  account.ledger.post(transfer(spotHeld(account), spot(account), order.hold.asset, order.hold.amount));
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
