// Collateral trading on the sandbox: positions under leverage, PnL on the market price, closes
// settled exactly into the collateral balance, hedge and one-way modes, settings that cannot
// change with positions open, funding on the clock, and a reconciliation after concurrent calls.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { add, multiply, subtract, sum } from '../../sandbox/decimal.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import {
  call,
  defaultFixture,
  documentOf,
  type OperationId,
  ordinaryKey,
  partnerKey,
  present,
} from './helpers.ts';

// The default fixture's printed key holds seeded positions and OTO/OCO orders (for the documents'
// request examples) and a large collateral balance: these tests start from an account with
// neither, 1200 USDT of collateral, so that each figure comes from what the test itself did.
const fixture = defaultFixture();
const key = partnerKey(fixture);
for (const account of fixture.accounts) {
  if (account.id !== key.account) continue;
  account.collateralPositions = [];
  account.otoOrders = [];
  account.ocoOrders = [];
  for (const item of account.collateralBalances ?? []) {
    if (item.asset !== 'USDT') continue;
    item.balance = '1200';
    item.availableWithoutBorrow = '1200';
    item.availableWithBorrow = '6000';
  }
}
// A second account with collateral, for a queue with more than one position in it.
const rival = ordinaryKey(fixture);
for (const account of fixture.accounts) {
  if (account.id !== rival.account) continue;
  account.collateralBalances = [
    {
      asset: 'USDT',
      balance: '1200',
      borrow: '0',
      availableWithoutBorrow: '1200',
      availableWithBorrow: '6000',
    },
  ];
}
const start = Date.UTC(2024, 0, 1, 1);
let now = start;
let sandbox: Sandbox;

beforeEach(async () => {
  now = start;
  sandbox = await startSandbox({ port: 0, strict: true, fixture, clock: () => now });
});
afterEach(async () => {
  await sandbox.close();
  expect(sandbox.violations).toEqual([]);
});

const usdt = () =>
  sandbox.state.account(key.account).collateral.find((item) => item.asset === 'USDT')?.balance;
const post = async <Id extends OperationId>(operationId: Id, fields: Record<string, unknown>) => {
  now += 1;
  return call(sandbox.url, key, operationId, { fields });
};
const market = (side: 'buy' | 'sell', amount: string, extra: Record<string, unknown> = {}) =>
  post('createCollateralMarketOrder', { market: 'BTC_PERP', side, amount, ...extra });
const positions = async () => (await post('listOpenPositions', {})).body;

describe('collateral positions', () => {
  it('an order opens a position under leverage, a second grows it, PnL follows the price', async () => {
    const first = await market('buy', '0.01');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: 'FILLED',
      dealStock: '0.01',
      dealMoney: '351',
      dealFee: '0.19305',
    });
    const second = await market('buy', '0.02');
    expect(second.status).toBe(200);
    let open = await positions();
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      market: 'BTC_PERP',
      amount: '0.03',
      basePrice: '35100',
      positionSide: 'BOTH',
    });
    expect(open[0]?.margin).toBe('105.3'); // 1053 / 10
    sandbox.setPrice('BTC_PERP', '36100');
    open = await positions();
    expect(open[0]?.unrealizedPnl).toBe('30');
    const summary = (await post('getCollateralAccountSummary', {})).body;
    expect(summary.equity).toBe(add(usdt() as string, '30'));
    expect(summary.pnl).toBe('30');
    expect(summary.leverage).toBe(10);
  });

  it('refuses an order the margin cannot carry, with the named example, and changes nothing', async () => {
    const before = JSON.stringify(sandbox.state.snapshot());
    const refused = await market('buy', '1');
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual(documentOf('createCollateralMarketOrder').example('notEnoughBalance').value);
    expect(JSON.stringify(sandbox.state.snapshot())).toBe(before);
  });

  it('an opposite order closes and settles realized PnL and fees exactly into the balance', async () => {
    const seeded = usdt() as string;
    await market('buy', '0.02');
    sandbox.setPrice('BTC_PERP', '34100.5');
    const [position] = await positions();
    const closed = await market('sell', '0.02');
    expect(closed.status).toBe(200);
    expect(await positions()).toEqual([]);
    const openFee = '0.3861'; // 702 × 0.055 %
    const closeFee = '0.375106'; // 682.01 × 0.055 %, rounded up to 6 places
    const realized = subtract(multiply('0.02', '34100.5'), '702');
    expect(usdt()).toBe(subtract(subtract(add(seeded, realized), openFee), closeFee));
    const [pnl] = (await post('listClosedPositionPnl', {})).body;
    expect(pnl).toMatchObject({
      positionId: position?.positionId,
      grossPnl: realized,
      totalTradeFee: add(openFee, closeFee),
    });
    const history = (await post('listPositionHistory', { positionId: position?.positionId })).body;
    expect(history).toHaveLength(2);
  });

  it('one-way mode nets opposite orders; hedge mode keeps long and short apart', async () => {
    await market('buy', '0.02');
    await market('sell', '0.03');
    let open = await positions();
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ amount: '-0.01', positionSide: 'BOTH' });
    await market('buy', '0.01');
    expect((await post('setHedgeMode', { hedgeMode: true })).status).toBe(200);
    expect((await post('getHedgeMode', {})).body).toEqual({ hedgeMode: true });
    await market('buy', '0.02', { positionSide: 'LONG' });
    await market('sell', '0.01', { positionSide: 'SHORT' });
    open = await positions();
    expect(open.map((p) => [p.positionSide, p.amount]).sort()).toEqual([
      ['LONG', '0.02'],
      ['SHORT', '-0.01'],
    ]);
  });

  it('places each perpetual position in the ADL queue by its return on margin', async () => {
    expect((await post('getAdlQuantile', {})).body).toEqual([]);
    expect((await post('setHedgeMode', { hedgeMode: true })).status).toBe(200);
    await market('buy', '0.02', { positionSide: 'LONG' });
    await market('sell', '0.01', { positionSide: 'SHORT' });
    // A position on a spot collateral market is not in a perpetual queue.
    await post('createCollateralMarketOrder', { market: 'BTC_USDT', side: 'buy', amount: '0.01' });
    sandbox.setPrice('BTC_PERP', '36100');
    now += 1;
    const rivalLong = await call(sandbox.url, rival, 'createCollateralMarketOrder', {
      fields: { market: 'BTC_PERP', side: 'buy', amount: '0.01' },
    });
    expect(rivalLong.status).toBe(200);
    sandbox.setPrice('BTC_PERP', '37100');
    // Both longs gain; this account's, opened lower, gains more on its margin: the top fifth.
    // The rival's is the lower of two: ceil(5 × 1/2) − 1 = 2. The losing short is last (0).
    expect((await post('getAdlQuantile', {})).body).toEqual([{ market: 'BTC_PERP', long: 4, short: 0 }]);
    now += 1;
    expect((await call(sandbox.url, rival, 'getAdlQuantile', { fields: {} })).body).toEqual([
      { market: 'BTC_PERP', long: 2, short: null },
    ]);
    sandbox.setPrice('BTC_PERP', '34100');
    expect((await post('getAdlQuantile', {})).body).toEqual([{ market: 'BTC_PERP', long: 0, short: 4 }]);
  });

  it('leverage and hedge mode cannot change with a position open', async () => {
    expect((await post('setCollateralLeverage', { leverage: 5 })).body).toEqual({ leverage: 5 });
    await market('buy', '0.01');
    const leverage = await post('setCollateralLeverage', { leverage: 20 });
    expect(leverage.body).toEqual(documentOf('setCollateralLeverage').example('openPositionsOrOrders').value);
    const mode = await post('setHedgeMode', { hedgeMode: true });
    expect(mode.body).toEqual(documentOf('setHedgeMode').example('openPositionsOrOrders').value);
    expect((await post('getCollateralAccountSummary', {})).body.leverage).toBe(5);
  });

  it('funding is paid on the clock, exactly, and read by both funding operations', async () => {
    await market('buy', '0.02');
    const seeded = usdt() as string;
    sandbox.setPrice('BTC_PERP', '36000');
    now = Date.UTC(2024, 0, 1, 8);
    sandbox.settle();
    const paid = multiply(multiply('0.02', '36000'), '0.0001');
    expect(usdt()).toBe(subtract(seeded, paid));
    const payments = (await post('listFundingPayments', { market: 'BTC_PERP' })).body.records;
    expect(payments).toEqual([
      expect.objectContaining({
        market: 'BTC_PERP',
        fundingAmount: `-${paid}`,
        positionAmount: '0.02',
        fundingRate: '0.0001',
      }),
    ]);
    const history = await fetch(`${sandbox.url}/api/v4/public/funding-history/BTC_PERP`);
    expect(await history.json()).toEqual([
      expect.objectContaining({ market: 'BTC_PERP', fundingRate: '0.0001', settlementPrice: '36000' }),
    ]);
    const unknown = await fetch(`${sandbox.url}/api/v4/public/funding-history/NOPE_PERP`);
    expect(unknown.status).toBe(422);
  });

  it('OTO and OCO orders are listed as placed', async () => {
    const placed = await post('createCollateralLimitOrder', {
      market: 'BTC_PERP',
      side: 'buy',
      amount: '0.01',
      price: '34000',
      stopLoss: '33000',
      takeProfit: '37000',
    });
    const otoId = present(placed.body.oto, 'the OTO order').otoId;
    const oco = await post('createCollateralOcoOrder', {
      market: 'BTC_PERP',
      side: 'buy',
      amount: '0.01',
      price: '34000',
      activation_price: '36000',
      stop_limit_price: '36100',
    });
    expect(oco.status).toBe(200);
    const listed = (await post('listConditionalOrders', { market: 'BTC_PERP' })).body;
    expect(listed.records.map((r: { id: number }) => r.id).sort()).toEqual([otoId, oco.body.id].sort());
    expect((await post('listOcoOrders', {})).body).toHaveLength(1);
  });

  it('300 concurrent mixed calls reconcile exactly', async () => {
    const seeded = usdt() as string;
    const calls = Array.from({ length: 300 }, (_, i) => {
      const kind = i % 5;
      if (kind === 0 || kind === 1) return market(i % 2 ? 'sell' : 'buy', '0.001');
      if (kind === 2)
        return post('createCollateralLimitOrder', {
          market: 'BTC_PERP',
          side: 'buy',
          amount: '0.001',
          price: '34000',
        });
      if (kind === 3)
        return positions().then(([first]) => {
          const amount = first?.amount;
          return amount
            ? market(amount.startsWith('-') ? 'buy' : 'sell', amount.replace('-', ''))
            : undefined;
        });
      return post('cancelAllOrders', { market: 'BTC_PERP' });
    });
    const replies = await Promise.all(calls);
    for (const reply of replies) if (reply) expect(reply.status).toBeLessThan(500);
    sandbox.setPrice('BTC_PERP', '35555.5');
    const state = sandbox.state;
    const open = await positions();
    const unrealized = sum(open.map((p: { unrealizedPnl: string }) => p.unrealizedPnl));
    const { collateralOf } = await import('../../sandbox/collateral.ts');
    const ledger = collateralOf(state, state.account(key.account)).ledger;
    expect(usdt()).toBe(add(subtract(add(seeded, ledger.realized), ledger.fees), ledger.funding));
    const summary = (await post('getCollateralAccountSummary', {})).body;
    expect(summary.equity).toBe(add(usdt() as string, unrealized));
    const closed = (await post('listClosedPositionPnl', { limit: 100 })).body as { grossPnl: string }[];
    const partial = sum(open.map((p) => present(p.pnl, "a position's pnl")));
    if (closed.length < 100)
      expect(add(sum(closed.map((row) => row.grossPnl)), partial)).toBe(ledger.realized);
  });
});
