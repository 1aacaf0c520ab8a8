// The codes' transitions: making a code from the main balance, applying one, and the two lists,
// on the sandbox's state (sandbox/codes.ts keeps the model, sandbox/ledger.ts the balances). Every
// refusal is a named example of the operation called, or its `x-messages` wording; the success
// messages are its success example's, the codes' statuses its `x-code-statuses`.
import { at, isRecord } from '../../model/json.ts';
import type { Answer } from '../answer.ts';
import { type Code, codeHistory, codesMadeBy, applyCode as credit, makeCode } from '../codes.ts';
import { type CallContext, caller, refuse, refuseWorded } from '../context.ts';
import { compare, isZero } from '../decimal.ts';

/** The `message` of the operation's success example: the confirmation it answers with. */
function confirmation(context: CallContext): string {
  const message = at(context.operation.successExample()?.value, 'message');
  if (typeof message !== 'string') throw new Error(`${context.operation.id} has no success message`);
  return message;
}

/** The characters a passphrase may have: `createCode`'s `x-passphrase-pattern`. */
function passphrasePattern(context: CallContext): RegExp {
  const found = context.operation.object['x-passphrase-pattern'];
  const pattern = isRecord(found) ? found.pattern : undefined;
  if (typeof pattern !== 'string') throw new Error(`${context.operation.id} has no x-passphrase-pattern`);
  return new RegExp(pattern);
}

/** A code's `status` in the lists: the operation's `x-code-statuses`. */
function statusOf(context: CallContext, code: Code): string {
  const found = context.operation.object['x-code-statuses'];
  const status = isRecord(found) ? found[code.applied ? 'applied' : 'open'] : undefined;
  if (typeof status !== 'string') throw new Error(`${context.operation.id} has no x-code-statuses`);
  return status;
}

interface CreateBody {
  ticker: string;
  amount: string;
  passphrase?: string;
  description?: string;
}

/**
 * Makes a code, refused in this order: an unknown asset (400), then the business rules (422): a
 * passphrase of characters the operator refuses, an amount of 0, more than the main balance
 * holds. Taken, the amount leaves the main balance for the codes account.
 */
export function createCode(context: CallContext, body: CreateBody): Answer {
  const { account } = caller(context);
  const { state } = context;
  const asset = state.assets.get(body.ticker);
  if (!asset) return refuse(context, 'unknownTicker');
  if (body.passphrase !== undefined && !passphrasePattern(context).test(body.passphrase))
    return refuse(context, 'invalidPassphrase');
  if (isZero(body.amount)) return refuseWorded(context, 'amount', 'amountNotPositive');
  const available = state.mainBalance(account.id, body.ticker);
  if (compare(body.amount, available) > 0) {
    const name = typeof asset.name === 'string' ? asset.name : body.ticker;
    return refuseWorded(context, 'amount', 'notEnoughBalance', { name, available }, 'notEnoughBalance');
  }
  const code = makeCode(state.codes, state.ledger, account, body, context.now);
  return {
    status: 201,
    body: { code: code.code, message: confirmation(context), external_id: code.externalId },
  };
}

/**
 * Applies a code. An unknown code and a wrong passphrase get one answer (`codeNotApplied`), as
 * observed upstream; then a code applied before, then the account's own code. Taken, the amount
 * goes from the codes account to the main balance.
 */
export function applyCode(context: CallContext, body: { code: string; passphrase?: string }): Answer {
  const { account } = caller(context);
  const code = context.state.codes.get(body.code);
  if (!code || (code.passphrase !== undefined && code.passphrase !== body.passphrase))
    return refuse(context, 'codeNotApplied');
  if (code.applied) return refuse(context, 'codeAlreadyApplied');
  if (code.creator === account.id) return refuse(context, 'ownCode');
  const applied = credit(code, context.state.ledger, account, context.now);
  return {
    status: 201,
    body: {
      message: confirmation(context),
      ticker: code.ticker,
      amount: code.amount,
      external_id: applied.applied?.externalId,
    },
  };
}

interface PageBody {
  limit?: number;
  offset?: number;
}

/** A page of rows, as both lists answer it. */
function page<Row>(context: CallContext, body: PageBody, rows: readonly Row[], shape: (row: Row) => unknown) {
  const limit = body.limit ?? (context.operation.requestDefault('limit') as number);
  const offset = body.offset ?? (context.operation.requestDefault('offset') as number);
  return {
    status: 201,
    body: { total: rows.length, data: rows.slice(offset, offset + limit).map(shape), limit, offset },
  };
}

/** The codes the account made, newest first. */
export function listMyCodes(context: CallContext, body: PageBody): Answer {
  const { account } = caller(context);
  return page(context, body, codesMadeBy(context.state.codes.values(), account.id), (code) => ({
    amount: code.amount,
    code: code.code,
    date: code.createdAt,
    status: statusOf(context, code),
    ticker: code.ticker,
    external_id: code.externalId,
  }));
}

/** The account's codes history, newest first: `-` a code it made, `+` one it applied. */
export function listCodeHistory(context: CallContext, body: PageBody): Answer {
  const { account } = caller(context);
  return page(context, body, codeHistory(context.state.codes.values(), account.id), (row) => ({
    amount: `${row.side === 'made' ? '-' : '+'}${row.code.amount}`,
    code: row.code.code,
    date: row.date,
    status: statusOf(context, row.code),
    ticker: row.code.ticker,
    external_id: row.externalId,
  }));
}
