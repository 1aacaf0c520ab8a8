// The money-moving core of the account side, against the sandbox: moves between the main, spot
// and collateral balances show in both; a withdrawal leaves the main balance at once, is pending
// on the sandbox's clock and then done, in the history with its fee; a repeated uniqueId is
// refused as the operator documents it; a deposit arrives through the control and shows in the
// history and the balance; and a burst of 300 concurrent transfers and withdrawals through the
// real client leaves every balance reconciled with the accepted calls, and the ledger balanced.
// Amounts are checked with the tests' own arithmetic (helpers.ts), never the sandbox's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationId } from '../../generated/operations.ts';
import type { WalletHistoryRecord } from '../../sandbox/api-types.ts';
import { controlLines } from '../../sandbox/control.ts';
import { fillTemplate } from '../../sandbox/document.ts';
import type { Fixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { withdrawalProcessingMs } from '../../sandbox/wallet.ts';
import { timeLimits } from '../../scripts/time-limits.ts';
import { unwrap } from '../../src/index.ts';
import { loadSuite, type Outcome, outcome } from './burst.ts';
import {
  call,
  decimalText,
  defaultFixture,
  documentOf,
  partnerKey,
  present,
  refusalOf,
  units,
  withoutCollateralSeeds,
} from './helpers.ts';

type Balances = Record<string, bigint>;

const history = documentOf('listDepositWithdrawalHistory');
const statuses = history.object['x-transaction-statuses'] as Record<string, Record<string, number[]>>;
const code = (method: 'deposit' | 'withdrawal', state: string) => statuses[method]?.[state]?.[0];
const example = (operationId: OperationId, name: string) => documentOf(operationId).example(name);

/** A sandbox of its own for a suite, on a fake clock, strict. */
function sandboxFor(fixture: Fixture) {
  const clock = { now: Date.UTC(2024, 0, 1) };
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, strict: true, fixture, clock: () => clock.now });
  });
  afterAll(async () => {
    await sandbox?.close();
    expect(sandbox?.violations).toEqual([]);
  });
  return {
    clock,
    get sandbox() {
      if (!sandbox) throw new Error('the sandbox starts in beforeAll');
      return sandbox;
    },
  };
}

describe('moves between balances, withdrawals and deposits', () => {
  const fixture = defaultFixture();
  const key = partnerKey(fixture);
  const suite = sandboxFor(fixture);
  const send = <Id extends OperationId>(operationId: Id, fields: Record<string, unknown>) =>
    call(suite.sandbox.url, key, operationId, { fields });
  const mainOf = async (ticker: string) =>
    units((await send('getMainBalance', { ticker })).body.main_balance as string);
  const spotOf = async (ticker: string) => {
    const { available, freeze } = present((await send('getTradeBalance', { ticker })).body[ticker], ticker);
    return { available: units(available), freeze: units(freeze) };
  };
  const collateralOf = async (ticker: string) =>
    units(((await send('getCollateralBalance', { ticker })).body as Record<string, string>)[ticker] ?? '0');
  const records = async (fields: Record<string, unknown> = {}) => {
    const reply = await send('listDepositWithdrawalHistory', fields);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return reply.body.records as WalletHistoryRecord[];
  };

  it('a move from main to spot and back shows in both balances, by from/to and by method', async () => {
    const [main, spot] = [await mainOf('USDT'), await spotOf('USDT')];
    const there = await send('transferBetweenBalances', {
      ticker: 'USDT',
      amount: '120.5',
      from: 'main',
      to: 'spot',
    });
    expect(there).toMatchObject({ status: 201, body: [] });
    expect(await mainOf('USDT')).toBe(main - units('120.5'));
    expect(await spotOf('USDT')).toEqual({ available: spot.available + units('120.5'), freeze: spot.freeze });
    const back = await send('transferBetweenBalances', {
      ticker: 'USDT',
      amount: '20.5',
      method: 'withdraw',
    });
    expect(back.status, JSON.stringify(back.body)).toBe(201);
    expect(await mainOf('USDT')).toBe(main - units('100'));
    expect((await spotOf('USDT')).available).toBe(spot.available + units('100'));
  });

  it('a move into and out of the collateral balance shows there and in the other balance', async () => {
    const [spot, collateral, main] = [await spotOf('BTC'), await collateralOf('BTC'), await mainOf('BTC')];
    expect(
      (
        await send('transferBetweenBalances', {
          ticker: 'BTC',
          amount: '0.3',
          from: 'spot',
          to: 'collateral',
        })
      ).status,
    ).toBe(201);
    expect((await spotOf('BTC')).available).toBe(spot.available - units('0.3'));
    expect(await collateralOf('BTC')).toBe(collateral + units('0.3'));
    expect(
      (await send('transferBetweenBalances', { ticker: 'BTC', amount: '0.2', method: 'collateral-withdraw' }))
        .status,
    ).toBe(201);
    expect(await collateralOf('BTC')).toBe(collateral + units('0.1'));
    expect(await mainOf('BTC')).toBe(main + units('0.2'));
  });

  it('refuses a move as documented, and moves nothing', async () => {
    const before = suite.sandbox.state.snapshot();
    const same = await send('transferBetweenBalances', {
      ticker: 'USDT',
      amount: '1',
      from: 'spot',
      to: 'spot',
    });
    expect(same.body).toEqual(example('transferBetweenBalances', 'sameFromTo').value);
    const small = await send('transferBetweenBalances', {
      ticker: 'USDT',
      amount: '0.000000001',
      from: 'main',
      to: 'spot',
    });
    expect(small.body).toEqual(example('transferBetweenBalances', 'amountTooSmall').value);
    const main = decimalText(await mainOf('USDT'));
    const much = await send('transferBetweenBalances', {
      ticker: 'USDT',
      amount: '99999999',
      from: 'main',
      to: 'spot',
    });
    const notEnough = example('transferBetweenBalances', 'notEnoughBalance');
    expect(much.status).toBe(notEnough.status);
    expect(much.body).toEqual({
      ...(notEnough.value as object),
      errors: {
        amount: [
          fillTemplate(documentOf('transferBetweenBalances').message('notEnoughBalance'), {
            available: main,
            amount: '99999999',
          }),
        ],
      },
    });
    const half = await send('transferBetweenBalances', { ticker: 'USDT', amount: '1', from: 'main' });
    expect(refusalOf(half).errors).toEqual({ to: ['The to field is required.'] });
    const neither = await send('transferBetweenBalances', { ticker: 'USDT', amount: '1' });
    expect(neither.body).toEqual({
      ...(example('transferBetweenBalances', 'missingFields').value as object),
      errors: { method: ['The method field is required.'] },
    });
    expect(suite.sandbox.state.snapshot()).toEqual(before);
  });

  it('a withdrawal leaves the main balance at once, is pending on the clock, then done, with its fee', async () => {
    const main = await mainOf('USDT');
    const fees = units(suite.sandbox.state.ledger.house('fees', 'USDT'));
    const body = {
      ticker: 'USDT',
      amount: '2500',
      address: 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC',
      network: 'TRC20',
      uniqueId: 'states-1',
    };
    expect(await send('createWithdrawal', body)).toMatchObject({ status: 201, body: [] });
    // The fee: 0.1 % of 2500, between 1 and 20 (the fixture's rule).
    const fee = '2.5';
    expect(await mainOf('USDT')).toBe(main - units('2500'));
    const [pending] = await records({ unique_id: 'states-1' });
    expect(pending).toMatchObject({
      unique_id: 'states-1',
      method: 2,
      ticker: 'USDT',
      amount: '2500',
      fee,
      status: code('withdrawal', 'pending'),
      address: body.address,
      network: 'TRC20',
    });
    // Not yet: a second before its time it is still pending.
    suite.clock.now += withdrawalProcessingMs - 1000;
    expect((await records({ unique_id: 'states-1' }))[0]?.status).toBe(code('withdrawal', 'pending'));
    expect(units(suite.sandbox.state.ledger.house('fees', 'USDT'))).toBe(fees);
    suite.clock.now += 1000;
    const [done] = await records({ unique_id: 'states-1', transactionMethod: 2, status: [3, 7] });
    expect(done).toMatchObject({ unique_id: 'states-1', status: code('withdrawal', 'successful'), fee });
    expect(units(suite.sandbox.state.ledger.house('fees', 'USDT'))).toBe(fees + units(fee));
    expect(await mainOf('USDT')).toBe(main - units('2500'));
  });

  it('a withdrawal with the fee on top gives the address the whole amount and costs amount plus fee', async () => {
    const main = await mainOf('BTC');
    const reply = await send('createWithdrawalPay', {
      ticker: 'BTC',
      amount: '0.1',
      address: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
      uniqueId: 'on-top-1',
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(await mainOf('BTC')).toBe(main - units('0.1') - units('0.0004'));
    const [row] = await records({ unique_id: 'on-top-1' });
    expect(row).toMatchObject({ amount: '0.1', fee: '0.0004', network: 'BTC' });
  });

  it('a repeated uniqueId is refused as documented, by either withdrawal, and withdraws once', async () => {
    const body = {
      ticker: 'USDT',
      amount: '50',
      address: 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC',
      uniqueId: 'twice-1',
    };
    const main = await mainOf('USDT');
    expect((await send('createWithdrawal', body)).status).toBe(201);
    const refused = example('createWithdrawal', 'duplicateUniqueId');
    const again = await send('createWithdrawal', body);
    expect({ status: again.status, body: again.body }).toEqual({
      status: refused.status,
      body: refused.value,
    });
    const other = await send('createWithdrawalPay', body);
    expect(other.body).toEqual(refused.value);
    expect(await mainOf('USDT')).toBe(main - units('50'));
    expect(await records({ unique_id: 'twice-1' })).toHaveLength(1);
    // The fixture's seeded withdrawal took its uniqueId too.
    const seeded = await send('createWithdrawal', { ...body, uniqueId: 'seeded-payout-0001' });
    expect(seeded.body).toEqual(refused.value);
  });

  it('refuses a withdrawal the balance, the fee or the minimum does not allow, with the real figures', async () => {
    const before = suite.sandbox.state.snapshot();
    const base = { address: 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC', uniqueId: 'refused-1' };
    const atFee = await send('createWithdrawal', { ...base, ticker: 'USDT', amount: '1' });
    expect(atFee.body).toEqual(example('createWithdrawal', 'amountNotAboveFee').value);
    const belowMinimum = await send('createWithdrawal', { ...base, ticker: 'USDT', amount: '4.99' });
    expect(belowMinimum.body).toEqual(example('createWithdrawal', 'amountBelowWithdrawalMinimum').value);
    const main = decimalText(await mainOf('USDT'));
    const much = await send('createWithdrawalPay', { ...base, ticker: 'USDT', amount: main });
    expect(much.status).toBe(example('createWithdrawalPay', 'notEnoughBalance').status);
    expect(refusalOf(much).errors).toEqual({ amount: [`Not enough money, Tether US balance = ${main}`] });
    const unknown = await send('createWithdrawal', { ...base, ticker: 'NOSUCHCOIN', amount: '10' });
    expect(unknown.body).toEqual(example('createWithdrawal', 'unknownTicker').value);
    expect(suite.sandbox.state.snapshot()).toEqual(before);
  });

  it('a deposit through the control arrives at the account’s address, in the history and the balance', async () => {
    const main = await mainOf('ETH');
    const address = await send('getDepositAddress', { ticker: 'ETH' });
    expect(address.status).toBe(200);
    expect(address.body.required).toMatchObject({ fixedFee: '0.0005', minAmount: '0.001' });
    const response = await fetch(`${suite.sandbox.url}/sandbox/deposit`, {
      method: 'POST',
      body: JSON.stringify({ ticker: 'ETH', amount: '1.5', address: address.body.account.address }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ account: key.account, credited: '1.4995', network: 'ETH' });
    expect(await mainOf('ETH')).toBe(main + units('1.4995'));
    const [row] = await records({ transactionMethod: 1, ticker: 'ETH' });
    expect(row).toMatchObject({
      method: 1,
      amount: '1.5',
      fee: '0.0005',
      status: code('deposit', 'successful'),
      address: address.body.account.address,
      unique_id: null,
      confirmations: { actual: 20, required: 20 },
    });
    // The same address until a new one is made; a new one is another.
    expect((await send('getDepositAddress', { ticker: 'ETH' })).body.account.address).toBe(
      address.body.account.address,
    );
    const made = await send('createDepositAddress', { ticker: 'ETH' });
    expect(made.status).toBe(201);
    expect(made.body.account.address).not.toBe(address.body.account.address);
    expect((await send('getDepositAddress', { ticker: 'ETH' })).body.account.address).toBe(
      made.body.account.address,
    );
  });

  it('the control says it takes deposits, in its start-up lines and its own answer', async () => {
    expect(controlLines(suite.sandbox.url).join('\n')).toContain(
      `curl -X POST ${suite.sandbox.url}/sandbox/deposit -d '{"ticker":"USDT","amount":"250"}'`,
    );
    const described = (await (await fetch(`${suite.sandbox.url}/sandbox`)).json()) as { controls: object };
    expect(Object.keys(described.controls)).toContain('POST /sandbox/deposit');
  });

  it('the control refuses a deposit it cannot take, names why, and changes nothing', async () => {
    const before = suite.sandbox.state.snapshot();
    const post = (body: unknown) =>
      fetch(`${suite.sandbox.url}/sandbox/deposit`, { method: 'POST', body: JSON.stringify(body) });
    for (const [body, reason] of [
      [{ ticker: 'ETH', amount: '0.0009' }, /at least 0.001/],
      // An asset the account has no address of yet: none is made for a refused deposit.
      [{ ticker: 'LTC', amount: '0.001' }, /at least 0.01/],
      [{ ticker: 'NOSUCHCOIN', amount: '1' }, /ticker must be one of/],
      [{ ticker: 'ETH', amount: '-1' }, /above 0/],
      [{ ticker: 'USDT', amount: '10', network: 'OMNI' }, /network must be one of TRC20, ERC20/],
      [{ ticker: 'USDT', amount: '10', address: 'nowhere' }, /no deposit address/],
      [{ ticker: 'USDT', amount: '10', account: 'nobody' }, /account must be one of/],
    ] as const) {
      const response = await post(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(reason);
    }
    expect(suite.sandbox.state.snapshot()).toEqual(before);
  });

  it('the fees answer the fixture’s rules and the asset list’s limits', async () => {
    const fees = (await send('listAccountFees', {})).body as { ticker: string; withdraw: object }[];
    expect(fees.find((entry) => entry.ticker === 'USDT')?.withdraw).toEqual({
      fixed: '0',
      percentFlex: '0.1',
      minFlex: '1',
      maxFlex: '20',
      minAmount: '5',
      maxAmount: '0',
    });
    expect(fees.map((entry) => entry.ticker).sort()).toEqual(Object.keys(fixture.assets).sort());
  });

  it('after all of it, the ledger balances', () => {
    const { state } = suite.sandbox;
    expect(state.ledger.imbalance(state.accounts.values())).toEqual({});
  });
});

describe('assets that need a memo, or are closed to deposits or withdrawals', () => {
  const fixture = defaultFixture();
  const usdt = fixture.assets.USDT as Record<string, unknown>;
  fixture.assets.XLM = {
    ...usdt,
    name: 'Stellar',
    memo: { deposit: true, withdraw: true },
    networks: { deposits: ['XLM'], withdraws: ['XLM'] },
  };
  fixture.assets.LTC = { ...(fixture.assets.LTC as object), can_deposit: false, can_withdraw: false };
  const key = partnerKey(fixture);
  const account = fixture.accounts.find((candidate) => candidate.id === key.account);
  if (account) account.mainBalances = { ...account.mainBalances, XLM: '100', LTC: '1' };
  const suite = sandboxFor(fixture);
  const send = <Id extends OperationId>(operationId: Id, fields: Record<string, unknown>) =>
    call(suite.sandbox.url, key, operationId, { fields });

  it('answers each as its operation documents', async () => {
    const withdrawal = { amount: '10', address: 'GDTSOI56XNVAKJNJBLJGRNZIVOCIZJRBIDKTWSCYEYNFAZEMBLN75RMN' };
    expect(
      (await send('createWithdrawal', { ...withdrawal, ticker: 'XLM', uniqueId: 'memo-1' })).body,
    ).toEqual(example('createWithdrawal', 'memoRequired').value);
    expect(
      (await send('createWithdrawal', { ...withdrawal, ticker: 'XLM', memo: '4856', uniqueId: 'memo-1' }))
        .status,
    ).toBe(201);
    expect(
      (await send('createWithdrawal', { ...withdrawal, ticker: 'LTC', amount: '0.5', uniqueId: 'ltc-1' }))
        .body,
    ).toEqual(example('createWithdrawal', 'currencyNotWithdrawable').value);
    expect((await send('getDepositAddress', { ticker: 'LTC' })).body).toEqual(
      example('getDepositAddress', 'notDepositable').value,
    );
    expect((await send('createDepositAddress', { ticker: 'LTC' })).body).toEqual(
      example('createDepositAddress', 'notDepositable').value,
    );
    // XLM has one network and no default: that one; a deposit address of it carries a memo.
    const address = await send('getDepositAddress', { ticker: 'XLM' });
    expect(address.body.account.memo).toMatch(/^[0-9]+$/);
    expect((await send('createDepositAddress', { ticker: 'XLM', network: 'TRC20' })).body).toEqual(
      example('createDepositAddress', 'unknownNetwork').value,
    );
  });
});

describe('no default network', () => {
  const fixture = defaultFixture();
  fixture.assets.USDT = {
    ...(fixture.assets.USDT as object),
    networks: { deposits: ['TRC20', 'ERC20'], withdraws: ['TRC20', 'ERC20'] },
  };
  const key = partnerKey(fixture);
  const suite = sandboxFor(fixture);

  it('a new address of an asset on several networks, none the default, needs a network', async () => {
    const reply = await call(suite.sandbox.url, key, 'createDepositAddress', { fields: { ticker: 'USDT' } });
    expect(reply.body).toEqual(example('createDepositAddress', 'noDefaultNetwork').value);
    const named = await call(suite.sandbox.url, key, 'createDepositAddress', {
      fields: { ticker: 'USDT', network: 'ERC20' },
    });
    expect(named.status).toBe(201);
  });
});

// --- 300 concurrent transfers and withdrawals --------------------------------------------------

describe('300 concurrent transfers and withdrawals through the client', {
  timeout: timeLimits.processTestMs,
}, () => {
  const fixture = withoutCollateralSeeds(defaultFixture(), partnerKey(defaultFixture()).account);
  // A key of its own: the client keeps each key's last nonce for the whole process, and another
  // file's client of the partner key runs on another clock.
  const key = { ...partnerKey(fixture), apiKey: 'account-money-burst', description: 'the burst’s own key' };
  fixture.keys.push(key);
  const account = fixture.accounts.find((candidate) => candidate.id === key.account);
  if (!account) throw new Error('the fixture has no account for the partner key');
  // Each balance smaller than what the calls on it ask for together, so that some are refused.
  account.mainBalances = { USDT: '3000', BTC: '0.5' };
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
  const suite = loadSuite(fixture, key, Date.UTC(2024, 0, 1));

  /** Every balance of the account by asset: main, spot available and held, collateral. */
  async function totals(): Promise<Balances> {
    const all: Balances = {};
    const count = (ticker: string, amount: string) => {
      all[ticker] = (all[ticker] ?? 0n) + units(amount);
    };
    const main = (await unwrap(suite.client.POST('/api/v4/main-account/balance', { body: {} }))) as Record<
      string,
      { main_balance: string }
    >;
    for (const [ticker, { main_balance }] of Object.entries(main)) count(ticker, main_balance);
    const spot = (await unwrap(suite.client.POST('/api/v4/trade-account/balance', { body: {} }))) as Record<
      string,
      { available: string; freeze: string }
    >;
    for (const [ticker, { available, freeze }] of Object.entries(spot)) {
      count(ticker, available);
      count(ticker, freeze);
    }
    const collateral = (await unwrap(
      suite.client.POST('/api/v4/collateral-account/balance', { body: {} }),
    )) as Record<string, string>;
    for (const [ticker, amount] of Object.entries(collateral)) count(ticker, amount);
    return all;
  }

  it('reconcile: each accepted withdrawal once in the history, its fee in the fee account, nothing else moved', async () => {
    const before = await totals();
    const balances = ['main', 'spot', 'collateral'] as const;
    const calls: (() => Promise<Outcome>)[] = [];
    type Sent = { kind: 'withdraw' | 'withdraw-pay'; ticker: string; amount: string; uniqueId: string };
    const withdrawals: Sent[] = [];
    let seed = 20240101;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    while (calls.length < 300) {
      const i = calls.length;
      const ticker = next() < 0.6 ? 'USDT' : 'BTC';
      if (next() < 0.6) {
        const from = balances[Math.floor(next() * 3)] as (typeof balances)[number];
        const to = balances.filter((name) => name !== from)[
          Math.floor(next() * 2)
        ] as (typeof balances)[number];
        const amount =
          ticker === 'USDT' ? `${10 + Math.floor(next() * 90)}.5` : `0.0${1 + Math.floor(next() * 9)}`;
        const body = { ticker, amount, from, to };
        calls.push(() =>
          suite.client
            .POST('/api/v4/main-account/transfer', { body })
            .then(outcome('transferBetweenBalances')),
        );
        continue;
      }
      const amount =
        ticker === 'USDT' ? `${20 + Math.floor(next() * 180)}` : `0.0${2 + Math.floor(next() * 8)}`;
      const kind = next() < 0.5 ? 'withdraw' : 'withdraw-pay';
      const sent: Sent = { kind, ticker, amount, uniqueId: `burst-${i}` };
      withdrawals.push(sent);
      const body = { ticker, amount, address: 'burst-address', uniqueId: sent.uniqueId };
      const operation = kind === 'withdraw' ? 'createWithdrawal' : 'createWithdrawalPay';
      const path =
        kind === 'withdraw' ? '/api/v4/main-account/withdraw' : '/api/v4/main-account/withdraw-pay';
      const start = () => suite.client.POST(path, { body }).then(outcome(`${operation} ${sent.uniqueId}`));
      calls.push(start);
      // Every fifth withdrawal is sent twice at once, as a repeat would be: one of the two at most.
      if (withdrawals.length % 5 === 0 && calls.length < 300) calls.push(start);
    }
    const results = await suite.burst(calls);

    // Every answer is a success or one of its operation's documented refusals (the balance
    // refusal worded with the real figures).
    for (const result of results) {
      // The client's outcome of a success is 200, whatever the status (201 here).
      if (result.status === 200) continue;
      const operation = documentOf(result.kind.split(' ')[0] as OperationId);
      const shapes = operation.errorExamples().map(({ name, value }) =>
        name === 'notEnoughBalance'
          ? JSON.stringify({
              code: (value as { code: number }).code,
              message: (value as { message: string }).message,
            })
          : JSON.stringify(value),
      );
      const body = result.body as { code: number; message: string; errors?: object };
      const shape =
        result.status === 422
          ? JSON.stringify({ code: body.code, message: body.message })
          : JSON.stringify(body);
      expect(shapes, JSON.stringify(result)).toContain(shape);
    }
    const accepted = withdrawals.filter((sent) => {
      const answers = results.filter((result) => result.kind.endsWith(` ${sent.uniqueId}`));
      const successes = answers.filter((result) => result.status === 200);
      expect(successes.length, sent.uniqueId).toBeLessThanOrEqual(1);
      if (answers.length === 2 && successes.length === 1) {
        const refused = answers.find((result) => result.status !== 200);
        expect(refused?.body).toEqual(example('createWithdrawal', 'duplicateUniqueId').value);
      }
      return successes.length === 1;
    });
    const transfers = results.filter((result) => result.kind === 'transferBetweenBalances');
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.length).toBeLessThan(withdrawals.length);
    expect(transfers.some((result) => result.status === 200)).toBe(true);
    expect(transfers.some((result) => result.status !== 200)).toBe(true);

    // The history: each accepted withdrawal once, pending, with its fee; none of the refused.
    type Page = { records: WalletHistoryRecord[]; total: number };
    const page = (await unwrap(
      suite.client.POST('/api/v4/main-account/history', { body: { transactionMethod: 2, limit: 500 } }),
    )) as Page;
    const burstRows = page.records.filter((row) => row.unique_id?.startsWith('burst-'));
    expect(burstRows.map((row) => row.unique_id).sort()).toEqual(
      accepted.map((sent) => sent.uniqueId).sort(),
    );
    // What each cost the main balance, by the test's own fee arithmetic: USDT 0.1 % held between
    // 1 and 20 (rounded up to the asset's 6 decimals), BTC a fixed 0.0004.
    const feeOf = (ticker: string, amount: string) => {
      if (ticker === 'BTC') return units('0.0004');
      const step = units('0.000001');
      const flex = (((units(amount) / 1000n + step - 1n) / step) * step) as bigint;
      return flex < units('1') ? units('1') : flex > units('20') ? units('20') : flex;
    };
    const spent: Balances = {};
    const charged: Balances = {};
    for (const sent of accepted) {
      const row = burstRows.find((candidate) => candidate.unique_id === sent.uniqueId);
      const fee = feeOf(sent.ticker, sent.amount);
      expect(row, sent.uniqueId).toMatchObject({
        amount: sent.amount,
        status: code('withdrawal', 'pending'),
      });
      expect(units(row?.fee ?? '0'), sent.uniqueId).toBe(fee);
      spent[sent.ticker] =
        (spent[sent.ticker] ?? 0n) + units(sent.amount) + (sent.kind === 'withdraw-pay' ? fee : 0n);
      charged[sent.ticker] = (charged[sent.ticker] ?? 0n) + fee;
    }

    // Every balance of the account together: the start less what the withdrawals took. The
    // transfers moved money between the balances and created or lost none.
    const after = await totals();
    for (const ticker of ['USDT', 'BTC'])
      expect(decimalText(after[ticker] ?? 0n), ticker).toBe(
        decimalText((before[ticker] ?? 0n) - (spent[ticker] ?? 0n)),
      );
    for (const amount of Object.values(after)) expect(amount >= 0n).toBe(true);

    // Once the clock passes them, every withdrawal is done: the fees in the fee account, the rest
    // gone outside, and the ledger balanced.
    suite.clock.now += withdrawalProcessingMs;
    const done = (await unwrap(
      suite.client.POST('/api/v4/main-account/history', { body: { transactionMethod: 2, limit: 500 } }),
    )) as Page;
    for (const row of done.records.filter((candidate) => candidate.unique_id?.startsWith('burst-')))
      expect(row.status, String(row.unique_id)).toBe(code('withdrawal', 'successful'));
    const { ledger, accounts } = suite.sandbox.state;
    for (const ticker of ['USDT', 'BTC']) {
      expect(units(ledger.house('fees', ticker)), ticker).toBe(charged[ticker] ?? 0n);
      expect(units(ledger.house('withdrawals', ticker)), ticker).toBe(0n);
    }
    expect(ledger.imbalance(accounts.values())).toEqual({});
  });
});
