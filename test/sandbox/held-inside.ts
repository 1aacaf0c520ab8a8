// What the exchange holds inside, per asset: the sum of every account's balances (main, spot
// available and held, collateral) and of every house but the outside, read from a snapshot of the
// sandbox and added with the tests' own arithmetic. Only deposits and withdrawals change it; a
// test of a move inside the exchange (a code, a sub-account transfer) expects it unchanged.
import type { Sandbox } from '../../sandbox/server.ts';
import { units } from './helpers.ts';

export function heldInside(sandbox: Sandbox): Map<string, bigint> {
  const snapshot = sandbox.state.snapshot();
  const totals = new Map<string, bigint>();
  const count = (asset: string, amount: string) =>
    totals.set(asset, (totals.get(asset) ?? 0n) + units(amount));
  for (const account of snapshot.accounts) {
    for (const [asset, amount] of Object.entries(account.mainBalances)) count(asset, amount);
    for (const [asset, { available, frozen }] of Object.entries(account.tradeBalances)) {
      count(asset, available);
      count(asset, frozen);
    }
    for (const item of account.collateralBalances) count(item.asset, item.balance);
  }
  for (const [name, held] of Object.entries(snapshot.houses)) {
    if (name === 'outside') continue;
    for (const [asset, amount] of Object.entries(held)) count(asset, amount);
  }
  for (const [asset, total] of totals) if (total === 0n) totals.delete(asset);
  return totals;
}
