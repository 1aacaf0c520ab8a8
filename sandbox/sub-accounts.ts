// Sub-accounts in the sandbox: accounts of an account's own, each with its balances in the one
// ledger (ledger.ts), as every account's are. Money moves between the parent's main balance and
// the sub-account's by one balanced entry, so a transfer never makes or loses money. A blocked
// sub-account neither receives nor sends; a deleted one is gone from every call, and what it held
// stays on its books, out of reach (the operator does not show where it goes). The callers
// (handlers/sub-accounts.ts) check the request, the balance and the sub-account first; the
// ledger refuses a move that would take a balance below zero.
import { randomUUID } from 'node:crypto';
import { normalize } from './decimal.ts';
import type { FixtureAccount, FixtureSubAccount } from './fixture.ts';
import { type Books, type Ledger, main, transfer } from './ledger.ts';

export type Direction = 'main_to_sub' | 'sub_to_main';

/** A move between the parent and a sub-account: a row of the transfer history. */
export interface SubAccountTransfer {
  transactionId: string;
  direction: Direction;
  ticker: string;
  amount: string;
  /** Unix seconds. */
  createdAt: number;
}

/**
 * A withdrawal the sub-account made, which its parent confirms before it goes out: until then
 * nothing has left the sub-account's balance.
 */
export interface SubAccountWithdrawal {
  readonly id: string;
  readonly ticker: string;
  /** What leaves the sub-account's main balance once confirmed, the fee included. */
  readonly amount: string;
  readonly address: string;
  readonly network: string | null;
  /** Unix seconds. */
  readonly createdAt: number;
  confirmed: boolean;
}

/** What makes an account a sub-account, beside its books (the account of the same id). */
export interface SubAccount {
  readonly id: string;
  /** The id of the account it belongs to. */
  readonly parent: string;
  alias: string;
  readonly email?: string;
  readonly shareKyc: boolean;
  permissions: FixtureSubAccount['permissions'];
  blocked: boolean;
  deleted: boolean;
  /** Its transfers, oldest first. */
  readonly transfers: SubAccountTransfer[];
  /** Its withdrawals that needed its parent's confirmation, waiting or confirmed. */
  readonly withdrawals: SubAccountWithdrawal[];
}

/** The sub-accounts of the fixture, in the order it lists them. */
export function seededSubAccounts(accounts: readonly FixtureAccount[]): Map<string, SubAccount> {
  const subs = new Map<string, SubAccount>();
  for (const account of accounts) {
    const seed = account.subAccount;
    if (!seed) continue;
    subs.set(account.id, {
      id: account.id,
      parent: seed.parent,
      alias: seed.alias,
      ...(seed.email === undefined ? {} : { email: seed.email }),
      shareKyc: seed.shareKyc ?? false,
      permissions: { ...seed.permissions },
      blocked: seed.blocked ?? false,
      deleted: false,
      transfers: [],
      withdrawals: (seed.unconfirmedWithdrawals ?? []).map((withdrawal) => ({
        id: withdrawal.id,
        ticker: withdrawal.ticker,
        amount: normalize(withdrawal.amount),
        address: withdrawal.address,
        network: withdrawal.network ?? null,
        createdAt: withdrawal.createdAt,
        confirmed: false,
      })),
    });
  }
  return subs;
}

/** The parent's sub-accounts that are not deleted, in the order they were made. */
export const subAccountsOf = (subs: Map<string, SubAccount>, parent: string): SubAccount[] =>
  [...subs.values()].filter((sub) => sub.parent === parent && !sub.deleted);

/** The withdrawal of any sub-account with the id, with its sub-account, or undefined. */
export function withdrawalOf(
  subs: Map<string, SubAccount>,
  id: string,
): { sub: SubAccount; withdrawal: SubAccountWithdrawal } | undefined {
  for (const sub of subs.values()) {
    const withdrawal = sub.withdrawals.find((candidate) => candidate.id === id);
    if (withdrawal) return { sub, withdrawal };
  }
  return undefined;
}

/**
 * Moves `amount` of `ticker` between the parent's main balance and the sub-account's, as one
 * entry, and records it. The caller has checked the sub-account (not blocked) and the balance.
 */
export function moveBetween(
  ledger: Ledger,
  sub: SubAccount,
  books: { parent: Books; sub: Books },
  move: { direction: Direction; ticker: string; amount: string },
  now: number,
): SubAccountTransfer {
  if (sub.blocked || sub.deleted) throw new Error(`sub-account ${sub.id} takes no transfers`);
  const [from, to] = move.direction === 'main_to_sub' ? [books.parent, books.sub] : [books.sub, books.parent];
  ledger.post(transfer(main(from), main(to), move.ticker, move.amount));
  const row: SubAccountTransfer = {
    transactionId: randomUUID(),
    direction: move.direction,
    ticker: move.ticker,
    amount: normalize(move.amount),
    createdAt: Math.floor(now / 1000),
  };
  sub.transfers.push(row);
  return row;
}
