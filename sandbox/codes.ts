// Codes in the sandbox: an amount of an asset that one account takes from its main balance and
// another account receives by applying the code, once. Every amount moves by one balanced entry
// of the ledger (ledger.ts): making a code moves it from the creator's main balance to the codes
// account, applying it from the codes account to the main balance of the account that applied
// it, so no code makes or loses money. The callers (handlers/codes.ts) check the request, the
// balance and the code first; the ledger refuses a move that would take a balance below zero.
import { randomUUID } from 'node:crypto';
import { normalize } from './decimal.ts';
import type { FixtureCode } from './fixture.ts';
import { type Books, house, type Ledger, main, transfer } from './ledger.ts';

/** A code, applied or not. */
export interface Code {
  readonly code: string;
  readonly ticker: string;
  readonly amount: string;
  /** The id of the account that made it. */
  readonly creator: string;
  readonly passphrase?: string;
  readonly description?: string;
  /** Unix seconds. */
  readonly createdAt: number;
  /** The identifier its creation answered. */
  readonly externalId: string;
  /** Once applied: by which account, when (Unix seconds), and the identifier the apply answered. */
  applied?: { by: string; at: number; externalId: string };
}

/** The codes of the fixture; the codes account opens with what those not applied carry. */
export function seededCodes(seeds: readonly FixtureCode[], ledger: Ledger): Map<string, Code> {
  const codes = new Map<string, Code>();
  for (const seed of seeds) {
    const code: Code = {
      code: seed.code,
      ticker: seed.ticker,
      amount: normalize(seed.amount),
      creator: seed.creator,
      createdAt: seed.createdAt,
      externalId: seed.externalId,
      ...(seed.passphrase === undefined ? {} : { passphrase: seed.passphrase }),
      ...(seed.description === undefined ? {} : { description: seed.description }),
    };
    if (seed.appliedBy !== undefined) {
      code.applied = {
        by: seed.appliedBy,
        at: seed.appliedAt ?? seed.createdAt,
        externalId: seed.applyExternalId ?? randomUUID(),
      };
    } else {
      ledger.openHouse('codes', code.ticker, code.amount);
    }
    codes.set(code.code, code);
  }
  return codes;
}

/**
 * Makes a code of `amount` of `ticker` that the caller has checked: the amount leaves the
 * creator's main balance for the codes account. The code is `WB`, a UUID and the ticker, the form
 * observed upstream.
 */
export function makeCode(
  codes: Map<string, Code>,
  ledger: Ledger,
  account: Books,
  made: { ticker: string; amount: string; passphrase?: string | undefined; description?: string | undefined },
  now: number,
): Code {
  ledger.post(transfer(main(account), house('codes'), made.ticker, made.amount));
  const code: Code = {
    code: `WB${randomUUID()}${made.ticker}`,
    ticker: made.ticker,
    amount: normalize(made.amount),
    creator: account.id,
    createdAt: Math.floor(now / 1000),
    externalId: randomUUID(),
    ...(made.passphrase === undefined ? {} : { passphrase: made.passphrase }),
    ...(made.description === undefined ? {} : { description: made.description }),
  };
  codes.set(code.code, code);
  return code;
}

/** Applies a code the caller has checked (not applied, not the account's own): its amount arrives in the main balance. */
export function applyCode(code: Code, ledger: Ledger, account: Books, now: number): Code {
  if (code.applied) throw new Error(`code ${code.code} was applied already`);
  ledger.post(transfer(house('codes'), main(account), code.ticker, code.amount));
  code.applied = { by: account.id, at: Math.floor(now / 1000), externalId: randomUUID() };
  return code;
}

/** A row of an account's codes history: a code it made (the amount left) or applied (it arrived). */
export interface CodeHistoryRow {
  code: Code;
  side: 'made' | 'applied';
  /** Unix seconds. */
  date: number;
  externalId: string;
}

/** The account's codes history, newest first (a code made and applied at once: the apply first). */
export function codeHistory(codes: Iterable<Code>, accountId: string): CodeHistoryRow[] {
  const rows: CodeHistoryRow[] = [];
  for (const code of codes) {
    if (code.creator === accountId)
      rows.push({ code, side: 'made', date: code.createdAt, externalId: code.externalId });
    if (code.applied?.by === accountId)
      rows.push({ code, side: 'applied', date: code.applied.at, externalId: code.applied.externalId });
  }
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => b.row.date - a.row.date || b.index - a.index)
    .map(({ row }) => row);
}

/** The codes the account made, newest first. */
export function codesMadeBy(codes: Iterable<Code>, accountId: string): Code[] {
  return [...codes]
    .map((code, index) => ({ code, index }))
    .filter(({ code }) => code.creator === accountId)
    .sort((a, b) => b.code.createdAt - a.code.createdAt || b.index - a.index)
    .map(({ code }) => code);
}
