// The stateful run's money-flow check (contract-tests/support/changes.ts) on the documents' own
// declarations: it passes a balance that moved by the call's amount the way the call's fields
// say, and names the balance, its readings and the expected move for one that did not.
import { describe, expect, it } from 'vitest';
import {
  type Changes,
  changesProblems,
  expectedMove,
  moveProblem,
} from '../../contract-tests/support/changes.ts';
import { createModel, type OperationId } from '../../contract-tests/support/documents.ts';
import { documentLinks } from '../../contract-tests/support/links.ts';

const model = createModel();
const links = documentLinks(model);

/** The `changes` of a link of the documents, found by its name. */
function changesOf(name: string): Changes {
  const link = links.find((candidate) => candidate.name === name);
  if (!link) throw new Error(`no link ${name}`);
  const responses = model.model(link.from as OperationId).operation.responses as Record<
    string,
    { links: Record<string, { 'x-stateful'?: { changes?: Changes } }> }
  >;
  const changes = responses[String(link.status)]?.links[name]?.['x-stateful']?.changes;
  if (!changes) throw new Error(`link ${name} declares no changes`);
  return changes;
}

const transfer = (from: string, to: string) => ({
  request: { ticker: 'USDT', amount: '50', from, to },
  response: [],
});
const main = (balance: string) => ({ main_balance: balance });
const spot = (available: string) => ({ USDT: { available, freeze: '0' } });

describe('the money-flow check of the stateful run', () => {
  it('every changes the documents declare is well formed, and transfers and withdrawals declare them', () => {
    const declared = links.filter((link) => declaresChanges(link.name));
    for (const link of declared) expect(changesProblems(changesOf(link.name)), link.name).toEqual([]);
    expect(declared.map((link) => link.from)).toEqual(
      expect.arrayContaining([
        'transferBetweenBalances',
        'createWithdrawal',
        'transferToSubAccount',
        'createCode',
        'applyCode',
      ]),
    );
  });

  it('a transfer from main must lower the main balance and raise spot by the amount, to the last digit', () => {
    const exchange = transfer('main', 'spot');
    const mainChanges = changesOf('sourceBalanceAfterTransfer');
    const spotChanges = changesOf('spotBalanceAfterTransfer');
    expect(expectedMove(mainChanges, exchange)).toBe('-50');
    expect(expectedMove(spotChanges, exchange)).toBe('50');
    expect(
      moveProblem(mainChanges, exchange, { before: main('100.5'), after: main('50.50') }, '-50'),
    ).toBeUndefined();
    expect(
      moveProblem(spotChanges, exchange, { before: spot('0'), after: spot('50') }, '50'),
    ).toBeUndefined();
    // Not moved, moved the wrong way, moved by a hair less.
    expect(moveProblem(mainChanges, exchange, { before: main('100.5'), after: main('100.5') }, '-50')).toBe(
      '/main_balance went from 100.5 to 100.5: moved 0, expected -50',
    );
    expect(moveProblem(spotChanges, exchange, { before: spot('60'), after: spot('10') }, '50')).toBe(
      '/USDT/available went from 60 to 10: moved -50, expected 50',
    );
    expect(
      moveProblem(spotChanges, exchange, { before: spot('0'), after: spot('49.99999999') }, '50'),
    ).toMatch(/moved 49.99999999, expected 50$/);
  });

  it('a transfer between two other balances must leave the main balance as it was', () => {
    const exchange = transfer('spot', 'collateral');
    const mainChanges = changesOf('sourceBalanceAfterTransfer');
    expect(expectedMove(mainChanges, exchange)).toBe('0');
    expect(moveProblem(mainChanges, exchange, { before: main('7'), after: main('-43') }, '0')).toBe(
      '/main_balance went from 7 to -43: moved -50, expected 0',
    );
  });

  it('a balance the answer does not show fails, unless the declaration says what absent means', () => {
    const exchange = transfer('main', 'spot');
    expect(
      moveProblem(changesOf('spotBalanceAfterTransfer'), exchange, { before: {}, after: spot('50') }, '50'),
    ).toBe('before the call: no decimal at /USDT/available (undefined)');
    const applied = { request: { code: 'x' }, response: { ticker: 'ETH', amount: '0.5' } };
    const applyChanges = changesOf('balanceAfterApply');
    expect(expectedMove(applyChanges, applied)).toBe('0.5');
    expect(
      moveProblem(applyChanges, applied, { before: {}, after: { ETH: main('0.5') } }, '0.5'),
    ).toBeUndefined();
  });

  it('names what is wrong with a declaration', () => {
    expect(changesProblems({ at: 'main_balance', by: 3, down: 'main' })).toEqual([
      'at is not a JSON pointer',
      'by is not a runtime expression',
      'down is not a list of field values',
    ]);
    expect(changesProblems({ at: '/x', by: '$request.body#/amount', absent: 0 })).toEqual([
      'neither down nor up is given',
      'absent is not a decimal string',
    ]);
  });
});

/** Whether a link declares `changes` at all. */
function declaresChanges(name: string): boolean {
  try {
    changesOf(name);
    return true;
  } catch {
    return false;
  }
}
