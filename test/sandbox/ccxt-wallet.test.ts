// ccxt's whitebit class, a wallet client no one here wrote, runs every unified wallet method it has
// for this exchange against one in-process sandbox, unchanged (ccxt.ts says how it is pointed
// there): deposit addresses, moves between the main, spot and collateral balances, withdrawals,
// the deposit and withdrawal history, the fee and limit lists. What ccxt reports is checked
// against the sandbox's state read through our own client, with a key of its own on the same
// account, and amounts with the tests' own arithmetic (strings into units, never ccxt's floats).
// The sandbox runs strict on a fake clock, which the withdrawal test moves.
//
// ccxt's whitebit class has no fetchWithdrawal and no fetchTransfers (its `has` says so, and the
// first test checks it), and its `transfer` answer carries no id: they are not driven here.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WalletHistoryRecord } from '../../sandbox/api-types.ts';
import { credentialKey } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { withdrawalProcessingMs } from '../../sandbox/wallet.ts';
import { createPrivateClient, createPublicClient, type PrivateClient, unwrap } from '../../src/index.ts';
import { type Whitebit, whitebitFor } from './ccxt.ts';
import { defaultFixture, documentOf, present, units } from './helpers.ts';

const fixture = defaultFixture();
const printed = credentialKey(fixture);
const ccxtKey = present(
  fixture.keys.find((key) => key.apiKey === printed.apiKey),
  'the printed key',
);
// Our client's own key on the same account: each client keeps its own nonce sequence per key.
const ourKey = {
  ...ccxtKey,
  apiKey: randomBytes(16).toString('hex'),
  secret: randomBytes(32).toString('hex'),
};
fixture.keys.push(ourKey);

const statuses = documentOf('listDepositWithdrawalHistory').object['x-transaction-statuses'] as Record<
  string,
  Record<string, number[]>
>;
const statusCode = (method: 'deposit' | 'withdrawal', state: string) =>
  present(statuses[method]?.[state]?.[0], `${method} ${state}`);

const clock = { now: Date.UTC(2024, 0, 1) };
let sandbox: Sandbox;
let exchange: Whitebit;
let ours: PrivateClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, strict: true, fixture, clock: () => clock.now });
  exchange = whitebitFor(sandbox.url, ccxtKey.apiKey, ccxtKey.secret);
  ours = createPrivateClient({ apiKey: ourKey.apiKey, apiSecret: ourKey.secret, baseUrl: sandbox.url });
  await exchange.loadMarkets();
});

afterAll(async () => {
  await ours?.close();
  await sandbox?.close();
  expect(sandbox?.violations).toEqual([]);
});

/** A number ccxt parsed, back in the tests' units (its figures here have a few decimals). */
const unitsOf = (value: number | undefined) => units(String(present(value, 'a figure of ccxt')));

const read = {
  main: async (ticker: string) =>
    units(
      (
        (await unwrap(ours.POST('/api/v4/main-account/balance', { body: { ticker } }))) as {
          main_balance: string;
        }
      ).main_balance,
    ),
  spot: async (ticker: string) =>
    units(
      present(
        (
          (await unwrap(ours.POST('/api/v4/trade-account/balance', { body: { ticker } }))) as Record<
            string,
            { available: string }
          >
        )[ticker],
        ticker,
      ).available,
    ),
  collateral: async (ticker: string) =>
    units(
      (
        (await unwrap(ours.POST('/api/v4/collateral-account/balance', { body: { ticker } }))) as Record<
          string,
          string
        >
      )[ticker] ?? '0',
    ),
  history: async (body: Record<string, unknown>) =>
    (
      (await unwrap(ours.POST('/api/v4/main-account/history', { body }))) as {
        records: WalletHistoryRecord[];
      }
    ).records,
  address: async (ticker: string) =>
    (
      (await unwrap(ours.POST('/api/v4/main-account/address', { body: { ticker } }))) as {
        account: { address: string };
      }
    ).account.address,
};

describe("ccxt's whitebit wallet methods against the sandbox", () => {
  it('has the wallet methods driven here, and not fetchWithdrawal nor fetchTransfers', () => {
    for (const method of [
      'fetchDepositAddress',
      'createDepositAddress',
      'transfer',
      'withdraw',
      'fetchWithdrawals',
      'fetchDeposits',
      'fetchDeposit',
      'fetchDepositsWithdrawals',
      'fetchTransactions',
      'fetchDepositWithdrawFees',
      'fetchTransactionFees',
      'fetchFundingLimits',
      'fetchTradingFees',
    ])
      expect(exchange.has[method], method).toBe(true);
    expect(exchange.has.fetchDepositWithdrawFee).toBe('emulated');
    for (const method of ['fetchWithdrawal', 'fetchTransfer', 'fetchTransfers'])
      expect(exchange.has[method], method).toBeFalsy();
  });

  it('fetchDepositAddress and createDepositAddress answer the account’s addresses', async () => {
    const fetched = await exchange.fetchDepositAddress('ETH');
    expect(fetched).toMatchObject({ currency: 'ETH', address: await read.address('ETH') });
    const made = await exchange.createDepositAddress('ETH');
    expect(made.currency).toBe('ETH');
    expect(made.address).not.toBe(fetched.address);
    // The new address is the account's from now on, for both clients.
    expect(await read.address('ETH')).toBe(made.address);
    expect((await exchange.fetchDepositAddress('ETH')).address).toBe(made.address);
  });

  it('transfer moves between main, spot and collateral: both balances show it, in both clients', async () => {
    const [main, spot] = [await read.main('USDT'), await read.spot('USDT')];
    await exchange.transfer('USDT', 120.5, 'main', 'spot');
    expect(await read.main('USDT')).toBe(main - units('120.5'));
    expect(await read.spot('USDT')).toBe(spot + units('120.5'));
    // ccxt's own balances agree: the main one by its `account`, the spot one by default.
    expect(unitsOf((await exchange.fetchBalance({ account: 'main' })).USDT?.free)).toBe(
      main - units('120.5'),
    );
    expect(unitsOf((await exchange.fetchBalance()).USDT?.free)).toBe(spot + units('120.5'));

    // ccxt's names for the balances: `margin` is the collateral one, `trade` spot, `funding` main.
    const [btcSpot, btcCollateral, btcMain] = [
      await read.spot('BTC'),
      await read.collateral('BTC'),
      await read.main('BTC'),
    ];
    await exchange.transfer('BTC', 0.3, 'trade', 'margin');
    await exchange.transfer('BTC', 0.1, 'margin', 'funding');
    expect(await read.spot('BTC')).toBe(btcSpot - units('0.3'));
    expect(await read.collateral('BTC')).toBe(btcCollateral + units('0.2'));
    expect(await read.main('BTC')).toBe(btcMain + units('0.1'));
  });

  it('a transfer beyond the balance is refused as InsufficientFunds, and moves nothing', async () => {
    const before = sandbox.state.snapshot();
    await expect(exchange.transfer('USDT', 99999999, 'main', 'spot')).rejects.toThrow(
      expect.objectContaining({ name: 'InsufficientFunds' }),
    );
    expect(sandbox.state.snapshot()).toEqual(before);
  });

  it('a withdrawal shows in ccxt’s history with its amount and fee, pending and then done on the clock', async () => {
    const main = await read.main('USDT');
    const fees = units(sandbox.state.ledger.house('fees', 'USDT'));
    const address = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
    const sent = await exchange.withdraw('USDT', 2500, address, undefined, {
      network: 'TRC20',
      uniqueId: 'ccxt-wallet-1',
    });
    expect(sent).toMatchObject({ id: 'ccxt-wallet-1', type: 'withdrawal', currency: 'USDT' });
    expect(await read.main('USDT')).toBe(main - units('2500'));
    // The fixture's USDT rule: 0.1 % of 2500, between 1 and 20.
    const fee = units('2.5');

    // ccxt's fetchWithdrawals sends `transactionMethod` as the string "2"; the documents, as the
    // operator's schema does, take the integer, and refuse the string as they document. Whether
    // the service takes the string is not shown. With the integer in its params, ccxt's own
    // method filters as it means to.
    await expect(exchange.fetchWithdrawals('USDT')).rejects.toThrow(
      /The selected transaction method is invalid/,
    );
    const withdrawals = () =>
      exchange.fetchWithdrawals('USDT', undefined, undefined, { transactionMethod: 2 });
    // ccxt reads a record's id from `uniqueId`, which the operator's documents name `unique_id`:
    // ccxt's `id` stays empty, and the record is found by what ccxt keeps in `info`.
    const mine = (rows: Awaited<ReturnType<typeof withdrawals>>) =>
      present(
        rows.find((row) => (row.info as WalletHistoryRecord).unique_id === 'ccxt-wallet-1'),
        'the withdrawal in ccxt’s history',
      );
    const pending = mine(await withdrawals());
    expect(pending).toMatchObject({ type: 'withdrawal', currency: 'USDT', address, status: 'pending' });
    expect(unitsOf(pending.amount)).toBe(units('2500'));
    expect(unitsOf(pending.fee?.cost)).toBe(fee);
    const [record] = await read.history({ transactionMethod: 2, unique_id: 'ccxt-wallet-1' });
    expect(record).toMatchObject({ amount: '2500', status: statusCode('withdrawal', 'pending') });
    expect(units(present(present(record, 'the record').fee, 'its fee'))).toBe(fee);

    // A second before its time it is still pending; at its time it is done, its fee taken.
    clock.now += withdrawalProcessingMs - 1000;
    expect(mine(await withdrawals()).status).toBe('pending');
    expect(units(sandbox.state.ledger.house('fees', 'USDT'))).toBe(fees);
    clock.now += 1000;
    expect(mine(await withdrawals()).status).toBe('ok');
    const [done] = await read.history({ transactionMethod: 2, unique_id: 'ccxt-wallet-1' });
    expect(done?.status).toBe(statusCode('withdrawal', 'successful'));
    expect(units(sandbox.state.ledger.house('fees', 'USDT'))).toBe(fees + fee);
    expect(await read.main('USDT')).toBe(main - units('2500'));

    // The same uniqueId again: refused, nothing taken.
    await expect(
      exchange.withdraw('USDT', 50, address, undefined, { network: 'TRC20', uniqueId: 'ccxt-wallet-1' }),
    ).rejects.toThrow(/The unique id has already been taken/);
    expect(await read.main('USDT')).toBe(main - units('2500'));
  });

  it('a deposit through the sandbox’s control shows in fetchDeposits, fetchDeposit and the whole history', async () => {
    const main = await read.main('ETH');
    const address = await read.address('ETH');
    const response = await fetch(`${sandbox.url}/sandbox/deposit`, {
      method: 'POST',
      body: JSON.stringify({ ticker: 'ETH', amount: '1.5', address }),
    });
    expect(response.status).toBe(200);
    // The fixture's ETH deposit fee is 0.0005.
    expect(await read.main('ETH')).toBe(main + units('1.4995'));
    const deposits = await exchange.fetchDeposits('ETH');
    const arrived = present(
      deposits.find((row) => row.address === address),
      'the deposit in ccxt’s deposits',
    );
    expect(arrived).toMatchObject({ type: 'deposit', currency: 'ETH', status: 'ok', addressFrom: address });
    expect(unitsOf(arrived.amount)).toBe(units('1.5'));
    expect(unitsOf(arrived.fee?.cost)).toBe(units('0.0005'));
    const [record] = await read.history({ transactionMethod: 1, ticker: 'ETH' });
    expect(record).toMatchObject({ address, amount: '1.5', status: statusCode('deposit', 'successful') });
    expect(deposits.every((row) => row.type === 'deposit')).toBe(true);

    // ccxt's fetchDeposit filters by `uniqueId`, a field the documents do not name (they name
    // `unique_id`, and a deposit's is null): the sandbox ignores it (what the service does with it
    // is not shown) and answers the newest ETH deposit, this one.
    const one = await exchange.fetchDeposit('no-such-id', 'ETH');
    expect(one).toMatchObject({ type: 'deposit', address });

    // Both histories hold the deposit and the withdrawal, each as many times as our client sees.
    const all = await read.history({ limit: 100 });
    for (const listed of [await exchange.fetchDepositsWithdrawals(), await exchange.fetchTransactions()]) {
      expect(listed).toHaveLength(all.length);
      expect(listed.filter((row) => row.address === address && row.type === 'deposit')).toHaveLength(1);
      expect(
        listed.filter(
          (row) =>
            (row.info as WalletHistoryRecord).unique_id === 'ccxt-wallet-1' && row.type === 'withdrawal',
        ),
      ).toHaveLength(1);
    }
  });

  it('the fee lists are the fees the sandbox charges, and a withdrawal is charged what ccxt read', async () => {
    const account = (await unwrap(ours.POST('/api/v4/main-account/fee', { body: {} }))) as {
      ticker: string;
      withdraw: { fixed: string; percentFlex: string; minAmount: string; maxAmount: string };
      deposit: { fixed: string };
    }[];
    const listed = await exchange.fetchDepositWithdrawFees();
    const limits = await exchange.fetchFundingLimits();
    expect(Object.keys(listed).sort()).toEqual(Object.keys(fixture.assets).sort());
    for (const entry of account) {
      const fees = present(listed[entry.ticker], entry.ticker);
      // ccxt reads only the fixed fee; a rule without one (a percentage) it leaves empty.
      const fixed = units(entry.withdraw.fixed);
      expect(fees.withdraw?.fee === undefined ? 0n : unitsOf(fees.withdraw.fee), entry.ticker).toBe(fixed);
      expect(fees.deposit?.fee === undefined ? 0n : unitsOf(fees.deposit.fee), entry.ticker).toBe(
        units(entry.deposit.fixed),
      );
      const limit = present(limits[entry.ticker], entry.ticker) as unknown as {
        limits: { withdraw: { min: number; max: number } };
      };
      expect(unitsOf(limit.limits.withdraw.min), entry.ticker).toBe(units(entry.withdraw.minAmount));
      expect(unitsOf(limit.limits.withdraw.max), entry.ticker).toBe(units(entry.withdraw.maxAmount));
    }
    const one = await exchange.fetchDepositWithdrawFee('BTC');
    expect(unitsOf(one.withdraw?.fee)).toBe(unitsOf(listed.BTC?.withdraw?.fee));
    const transactionFees = await exchange.fetchTransactionFees();
    expect(units(present(transactionFees.withdraw.BTC, 'BTC'))).toBe(unitsOf(listed.BTC?.withdraw?.fee));

    // A BTC withdrawal is charged the fee ccxt read before it.
    await exchange.withdraw('BTC', 0.01, 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh', undefined, {
      uniqueId: 'ccxt-wallet-btc',
    });
    const [record] = await read.history({ transactionMethod: 2, unique_id: 'ccxt-wallet-btc' });
    expect(units(present(present(record, 'the BTC withdrawal').fee, 'its fee'))).toBe(
      unitsOf(listed.BTC?.withdraw?.fee),
    );

    // Trading fees: ccxt takes each market's from its base asset in the asset list, in percent.
    const publicClient = createPublicClient({ baseUrl: sandbox.url });
    const assets = (await unwrap(publicClient.GET('/api/v4/public/assets'))) as Record<
      string,
      { maker_fee: string; taker_fee: string }
    >;
    await publicClient.close();
    const trading = await exchange.fetchTradingFees();
    for (const [symbol, fee] of Object.entries(trading)) {
      const base = present(exchange.markets?.[symbol]?.baseId, symbol);
      const asset = present(assets[base], base);
      expect(unitsOf(fee.maker) * 100n, symbol).toBe(units(asset.maker_fee));
      expect(unitsOf(fee.taker) * 100n, symbol).toBe(units(asset.taker_fee));
    }
  });

  it('after all of it, the ledger balances', () => {
    expect(sandbox.state.ledger.imbalance(sandbox.state.accounts.values())).toEqual({});
  });
});
