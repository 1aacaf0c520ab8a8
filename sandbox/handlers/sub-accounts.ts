// The sub-accounts' transitions: making, changing, blocking, unblocking and deleting them, the
// list, their balances, moving money between the account and one of them, with the history of
// those moves, their identity verification links, and the withdrawals they made that wait for the
// account's confirmation (sandbox/sub-accounts.ts keeps the model, sandbox/ledger.ts the balances). Every
// refusal is a named example of the operation called, or its `x-messages` wording; a
// sub-account's status is the `x-sub-account-statuses` of the operation that answers it.
import { randomUUID } from 'node:crypto';
import { isRecord } from '../../model/json.ts';
import type { Answer } from '../answer.ts';
import { type CallContext, caller, ok, refuse, refuseWorded } from '../context.ts';
import { compare } from '../decimal.ts';
import type { AccountState } from '../state.ts';
import {
  type Direction,
  moveBetween,
  type SubAccount,
  subAccountsOf,
  withdrawalOf,
} from '../sub-accounts.ts';
import { startWithdrawal, transferFee } from '../wallet.ts';

type Permissions = SubAccount['permissions'];

/** The caller's sub-account `id` (not deleted), or the refusal. */
function subAccountOf(context: CallContext, id: string): { account: AccountState; sub: SubAccount } | Answer {
  const { account } = caller(context);
  const sub = context.state.subAccounts.get(id);
  if (!sub || sub.deleted || sub.parent !== account.id) return refuse(context, 'subAccountNotFound');
  return { account, sub };
}

const isAnswer = (value: object): value is Answer => 'status' in value;

/** Another sub-account of the parent with the alias. */
const aliasTaken = (context: CallContext, parent: string, alias: string, self?: string) =>
  subAccountsOf(context.state.subAccounts, parent).some((sub) => sub.alias === alias && sub.id !== self);

/** The email as the list shows it: its first character, then stars, then the domain. */
function masked(email: string): string {
  const at = email.indexOf('@');
  return at <= 0 ? '***' : `${email.slice(0, 1)}***${email.slice(at)}`;
}

/** A sub-account as the operations answer it. */
function view(context: CallContext, sub: SubAccount) {
  const found = statuses(context);
  return {
    id: sub.id,
    alias: sub.alias,
    ...(sub.email === undefined ? {} : { email: masked(sub.email) }),
    status: found[sub.blocked ? 'blocked' : 'active'],
    kyc: { shareKyc: sub.shareKyc },
    permissions: { ...sub.permissions },
  };
}

/** A sub-account's status by state: the `x-sub-account-statuses` of the operation that answers it. */
function statuses(context: CallContext): { active: string; blocked: string } {
  const found = context.operation.object['x-sub-account-statuses'];
  const active = isRecord(found) ? found.active : undefined;
  const blocked = isRecord(found) ? found.blocked : undefined;
  if (typeof active !== 'string' || typeof blocked !== 'string')
    throw new Error(`${context.operation.id} has no x-sub-account-statuses`);
  return { active, blocked };
}

interface CreateBody {
  alias: string;
  email?: string;
  shareKyc?: boolean;
  permissions: Permissions;
}

/**
 * Makes a sub-account, refused when it has no email and does not share the account's
 * verification, or when another sub-account of the account has the alias. Its books start empty.
 */
export function createSubAccount(context: CallContext, body: CreateBody): Answer {
  const { account } = caller(context);
  if (body.shareKyc !== true && body.email === undefined) return refuse(context, 'emailRequired');
  if (aliasTaken(context, account.id, body.alias)) return refuse(context, 'aliasTaken');
  const id = randomUUID();
  context.state.openAccount(id);
  const sub: SubAccount = {
    id,
    parent: account.id,
    alias: body.alias,
    ...(body.email === undefined ? {} : { email: body.email }),
    shareKyc: body.shareKyc ?? false,
    permissions: { ...body.permissions },
    blocked: false,
    deleted: false,
    transfers: [],
    withdrawals: [],
  };
  context.state.subAccounts.set(id, sub);
  return { status: 201, body: view(context, sub) };
}

/** Sets the alias and permissions; another sub-account's alias is refused. */
export function editSubAccount(
  context: CallContext,
  body: { id: string; alias: string; permissions: Permissions },
): Answer {
  const found = subAccountOf(context, body.id);
  if (isAnswer(found)) return found;
  if (aliasTaken(context, found.account.id, body.alias, found.sub.id)) return refuse(context, 'aliasTaken');
  found.sub.alias = body.alias;
  found.sub.permissions = { ...body.permissions };
  return ok({});
}

/** Deletes the sub-account: gone from every call; what it held stays on its books. */
export function deleteSubAccount(context: CallContext, body: { id: string }): Answer {
  const found = subAccountOf(context, body.id);
  if (isAnswer(found)) return found;
  found.sub.deleted = true;
  return ok({});
}

const setBlocked = (blocked: boolean) => (context: CallContext, body: { id: string }) => {
  const found = subAccountOf(context, body.id);
  if (isAnswer(found)) return found;
  found.sub.blocked = blocked;
  return ok({});
};

/** Blocks the sub-account: no money moves to or from it until it is unblocked. */
export const blockSubAccount = setBlocked(true);
/** Unblocks the sub-account. */
export const unblockSubAccount = setBlocked(false);

interface PageBody {
  limit?: number;
  offset?: number;
}

const pageOf = (context: CallContext, body: PageBody) => ({
  limit: body.limit ?? (context.operation.requestDefault('limit') as number),
  offset: body.offset ?? (context.operation.requestDefault('offset') as number),
});

/** The account's sub-accounts in the order they were made, those whose alias holds `search`. */
export function listSubAccounts(context: CallContext, body: PageBody & { search?: string }): Answer {
  const { account } = caller(context);
  const { limit, offset } = pageOf(context, body);
  const search = body.search?.toLowerCase();
  const subs = subAccountsOf(context.state.subAccounts, account.id).filter(
    (sub) => search === undefined || sub.alias.toLowerCase().includes(search),
  );
  return ok({ offset, limit, data: subs.slice(offset, offset + limit).map((sub) => view(context, sub)) });
}

/** The sub-account's main, spot and collateral balances, of the asset or of every asset. */
export function readSubAccountBalances(context: CallContext, body: { id: string; ticker?: string }): Answer {
  const found = subAccountOf(context, body.id);
  if (isAnswer(found)) return found;
  const books = context.state.account(found.sub.id);
  const tickers =
    body.ticker === undefined
      ? [...context.state.assets.keys()]
      : context.state.assets.has(body.ticker)
        ? [body.ticker]
        : [];
  return ok(
    Object.fromEntries(
      tickers.map((ticker) => [
        ticker,
        [
          {
            main: books.main.get(ticker) ?? '0',
            spot: books.trade.get(ticker)?.available ?? '0',
            collateral: books.collateral.find((item) => item.asset === ticker)?.balance ?? '0',
          },
        ],
      ]),
    ),
  );
}

/** The smallest amount the operation takes: its request `amount`'s `x-minimum-amount`. */
function smallestAmount(context: CallContext): string {
  const found = context.operation.requestPropertyExtension('amount', 'x-minimum-amount');
  if (typeof found !== 'string') throw new Error(`${context.operation.id} amount has no x-minimum-amount`);
  return found;
}

/**
 * Moves an amount between the account's main balance and the sub-account's, refused in this
 * order: an unknown or deleted sub-account, a blocked one, an unknown asset, less than the
 * smallest amount, more than the source holds.
 */
export function moveToSubAccount(
  context: CallContext,
  body: { id: string; direction: Direction; amount: string; ticker: string },
): Answer {
  const found = subAccountOf(context, body.id);
  if (isAnswer(found)) return found;
  const { account, sub } = found;
  if (sub.blocked) return refuse(context, 'subAccountBlocked');
  if (!context.state.assets.has(body.ticker)) return refuse(context, 'unknownTicker');
  if (compare(body.amount, smallestAmount(context)) < 0) return refuse(context, 'amountTooSmall');
  const books = { parent: account, sub: context.state.account(sub.id) };
  const source = body.direction === 'main_to_sub' ? books.parent : books.sub;
  const available = source.main.get(body.ticker) ?? '0';
  if (compare(body.amount, available) > 0)
    return refuseWorded(context, 'amount', 'notEnoughBalance', { available }, 'notEnoughBalance');
  const row = moveBetween(context.state.ledger, sub, books, body, context.now);
  return ok({ transaction_id: row.transactionId });
}

/** The sub-account's transfers, newest first, of one direction if asked, a page at a time. */
export function listSubAccountTransfers(
  context: CallContext,
  body: PageBody & { id: string; direction?: Direction },
): Answer {
  const found = subAccountOf(context, body.id);
  if (isAnswer(found)) return found;
  const { limit, offset } = pageOf(context, body);
  const rows = found.sub.transfers
    .filter((row) => body.direction === undefined || row.direction === body.direction)
    .reverse();
  return ok({
    offset,
    limit,
    data: rows.slice(offset, offset + limit).map((row) => ({
      transaction_id: row.transactionId,
      id: row.transactionId,
      direction: row.direction,
      currency: row.ticker,
      amount: row.amount,
      createdAt: row.createdAt,
    })),
  });
}

/**
 * A sub-account's identity verification link, refused in this order: no sub-account of the
 * caller's has the id (or it is deleted), it is blocked, it shares the account's verification.
 * The link is the operation's first success example: the sandbox verifies no one.
 */
export function issueKycLink(context: CallContext, body: { id: string }): Answer {
  const { account } = caller(context);
  const sub = context.state.subAccounts.get(body.id);
  if (!sub || sub.deleted || sub.parent !== account.id) return refuse(context, 'unknownSubAccount');
  if (sub.blocked) return refuse(context, 'subAccountNotActive');
  if (sub.shareKyc) return refuse(context, 'sharedKycEnabled');
  const link = context.operation.successExample();
  if (!link) throw new Error(`${context.operation.id} has no success example`);
  return { status: link.status, body: link.value };
}

/**
 * The withdrawals the caller's sub-accounts (not deleted) made that wait for its confirmation,
 * of one sub-account if asked, newest first, a page at a time.
 */
export function listUnconfirmedWithdrawals(
  context: CallContext,
  body: PageBody & { subAccountId?: string },
): Answer {
  const { account } = caller(context);
  const { limit, offset } = pageOf(context, body);
  const rows = subAccountsOf(context.state.subAccounts, account.id)
    .filter((sub) => body.subAccountId === undefined || sub.id === body.subAccountId)
    .flatMap((sub) =>
      sub.withdrawals
        .filter((withdrawal) => !withdrawal.confirmed)
        .map((withdrawal) => ({
          id: withdrawal.id,
          subAccountId: sub.id,
          currency: withdrawal.ticker,
          amount: withdrawal.amount,
          createdAt: withdrawal.createdAt,
        })),
    )
    .sort((a, b) => b.createdAt - a.createdAt);
  return ok({ data: rows.slice(offset, offset + limit), limit, offset });
}

/**
 * Confirms a sub-account's withdrawal, refused in this order: no withdrawal has the id, it is not
 * a withdrawal of one of the caller's sub-accounts (or that one is deleted), it was confirmed
 * already, the sub-account's main balance no longer covers it (or it does not cover its own fee).
 * Confirmed, it goes out as any withdrawal whose amount includes the fee: it leaves the
 * sub-account's main balance at once, is pending in the sub-account's history under its id as
 * its uniqueId, and is done on the sandbox's clock.
 */
export function confirmSubAccountWithdrawal(context: CallContext, body: { id: string }): Answer {
  const { account } = caller(context);
  const found = withdrawalOf(context.state.subAccounts, body.id);
  if (!found) return refuse(context, 'unknownWithdrawal');
  const { sub, withdrawal } = found;
  if (sub.deleted || sub.parent !== account.id) return refuse(context, 'withdrawalNotFound');
  if (withdrawal.confirmed) return refuse(context, 'withdrawalNotConfirmable');
  const { state } = context;
  const books = state.account(sub.id);
  const fee = transferFee(state, withdrawal.ticker, 'withdraw', withdrawal.amount);
  const available = state.mainBalance(sub.id, withdrawal.ticker);
  if (compare(withdrawal.amount, available) > 0 || compare(withdrawal.amount, fee) <= 0)
    return refuse(context, 'withdrawalNotPossible');
  startWithdrawal(
    state,
    books,
    {
      ticker: withdrawal.ticker,
      amount: withdrawal.amount,
      fee,
      gross: withdrawal.amount,
      address: withdrawal.address,
      network: withdrawal.network,
      uniqueId: withdrawal.id,
    },
    context.now,
  );
  withdrawal.confirmed = true;
  return ok({});
}
