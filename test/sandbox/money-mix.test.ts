// 500 concurrent money moves of every kind the wallet has, through the real client, on one account
// and the accounts it trades money with: moves between the main, spot and collateral balances,
// withdrawals (some sent twice with one uniqueId), codes made and applied (some applied twice, by
// another account and by this one), fixed investments, moves to and from sub-accounts, many of
// them refused for balance. Afterwards every balance reconciles to the last digit with the test's
// own arithmetic over the accepted answers (decimal strings into exact units, never Number), read
// back through the API: the main, spot and collateral balances, the other account's main balance,
// the sub-accounts' balances, the withdrawal history with each fee, the codes lists, the investment
// history, the sub-account transfer history; and the sandbox's ledger still balances, its houses
// holding exactly what the accepted calls put there.
//
// No timing: the latch in the client's transport (./burst.ts) makes the calls overlap, and the
// clock is a fake one shared by the clients' nonces and the sandbox, stepped between phases.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationId } from '../../generated/operations.ts';
import type { House } from '../../sandbox/ledger.ts';
import { withdrawalProcessingMs } from '../../sandbox/wallet.ts';
import { timeLimits } from '../../scripts/time-limits.ts';
import { createPrivateClient, type PrivateClient, unwrap } from '../../src/index.ts';
import { createDefaultTransport } from '../../src/transport/undici.ts';
import { latchedTransport, loadSuite, type Outcome, outcome } from './burst.ts';
import {
  actionType,
  decimalText,
  defaultFixture,
  documentOf,
  ordinaryKey,
  partnerKey,
  present,
  units,
  withoutCollateralSeeds,
} from './helpers.ts';

const fixture = withoutCollateralSeeds(defaultFixture(), partnerKey(defaultFixture()).account);
const key = partnerKey(fixture);
const account = present(
  fixture.accounts.find((candidate) => candidate.id === key.account),
  'the partner key’s account',
);
// Each balance smaller than what the calls on it ask for together, so that some are refused; ETH
// only for the withdrawals sent twice, which it always covers: exactly one of each pair is taken.
account.mainBalances = { USDT: '3000', BTC: '0.5', ETH: '10' };
account.tradeBalances = { USDT: '2000', BTC: '0.3' };
account.openOrders = (account.openOrders ?? []).filter((order) => (order.kind ?? 'spot') !== 'spot');
account.collateralBalances = [
  {
    asset: 'USDT',
    balance: '1500',
    borrow: '0',
    availableWithoutBorrow: '1500',
    availableWithBorrow: '1500',
  },
];
// The other account, which makes codes this one applies and applies codes this one makes: a key of
// its own (the client keeps one nonce sequence per key for the whole process).
const other = {
  ...ordinaryKey(fixture),
  apiKey: randomBytes(16).toString('hex'),
  secret: randomBytes(32).toString('hex'),
};
fixture.keys.push(other);
const subAccounts = ['8e667b4a-0b71-4988-8af5-9474dbfaeb51', '3c2b1a0f-9e8d-4c7b-8a6f-5e4d3c2b1a0f'];
const plans = { USDT: '7b6e1c1a-3f1d-4c59-9a52-3c2a8f1e0d4b', BTC: '2c0c5d83-5e68-4f9f-85ae-95be072af73f' };
const tickers = ['USDT', 'BTC', 'ETH'] as const;
const balances = ['main', 'spot', 'collateral'] as const;
type Ticker = (typeof tickers)[number];
type Balance = (typeof balances)[number];

// After the fixture's own pending withdrawal is done, so that only this test's move the fee house.
const suite = loadSuite(fixture, key, Date.UTC(2024, 0, 2));
let otherClient: PrivateClient | undefined;
beforeAll(() => {
  otherClient = createPrivateClient({
    apiKey: other.apiKey,
    apiSecret: other.secret,
    baseUrl: suite.sandbox.url,
    nonceWindow: true,
    clock: () => suite.clock.now,
    transport: latchedTransport(createDefaultTransport()),
  });
});
afterAll(async () => {
  await otherClient?.close();
});
const otherOf = () => present(otherClient, 'the other account’s client');

/** Exact sums in units, by name: the test's own books. */
class Books {
  readonly #amounts = new Map<string, bigint>();
  add(name: string, amount: bigint) {
    this.#amounts.set(name, this.get(name) + amount);
  }
  get(name: string): bigint {
    return this.#amounts.get(name) ?? 0n;
  }
}

/** A withdrawal's fee by the fixture's rules, the test's own arithmetic: USDT 0.1 % held between 1 and 20, rounded up to 6 decimals; BTC 0.0004; ETH 0.002. */
function feeOf(ticker: Ticker, amount: string): bigint {
  if (ticker === 'BTC') return units('0.0004');
  if (ticker === 'ETH') return units('0.002');
  const step = units('0.000001');
  const flex = ((units(amount) / 1000n + step - 1n) / step) * step;
  return flex < units('1') ? units('1') : flex > units('20') ? units('20') : flex;
}

const refusal = (operationId: OperationId, name: string) => documentOf(operationId).example(name);

/**
 * Whether a refusal is the operation's refusal for balance: its example's status, code, message
 * and fields (the wording carries the figures of the moment, which a burst cannot know).
 */
function refusedForBalance(operationId: OperationId, result: Outcome): boolean {
  const { status, value } = refusal(operationId, 'notEnoughBalance');
  const expected = value as { code: number; message: string; errors: object };
  const body = result.body as { code?: number; message?: string; errors?: object };
  return (
    result.status === status &&
    body.code === expected.code &&
    body.message === expected.message &&
    JSON.stringify(Object.keys(body.errors ?? {})) === JSON.stringify(Object.keys(expected.errors))
  );
}

type Move =
  | { kind: 'transfer'; ticker: Ticker; amount: string; from: Balance; to: Balance }
  | {
      kind: 'withdraw';
      operationId: 'createWithdrawal' | 'createWithdrawalPay';
      ticker: Ticker;
      amount: string;
      uniqueId: string;
      twice: boolean;
    }
  | { kind: 'createCode'; ticker: Ticker; amount: string }
  | { kind: 'applyCode'; by: 'this' | 'other'; code: string; ticker: Ticker; amount: string }
  | { kind: 'invest'; ticker: 'USDT' | 'BTC'; amount: string }
  | { kind: 'sub'; id: string; direction: 'main_to_sub' | 'sub_to_main'; ticker: Ticker; amount: string };

describe('500 concurrent money moves of every kind', { timeout: timeLimits.processTestMs }, () => {
  it('reconcile to the last digit in every balance, every history and the ledger', async () => {
    const { client, sandbox } = suite;
    const { ledger } = sandbox.state;
    const houseOf = (name: House, ticker: string) => units(ledger.house(name, ticker));

    // Codes made before the burst, to be applied during it: the other account's by this one, and
    // this one's by the other account.
    type Made = { code: string; ticker: Ticker; amount: string };
    const makeCode = async (made: PrivateClient, ticker: Ticker, amount: string): Promise<Made> => {
      const body = (await unwrap(made.POST('/api/v4/main-account/codes', { body: { ticker, amount } }))) as {
        code: string;
      };
      return { code: body.code, ticker, amount };
    };
    const othersCodes: Made[] = [];
    for (let i = 0; i < 25; i++) othersCodes.push(await makeCode(otherOf(), 'USDT', `${4 + (i % 5)}.25`));
    const ownCodes: Made[] = [];
    for (let i = 0; i < 15; i++)
      ownCodes.push(
        await makeCode(client, i % 2 ? 'BTC' : 'USDT', i % 2 ? `0.00${1 + (i % 9)}` : `${10 + i}`),
      );
    suite.step();

    // Everything before, read through the API; the houses from the ledger.
    const mainOf = async (caller: PrivateClient) =>
      (await unwrap(caller.POST('/api/v4/main-account/balance', { body: {} }))) as Record<
        string,
        { main_balance: string }
      >;
    const read = async () => {
      const books = new Books();
      for (const [ticker, { main_balance }] of Object.entries(await mainOf(client)))
        books.add(`main ${ticker}`, units(main_balance));
      const spot = (await unwrap(client.POST('/api/v4/trade-account/balance', { body: {} }))) as Record<
        string,
        { available: string; freeze: string }
      >;
      for (const [ticker, { available, freeze }] of Object.entries(spot)) {
        books.add(`spot ${ticker}`, units(available));
        books.add(`frozen ${ticker}`, units(freeze));
      }
      const collateral = (await unwrap(
        client.POST('/api/v4/collateral-account/balance', { body: {} }),
      )) as Record<string, string>;
      for (const [ticker, amount] of Object.entries(collateral))
        books.add(`collateral ${ticker}`, units(amount));
      for (const [ticker, { main_balance }] of Object.entries(await mainOf(otherOf())))
        books.add(`other ${ticker}`, units(main_balance));
      for (const id of subAccounts) {
        const held = (await unwrap(client.POST('/api/v4/sub-account/balances', { body: { id } }))) as Record<
          string,
          { main: string }[]
        >;
        for (const ticker of tickers) books.add(`sub ${id} ${ticker}`, units(held[ticker]?.[0]?.main ?? '0'));
      }
      for (const ticker of tickers)
        for (const name of ['codes', 'lending', 'fees', 'withdrawals'] as const)
          books.add(`${name} ${ticker}`, houseOf(name, ticker));
      return books;
    };
    const before = await read();
    suite.step();

    // The mix, seeded.
    let seed = 20261126;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const below = (n: number) => Math.floor(next() * n);
    const moves: Move[] = [];
    for (let i = 0; i < 10; i++) {
      const withdrawal = {
        kind: 'withdraw',
        operationId: i % 2 ? 'createWithdrawalPay' : 'createWithdrawal',
        ticker: 'ETH',
        amount: `0.${1 + below(9)}`,
        uniqueId: `mix-twice-${i}`,
        twice: true,
      } as const;
      moves.push(withdrawal, withdrawal);
    }
    // Every third code applied twice at once, as a repeat would be: the first taken, the second refused.
    othersCodes.forEach((made, i) => {
      for (let times = i % 3 === 0 ? 2 : 1; times > 0; times--)
        moves.push({ kind: 'applyCode', by: 'this', ...made });
    });
    ownCodes.forEach((made, i) => {
      for (let times = i % 3 === 0 ? 2 : 1; times > 0; times--)
        moves.push({ kind: 'applyCode', by: 'other', ...made });
    });
    const pickTicker = (): 'USDT' | 'BTC' => (next() < 0.6 ? 'USDT' : 'BTC');
    const small = (ticker: 'USDT' | 'BTC', usdt: () => string, btc: () => string) =>
      ticker === 'USDT' ? usdt() : btc();
    for (let i = 0; i < 90; i++) {
      const ticker = pickTicker();
      moves.push({
        kind: 'withdraw',
        operationId: next() < 0.5 ? 'createWithdrawal' : 'createWithdrawalPay',
        ticker,
        amount: small(
          ticker,
          () => `${20 + below(180)}`,
          () => `0.0${2 + below(8)}`,
        ),
        uniqueId: `mix-${i}`,
        twice: false,
      });
    }
    for (let i = 0; i < 40; i++) {
      const ticker = pickTicker();
      moves.push({
        kind: 'createCode',
        ticker,
        amount: small(
          ticker,
          () => `${5 + below(45)}.5`,
          () => `0.00${1 + below(9)}`,
        ),
      });
    }
    for (let i = 0; i < 50; i++) {
      const ticker = pickTicker();
      moves.push({
        kind: 'invest',
        ticker,
        amount: small(
          ticker,
          () => `${10 + below(50)}`,
          () => `0.0${1 + below(5)}`,
        ),
      });
    }
    for (let i = 0; i < 60; i++) {
      const ticker = pickTicker();
      moves.push({
        kind: 'sub',
        id: subAccounts[below(2)] as string,
        direction: next() < 0.6 ? 'main_to_sub' : 'sub_to_main',
        ticker,
        amount: small(
          ticker,
          () => `${5 + below(45)}`,
          () => `0.00${5 + below(5)}`,
        ),
      });
    }
    while (moves.length < 500) {
      const ticker = pickTicker();
      const from = balances[below(3)] as Balance;
      const to = balances.filter((name) => name !== from)[below(2)] as Balance;
      moves.push({
        kind: 'transfer',
        ticker,
        amount: small(
          ticker,
          () => `${10 + below(90)}.5`,
          () => `0.0${1 + below(9)}`,
        ),
        from,
        to,
      });
    }

    // Mixed in one seeded order: the calls reach the sandbox roughly in the order they start.
    for (let i = moves.length - 1; i > 0; i--) {
      const j = below(i + 1);
      [moves[i], moves[j]] = [moves[j] as Move, moves[i] as Move];
    }

    const start = (move: Move): Promise<Outcome> => {
      switch (move.kind) {
        case 'transfer': {
          const { ticker, amount, from, to } = move;
          return client
            .POST('/api/v4/main-account/transfer', { body: { ticker, amount, from, to } })
            .then(outcome(move.kind));
        }
        case 'withdraw': {
          const path =
            move.operationId === 'createWithdrawal'
              ? '/api/v4/main-account/withdraw'
              : '/api/v4/main-account/withdraw-pay';
          const body = {
            ticker: move.ticker,
            amount: move.amount,
            address: 'mix-address',
            uniqueId: move.uniqueId,
          };
          return client.POST(path, { body }).then(outcome(move.kind));
        }
        case 'createCode':
          return client
            .POST('/api/v4/main-account/codes', { body: { ticker: move.ticker, amount: move.amount } })
            .then(outcome(move.kind));
        case 'applyCode':
          return (move.by === 'this' ? client : otherOf())
            .POST('/api/v4/main-account/codes/apply', { body: { code: move.code } })
            .then(outcome(move.kind));
        case 'invest':
          return client
            .POST('/api/v4/main-account/smart/investment', {
              body: { planId: plans[move.ticker], amount: move.amount },
            })
            .then(outcome(move.kind));
        case 'sub': {
          const { id, direction, ticker, amount } = move;
          return client
            .POST('/api/v4/sub-account/transfer', { body: { id, direction, ticker, amount } })
            .then(outcome(move.kind));
        }
      }
    };
    const results = await suite.burst(moves.map((move) => () => start(move)));

    // The test's own books: the start, and each accepted answer's move; each refusal is one for
    // balance, or the second of a pair (a uniqueId taken, a code applied).
    const expected = new Books();
    const counted = ['main', 'spot', 'frozen', 'collateral', 'other', 'codes', 'lending'];
    for (const ticker of tickers) {
      for (const name of counted) expected.add(`${name} ${ticker}`, before.get(`${name} ${ticker}`));
      for (const id of subAccounts) expected.add(`sub ${id} ${ticker}`, before.get(`sub ${id} ${ticker}`));
    }
    const charged = new Books();
    const accepted = {
      withdrawals: [] as Extract<Move, { kind: 'withdraw' }>[],
      codes: [] as Made[],
      applied: [] as Extract<Move, { kind: 'applyCode' }>[],
      investments: [] as { id: string; ticker: string; amount: string }[],
      subTransfers: [] as (Extract<Move, { kind: 'sub' }> & { transactionId: string })[],
    };
    const refusedForBalanceBy = new Books();
    const acceptedBy = new Books();
    moves.forEach((move, i) => {
      const result = present(results[i], `the answer of call ${i}`);
      const amount = 'amount' in move ? units(move.amount) : 0n;
      if (result.status !== 200) {
        const operationId: OperationId =
          move.kind === 'transfer'
            ? 'transferBetweenBalances'
            : move.kind === 'withdraw'
              ? move.operationId
              : move.kind === 'invest'
                ? 'createFixedInvestment'
                : move.kind === 'sub'
                  ? 'transferToSubAccount'
                  : move.kind;
        if (move.kind !== 'applyCode' && refusedForBalance(operationId, result)) {
          refusedForBalanceBy.add(move.kind, 1n);
          return;
        }
        // The second of a pair: its documented refusal, whole.
        const second = move.kind === 'applyCode' ? 'codeAlreadyApplied' : 'duplicateUniqueId';
        expect(
          move.kind === 'applyCode' || (move.kind === 'withdraw' && move.twice),
          JSON.stringify(result),
        ).toBe(true);
        expect(JSON.stringify(result.body), JSON.stringify(move)).toBe(
          JSON.stringify(refusal(operationId, second).value),
        );
        return;
      }
      acceptedBy.add(move.kind, 1n);
      switch (move.kind) {
        case 'transfer':
          expected.add(`${move.from} ${move.ticker}`, -amount);
          expected.add(`${move.to} ${move.ticker}`, amount);
          return;
        case 'withdraw': {
          const fee = feeOf(move.ticker, move.amount);
          expected.add(
            `main ${move.ticker}`,
            -(amount + (move.operationId === 'createWithdrawalPay' ? fee : 0n)),
          );
          charged.add(move.ticker, fee);
          accepted.withdrawals.push(move);
          return;
        }
        case 'createCode':
          expected.add(`main ${move.ticker}`, -amount);
          expected.add(`codes ${move.ticker}`, amount);
          accepted.codes.push({ ...move, code: (result.body as { code: string }).code });
          return;
        case 'applyCode':
          expected.add(`${move.by === 'this' ? 'main' : 'other'} ${move.ticker}`, amount);
          expected.add(`codes ${move.ticker}`, -amount);
          accepted.applied.push(move);
          return;
        case 'invest':
          expected.add(`main ${move.ticker}`, -amount);
          expected.add(`lending ${move.ticker}`, amount);
          accepted.investments.push({ ...move, id: (result.body as { id: string }).id });
          return;
        case 'sub': {
          const toSub = move.direction === 'main_to_sub' ? amount : -amount;
          expected.add(`main ${move.ticker}`, -toSub);
          expected.add(`sub ${move.id} ${move.ticker}`, toSub);
          accepted.subTransfers.push({
            ...move,
            transactionId: (result.body as { transaction_id: string }).transaction_id,
          });
          return;
        }
      }
    });
    // Every kind had calls taken and calls refused for balance; each pair was taken exactly once.
    for (const kind of ['transfer', 'withdraw', 'createCode', 'invest', 'sub']) {
      expect(acceptedBy.get(kind), kind).toBeGreaterThan(0n);
      expect(refusedForBalanceBy.get(kind), kind).toBeGreaterThan(0n);
    }
    for (let i = 0; i < 10; i++)
      expect(accepted.withdrawals.filter((sent) => sent.uniqueId === `mix-twice-${i}`)).toHaveLength(1);
    for (const made of [...othersCodes, ...ownCodes])
      expect(
        accepted.applied.filter((move) => move.code === made.code),
        made.code,
      ).toHaveLength(1);

    // Every balance, read back, is the test's own figure, to the last digit.
    const after = await read();
    for (const ticker of tickers) {
      for (const name of [...counted, ...subAccounts.map((id) => `sub ${id}`)]) {
        const place = `${name} ${ticker}`;
        expect(decimalText(after.get(place)), place).toBe(decimalText(expected.get(place)));
      }
    }

    // The withdrawal history: each taken withdrawal once, pending, with its amount and its fee.
    type HistoryRecord = {
      unique_id: string | null;
      ticker: string;
      amount: string;
      fee: string;
      status: number;
    };
    const withdrawals = async () =>
      (
        (await unwrap(
          client.POST('/api/v4/main-account/history', { body: { transactionMethod: 2, limit: 500 } }),
        )) as { records: HistoryRecord[] }
      ).records.filter((row) => row.unique_id?.startsWith('mix-'));
    const statuses = documentOf('listDepositWithdrawalHistory').object['x-transaction-statuses'] as Record<
      string,
      Record<string, number[]>
    >;
    const rows = await withdrawals();
    expect(rows.map((row) => row.unique_id).sort()).toEqual(
      accepted.withdrawals.map((sent) => sent.uniqueId).sort(),
    );
    for (const sent of accepted.withdrawals) {
      const row = present(
        rows.find((candidate) => candidate.unique_id === sent.uniqueId),
        sent.uniqueId,
      );
      expect(row, sent.uniqueId).toMatchObject({
        ticker: sent.ticker,
        status: statuses.withdrawal?.pending?.[0],
      });
      expect(units(row.amount), sent.uniqueId).toBe(units(sent.amount));
      expect(units(row.fee), sent.uniqueId).toBe(feeOf(sent.ticker, sent.amount));
    }

    // The codes: each made in the burst once in this account's list, still open; each applied
    // once in the history of the account that applied it, and applied in its maker's list.
    const codeStatuses = documentOf('listMyCodes').object['x-code-statuses'] as {
      open: string;
      applied: string;
    };
    type CodeRow = { code: string; ticker: string; amount: string; status: string };
    const codesOf = async (
      caller: PrivateClient,
      path: '/api/v4/main-account/codes/my' | '/api/v4/main-account/codes/history',
    ) => ((await unwrap(caller.POST(path, { body: { limit: 100 } }))) as { data: CodeRow[] }).data;
    const mine = await codesOf(client, '/api/v4/main-account/codes/my');
    for (const made of accepted.codes) {
      const listed = mine.filter((row) => row.code === made.code);
      expect(listed, made.code).toHaveLength(1);
      expect(units(listed[0]?.amount ?? '0')).toBe(units(made.amount));
      expect(listed[0]?.status).toBe(codeStatuses.open);
    }
    for (const made of ownCodes)
      expect(mine.find((row) => row.code === made.code)?.status, made.code).toBe(codeStatuses.applied);
    for (const [caller, by] of [
      [client, 'this'],
      [otherOf(), 'other'],
    ] as const) {
      const history = await codesOf(caller, '/api/v4/main-account/codes/history');
      for (const move of accepted.applied.filter((applied) => applied.by === by)) {
        const listed = history.filter((row) => row.code === move.code && row.amount.startsWith('+'));
        expect(listed, move.code).toHaveLength(1);
        expect(units(listed[0]?.amount.slice(1) ?? '0')).toBe(units(move.amount));
      }
    }

    // The investments: each once in the history as an investment, with its amount.
    type InvestmentRow = { investmentId: string; currency: string; amount: string };
    const invested = (
      (await unwrap(
        client.POST('/api/v4/main-account/smart-flex/investments/history', {
          body: { actionTypes: [actionType.INVEST], limit: 500 },
        }),
      )) as { data: InvestmentRow[] }
    ).data;
    for (const investment of accepted.investments) {
      const listed = invested.filter((row) => row.investmentId === investment.id);
      expect(listed, investment.id).toHaveLength(1);
      expect(listed[0]?.currency).toBe(investment.ticker);
      expect(units(listed[0]?.amount ?? '0')).toBe(units(investment.amount));
    }

    // The sub-account transfers: each once in its sub-account's history, with its direction and amount.
    for (const id of subAccounts) {
      type TransferRow = { transaction_id: string; direction: string; currency: string; amount: string };
      const history = (
        (await unwrap(client.POST('/api/v4/sub-account/transfer/history', { body: { id, limit: 100 } }))) as {
          data: TransferRow[];
        }
      ).data;
      const taken = accepted.subTransfers.filter((move) => move.id === id);
      for (const move of taken) {
        const listed = history.filter((row) => row.transaction_id === move.transactionId);
        expect(listed, move.transactionId).toHaveLength(1);
        expect(listed[0]).toMatchObject({ direction: move.direction, currency: move.ticker });
        expect(units(listed[0]?.amount ?? '0')).toBe(units(move.amount));
      }
    }

    // Once the clock passes them, every withdrawal is done: exactly the fees the test charged in
    // the fee account, nothing left on its way out, and the ledger balanced.
    suite.clock.now += withdrawalProcessingMs;
    for (const row of await withdrawals())
      expect(row.status, String(row.unique_id)).toBe(statuses.withdrawal?.successful?.[0]);
    for (const ticker of tickers) {
      expect(decimalText(houseOf('fees', ticker) - before.get(`fees ${ticker}`)), ticker).toBe(
        decimalText(charged.get(ticker)),
      );
      expect(houseOf('withdrawals', ticker), ticker).toBe(before.get(`withdrawals ${ticker}`));
    }
    expect(ledger.imbalance(sandbox.state.accounts.values())).toEqual({});
  });
});
