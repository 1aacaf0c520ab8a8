// Crypto lending against one in-process sandbox through the real client, on a fake clock: the
// plans answer the fixture; investing, withdrawing and closing move money between the main
// balance and the lending house; interest accrues on the clock as the sandbox guide's rule says
// (a fixed term's interest pro rata to the minute, a flex plan's yearly rate a 365th a whole
// day, rounded down to the plan's precision) and shows in the payment histories; auto-reinvest
// decides where a day's earning goes; refusals are the documents' examples and move nothing;
// and the ledger ends balanced, every place together holding what it held at the start.
// Amounts are checked with the tests' own arithmetic (helpers.ts units), never the sandbox's.
import { describe, expect, it } from 'vitest';
import type { OperationId } from '../../generated/operations.ts';
import type { Books } from '../../sandbox/ledger.ts';
import { unwrap } from '../../src/index.ts';
import { loadSuite } from './burst.ts';
import { decimalText, defaultFixture, documentOf, partnerKey, units } from './helpers.ts';

const fixture = defaultFixture();
const start = Date.UTC(2024, 0, 1);
// A strict sandbox and the real client on one fake clock, with a key of the suite's own.
const suite = loadSuite(fixture, partnerKey(fixture), start);
const { clock } = suite;
const api = () => suite.client;
const state = () => suite.sandbox.state;

function present<Value>(value: Value | undefined, what: string): Value {
  if (value === undefined) throw new Error(`the ${what} starts in beforeAll`);
  return value;
}

const minute = 60_000;
const day = 86_400_000;
const startSeconds = start / 1000;

/** Rounded down to `decimals` places, in the tests' units. */
const down = (value: bigint, decimals: number) => {
  const step = 10n ** BigInt(18 - decimals);
  return (value / step) * step;
};
/** `amount` × `rate`, exact in units (both at most 18 decimals together). */
const product = (amount: string, rate: string) => (units(amount) * units(rate)) / 10n ** 18n;

const mainOf = async (ticker: string) =>
  units(
    (
      (await unwrap(api().POST('/api/v4/main-account/balance', { body: { ticker } }))) as {
        main_balance: string;
      }
    ).main_balance,
  );
const lent = (ticker: string) => units(state().ledger.house('lending', ticker));

/** What every place but the outside holds of an asset: accounts and houses together. */
function inside(asset: string): bigint {
  const books = [...state().accounts.values()] as Books[];
  let total = 0n;
  for (const account of books) {
    total += units(account.main.get(asset) ?? '0');
    const trade = account.trade.get(asset);
    total += units(trade?.available ?? '0') + units(trade?.frozen ?? '0');
    total += units(account.collateral.find((item) => item.asset === asset)?.balance ?? '0');
  }
  const houses = state().ledger.houses();
  for (const [name, held] of Object.entries(houses))
    if (name !== 'outside') total += units(held[asset] ?? '0');
  return total;
}

/** A refusal through the client: its status and body, to compare with a named example. */
async function refusal(
  call: Promise<{ error?: { status?: number | undefined; body?: unknown } | undefined }>,
) {
  const { error } = await call;
  if (!error) throw new Error('the call was accepted');
  return { status: error.status, body: error.body };
}
const example = (operationId: OperationId, name: string) => {
  const { status, value } = documentOf(operationId).example(name);
  return { status, body: value };
};

const readmePlan = '7b6e1c1a-3f1d-4c59-9a52-3c2a8f1e0d4b';
const btcFlexPlan = '7e1d8c2b-9a3b-4b1c-8d4e-5a6b7c8d9e0f';
const usdtFlexPlan = '8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f';
const payoutFlexPlan = 'f0e1d2c3-b4a5-4968-8776-5a4b3c2d1e0f';
const totalsAtStart: Record<string, bigint> = {};

describe('crypto lending on the ledger', () => {
  it('lists the plans the fixture opens to the API, and nothing else', async () => {
    for (const asset of ['USDT', 'BTC']) totalsAtStart[asset] = inside(asset);
    const fixed = await unwrap(api().POST('/api/v4/main-account/smart/plans', { body: { ticker: 'USDT' } }));
    const open = fixture.plans.filter(
      (plan) => plan.status === 'active' && !plan.specialOffer && plan.currency === 'USDT',
    );
    expect(fixed.map((plan) => plan.id).sort()).toEqual(open.map((plan) => plan.id).sort());
    expect(fixed.find((plan) => plan.id === readmePlan)).toEqual({
      id: readmePlan,
      ticker: 'USDT',
      status: 1,
      percent: '10',
      duration: 14_400,
      interestTicker: 'USDT',
      interestRatio: '1',
      minInvestment: '10',
      maxInvestment: '100000',
      maxPossibleInvestment: '100000',
    });
    const flex = await unwrap(api().POST('/api/v4/main-account/smart-flex/plans', { body: {} }));
    const listed = (fixture.flexPlans ?? []).filter(
      (plan) => (plan.status ?? 'active') === 'active' && !plan.private,
    );
    expect(flex.map((plan) => plan.id)).toEqual(listed.map((plan) => plan.id));
    expect(flex.find((plan) => plan.id === btcFlexPlan)).toEqual({
      id: btcFlexPlan,
      ticker: 'BTC',
      minInvestment: '0.001',
      maxInvestment: '10',
      maxRate: '0.12',
    });
    expect(
      await refusal(api().POST('/api/v4/main-account/smart/plans', { body: { ticker: 'NOSUCHCOIN' } })),
    ).toEqual(example('listFixedPlans', 'invalidTicker'));
  });

  it('closes a fixed investment early with the interest of the whole minutes elapsed, rounded down', async () => {
    const [main, lending] = [await mainOf('USDT'), lent('USDT')];
    const amount = '333.333333';
    const { id } = await unwrap(
      api().POST('/api/v4/main-account/smart/investment', { body: { planId: readmePlan, amount } }),
    );
    expect(await mainOf('USDT')).toBe(main - units(amount));
    expect(lent('USDT')).toBe(lending + units(amount));

    // 1001 minutes and 59 seconds of a 14400-minute term at 10 %: the 59 seconds earn nothing.
    clock.now += 1001 * minute + 59_000;
    await unwrap(api().POST('/api/v4/main-account/smart/investment/close', { body: { id } }));
    const interest = down((product(amount, '0.1') * 1001n) / 14_400n, 6);
    expect(decimalText(interest)).toBe('2.317129');
    expect(await mainOf('USDT')).toBe(main + interest);
    expect(lent('USDT')).toBe(lending - interest);

    const { records } = await unwrap(api().POST('/api/v4/main-account/smart/investments', { body: { id } }));
    expect(records).toMatchObject([{ id, status: 2, amount, interestPaid: '2.317129' }]);
    const payments = await unwrap(
      api().POST('/api/v4/main-account/smart/interest-payment-history', { body: { planId: readmePlan } }),
    );
    expect(payments.records.filter((row) => row.investmentId === id)).toEqual([
      {
        planId: readmePlan,
        investmentId: id,
        amount: '2.317129',
        ticker: 'USDT',
        timestamp: Math.floor(clock.now / 1000),
      },
    ]);

    const before = state().snapshot();
    expect(
      await refusal(api().POST('/api/v4/main-account/smart/investment/close', { body: { id } })),
    ).toEqual(example('closeFixedInvestment', 'investmentAlreadyClosed'));
    expect(state().snapshot()).toEqual(before);
  });

  it('earns a flex plan a 365th of its rate each whole day, paid out or reinvested as the switch says', async () => {
    const flexHistory = '/api/v4/main-account/smart-flex/investments/payment-history';
    const earnings = async () =>
      (await unwrap(api().POST(flexHistory, { body: { plan: btcFlexPlan, limit: 100 } }))).data;
    const holding = async () =>
      (
        await unwrap(
          api().POST('/api/v4/main-account/smart-flex/investments', {
            body: { plan: btcFlexPlan, investmentStatus: 1 },
          }),
        )
      ).data;
    const [main, lending] = [await mainOf('BTC'), lent('BTC')];
    // The fixture's investment in the plan is closed: investing opens a new one.
    const invested = await api().POST('/api/v4/main-account/smart-flex/investments/invest', {
      body: { plan: btcFlexPlan, amount: '0.5', withReinvest: false },
    });
    expect(invested.response?.status).toBe(201);
    expect(await mainOf('BTC')).toBe(main - units('0.5'));
    expect(lent('BTC')).toBe(lending + units('0.5'));
    const [opened] = await holding();
    expect(opened).toMatchObject({ currency: 'BTC', invested: '0.5', withAutoReinvest: false, status: 1 });

    // A day not complete earns nothing; the whole day earns 0.5 × 0.12 ÷ 365, to 8 decimals.
    clock.now += day - 1000;
    expect(await earnings()).toEqual([]);
    clock.now += 1000;
    const first = down(product('0.5', '0.12') / 365n, 8);
    expect(decimalText(first)).toBe('0.00016438');
    expect(await mainOf('BTC')).toBe(main - units('0.5') + first);
    expect(await earnings()).toMatchObject([{ amount: '0.00016438', actionType: 4 }]);

    // Reinvesting: the next day's earning stays in the investment, and the main balance stays.
    expect(
      await unwrap(
        api().POST('/api/v4/main-account/smart-flex/investments/auto-invest', {
          body: { plan: btcFlexPlan, enabled: true },
        }),
      ),
    ).toEqual({ data: [] });
    clock.now += day;
    expect(await mainOf('BTC')).toBe(main - units('0.5') + first);
    const grown = units('0.5') + first;
    expect((await holding())[0]).toMatchObject({ invested: decimalText(grown), withAutoReinvest: true });

    // Off again (enabled defaults to false): the third day's earning, on what it holds, is paid out.
    await unwrap(
      api().POST('/api/v4/main-account/smart-flex/investments/auto-invest', { body: { plan: btcFlexPlan } }),
    );
    clock.now += day;
    const third = down(product(decimalText(grown), '0.12') / 365n, 8);
    expect(decimalText(third)).toBe('0.00016443');
    expect(await mainOf('BTC')).toBe(main - units('0.5') + first + third);
    expect((await earnings()).map((row) => row.amount)).toEqual(['0.00016443', '0.00016438', '0.00016438']);
    // Each earning is dated at the end of its day, the newest first.
    const openedAt = opened?.createdAt ?? 0;
    expect((await earnings()).map((row) => row.createdAt)).toEqual([
      openedAt + 3 * 86_400,
      openedAt + 2 * 86_400,
      openedAt + 86_400,
    ]);

    // Withdrawing: part comes back; what is left may not drop below the plan's minimum.
    await unwrap(
      api().POST('/api/v4/main-account/smart-flex/investments/withdraw', {
        body: { plan: btcFlexPlan, amount: '0.2' },
      }),
    );
    const left = grown - units('0.2');
    expect((await holding())[0]?.invested).toBe(decimalText(left));
    const refusedBefore = state().snapshot();
    expect(
      await refusal(
        api().POST('/api/v4/main-account/smart-flex/investments/withdraw', {
          body: { plan: btcFlexPlan, amount: '0.3' },
        }),
      ),
    ).toEqual(example('withdrawFromFlexInvestment', 'flexAmountLeftBelowMinimum'));
    expect(
      await refusal(
        api().POST('/api/v4/main-account/smart-flex/investments/withdraw', {
          body: { plan: btcFlexPlan, amount: '1' },
        }),
      ),
    ).toEqual(example('withdrawFromFlexInvestment', 'flexWithdrawalExceedsInvested'));
    expect(state().snapshot()).toEqual(refusedBefore);

    // Closing pays back all it holds: the principal left and the earning reinvested.
    await unwrap(
      api().POST('/api/v4/main-account/smart-flex/investments/close', { body: { plan: btcFlexPlan } }),
    );
    expect(await mainOf('BTC')).toBe(main + first + first + third);
    expect(await holding()).toEqual([]);
    // The borrowers paid the interest: the lending house is short of it, and of nothing else.
    expect(lent('BTC')).toBe(lending - (first + first + third));
    for (const [path, name] of [
      ['/api/v4/main-account/smart-flex/investments/close', 'flexInvestmentClosed'],
      ['/api/v4/main-account/smart-flex/investments/withdraw', 'flexInvestmentClosed'],
      ['/api/v4/main-account/smart-flex/investments/auto-invest', 'flexNoInvestmentInPlan'],
    ] as const) {
      const operationId = path.endsWith('close')
        ? 'closeFlexInvestment'
        : path.endsWith('withdraw')
          ? 'withdrawFromFlexInvestment'
          : 'setFlexAutoReinvestment';
      expect(
        await refusal(
          api().POST(path, { body: { plan: btcFlexPlan, amount: '0.1', enabled: true } } as never),
        ),
        name,
      ).toEqual(example(operationId, name));
    }
  });

  it('refuses an investment as documented, with the real figures, and moves nothing', async () => {
    const before = state().snapshot();
    const balance = decimalText(await mainOf('BTC'));
    const short = await refusal(
      api().POST('/api/v4/main-account/smart-flex/investments/invest', {
        body: { plan: btcFlexPlan, amount: '5' },
      }),
    );
    expect(short).toEqual({
      status: 422,
      body: { code: 4, message: 'Inner validation failed', errors: { amount: [`Available ${balance} < 5`] } },
    });
    const paused = (fixture.flexPlans ?? []).find((plan) => plan.status === 'paused');
    expect(
      await refusal(
        api().POST('/api/v4/main-account/smart-flex/investments/invest', {
          body: { plan: present(paused, 'paused plan').id, amount: '10' },
        }),
      ),
    ).toEqual(example('createFlexInvestment', 'flexPlanPaused'));
    expect(state().snapshot()).toEqual(before);
  });

  it('pays a fixed term back with its whole interest when it ends, as the seeded ones do', async () => {
    // The fixture's investment of 100 in the README plan started its ten-day term at the start.
    const seeded = '0f9d3c52-1a8e-4b0b-8f3e-2d6c9b7a5e41';
    const paymentTime = startSeconds + 14_400 * 60;
    const payouts = async (from: number, to: number) =>
      (
        await unwrap(
          api().POST('/api/v4/main-account/smart-flex/investments/payment-history', {
            body: { plan: payoutFlexPlan, dateFrom: from, dateTo: to, limit: 100 },
          }),
        )
      ).data.reduce((total, row) => total + units(row.amount), 0n);
    const [main, lending, since] = [await mainOf('USDT'), lent('USDT'), Math.floor(clock.now / 1000)];
    clock.now = paymentTime * 1000 - 1000;
    const { records: running } = await unwrap(
      api().POST('/api/v4/main-account/smart/investments', { body: { id: seeded } }),
    );
    expect(running).toMatchObject([{ status: 1, paymentTime, interestPaid: '0' }]);
    clock.now += 1000;
    const { records } = await unwrap(
      api().POST('/api/v4/main-account/smart/investments', { body: { id: seeded, status: 2 } }),
    );
    expect(records).toMatchObject([
      { id: seeded, status: 2, amount: '100', interestPaid: '10', updated: paymentTime },
    ]);
    const payments = await unwrap(
      api().POST('/api/v4/main-account/smart/interest-payment-history', { body: { ticker: 'USDT' } }),
    );
    expect(payments.records.find((row) => row.investmentId === seeded)).toEqual({
      planId: readmePlan,
      investmentId: seeded,
      amount: '10',
      ticker: 'USDT',
      timestamp: paymentTime,
    });
    // The investment the seeded history names (100 in a plan without interest) ends with it.
    const fromHistory = '2f0b9e04-a607-45c6-9508-9819b78a1f12';
    const { records: ended } = await unwrap(
      api().POST('/api/v4/main-account/smart/investments', { body: { id: fromHistory } }),
    );
    expect(ended).toMatchObject([{ status: 2, amount: '100', interestPaid: '0', paymentTime }]);
    // The main balance got the 110 and the 100 back, and the payout plan's daily earnings
    // meanwhile (the reinvesting one's stayed in it): nothing else moved it.
    const paidOut = await payouts(since + 1, paymentTime);
    expect(paidOut).toBeGreaterThan(0n);
    expect(await mainOf('USDT')).toBe(main + units('210') + paidOut);
    // Every account's: the single-investment account's history names one of 10 too.
    const single = fixture.accounts.find((account) => account.id === 'single')?.history?.[0];
    expect(single?.amount).toBe('10');
    expect(lent('USDT')).toBe(lending - units('220') - paidOut);
    const reinvesting = await unwrap(
      api().POST('/api/v4/main-account/smart-flex/investments', { body: { plan: usdtFlexPlan } }),
    );
    expect(units(reinvesting.data[0]?.invested ?? '0')).toBeGreaterThan(units('1500.75'));
  });

  it('ends with the ledger balanced and every place together holding what it held at the start', () => {
    const { ledger, accounts } = state();
    expect(ledger.imbalance(accounts.values())).toEqual({});
    for (const asset of ['USDT', 'BTC']) expect(inside(asset), asset).toBe(totalsAtStart[asset]);
  });
});
