// What the trading reads answer: the trade balance, the open orders, the deals (all of them and
// one order's) and the order history, with their filters, pages and windows, on a sandbox whose
// clock the test moves.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Fixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { call, defaultFixture, documentOf, type OperationId, partnerKey } from './helpers.ts';

let fixture: Fixture;
let sandbox: Sandbox;
let now: number;
const start = Date.UTC(2031, 4, 15, 12);
const key = () => partnerKey(fixture);

async function open(customize: (fixture: Fixture) => void = () => {}) {
  fixture = defaultFixture();
  customize(fixture);
  now = start;
  sandbox = await startSandbox({ port: 0, strict: true, fixture, clock: () => now });
}
beforeEach(() => open());
afterEach(async () => {
  await sandbox.close();
  expect(sandbox.violations).toEqual([]);
});

const ask = async <Id extends OperationId>(operationId: Id, fields: Record<string, unknown> = {}) => {
  const reply = await call(sandbox.url, key(), operationId, { fields });
  return reply;
};
const placed = async (
  fields: Record<string, unknown>,
  operationId: 'createLimitOrder' | 'createMarketOrder' | 'createStockMarketOrder' = 'createLimitOrder',
) => {
  const reply = await ask(operationId, fields);
  expect(reply.status).toBe(200);
  return reply.body;
};

describe('trade balance', () => {
  it('lists every asset with something available or held, as the state holds it', async () => {
    await placed({ market: 'ETH_USDT', side: 'sell', amount: '2', price: '2500' });
    const reply = await ask('getTradeBalance');
    expect(reply.status).toBe(200);
    const expected = Object.fromEntries(
      [...sandbox.state.account(key().account).trade]
        .filter(([, { available, frozen }]) => available !== '0' || frozen !== '0')
        .map(([ticker, { available, frozen }]) => [ticker, { available, freeze: frozen }]),
    );
    expect(reply.body).toEqual(expected);
    expect(Object.keys(expected).sort()).toEqual(['BTC', 'ETH', 'USDT']);
    expect(reply.body.ETH?.freeze).toBe('2.5'); // the fixture's stop-limit sell of 0.5 and this one
  });

  it('narrows to one ticker, "0" for an asset without balance, and refuses an unknown one', async () => {
    expect((await ask('getTradeBalance', { ticker: 'ETH' })).body).toEqual({
      ETH: { available: '50', freeze: '0.5' },
    });
    expect((await ask('getTradeBalance', { ticker: 'USDC' })).body).toEqual({
      USDC: { available: '0', freeze: '0' },
    });
    const unknown = documentOf('getTradeBalance').example('unknownTicker');
    expect(await ask('getTradeBalance', { ticker: 'DOGE' })).toMatchObject({
      status: unknown.status,
      body: unknown.value,
    });
  });
});

describe('active orders', () => {
  it('lists the open spot orders in the order they were placed, with every filter and page', async () => {
    const first = await placed({
      market: 'BTC_USDT',
      side: 'buy',
      amount: '0.01',
      price: '34000',
      clientOrderId: 'a-1',
    });
    const second = await placed({ market: 'BTC_USDT', side: 'sell', amount: '0.01', price: '36000' });
    const third = await placed({ market: 'ETH_USDT', side: 'sell', amount: '0.1', price: '2500' });
    const all = (await ask('listActiveOrders')).body.map((order: { orderId: number }) => order.orderId);
    const seeded = (fixture.accounts.find((a) => a.id === key().account)?.openOrders ?? [])
      .filter((order) => (order.kind ?? 'spot') === 'spot')
      .map((order) => order.orderId);
    expect(all).toEqual([...seeded, first.orderId, second.orderId, third.orderId]);

    const btc = (await ask('listActiveOrders', { market: 'BTC_USDT' })).body;
    expect(btc.every((order: { market: string }) => order.market === 'BTC_USDT')).toBe(true);
    expect((await ask('listActiveOrders', { market: 'BTC_USDT', clientOrderId: 'a-1' })).body).toEqual([
      expect.objectContaining({ orderId: first.orderId, clientOrderId: 'a-1', status: 'NEW' }),
    ]);
    expect((await ask('listActiveOrders', { orderId: third.orderId })).body).toHaveLength(1);
    const page = (await ask('listActiveOrders', { limit: 2, offset: 1 })).body;
    expect(page.map((order: { orderId: number }) => order.orderId)).toEqual(all.slice(1, 3));
  });

  it('refuses an unknown market with its own example', async () => {
    const example = documentOf('listActiveOrders').example('marketNotAvailable');
    expect(await ask('listActiveOrders', { market: 'NOPE_USDT' })).toMatchObject({
      status: example.status,
      body: example.value,
    });
  });
});

describe('deals', () => {
  it('lists the fills newest first: a list for one market, keyed by market for all', async () => {
    const bought = await placed(
      { market: 'BTC_USDT', side: 'buy', amount: '100', clientOrderId: 'dca-1' },
      'createMarketOrder',
    );
    now += 1_000;
    const sold = await placed({ market: 'ETH_USDT', side: 'sell', amount: '0.25' }, 'createMarketOrder');
    now += 1_000;
    const again = await placed(
      { market: 'BTC_USDT', side: 'buy', amount: '0.001' },
      'createStockMarketOrder',
    );

    const btc = (await ask('listExecutedDeals', { market: 'BTC_USDT' })).body;
    // One market: a list; every market: lists keyed by market.
    if (!Array.isArray(btc)) throw new Error(`not a list: ${JSON.stringify(btc)}`);
    expect(btc.map((deal) => deal.orderId)).toEqual([again.orderId, bought.orderId]);
    expect(btc[1]).toMatchObject({
      clientOrderId: 'dca-1',
      side: 'buy',
      role: 2,
      amount: '0.002849',
      price: '35100',
      deal: '99.9999',
      fee: '0.1',
      feeAsset: 'USDT',
      time: start / 1000,
    });
    const everyMarket = (await ask('listExecutedDeals')).body;
    if (Array.isArray(everyMarket)) throw new Error('every market: lists keyed by market, not one list');
    expect(Object.keys(everyMarket).sort()).toEqual(['BTC_USDT', 'ETH_USDT']);
    expect(everyMarket.ETH_USDT).toEqual([expect.objectContaining({ orderId: sold.orderId, side: 'sell' })]);

    expect(
      (await ask('listExecutedDeals', { market: 'BTC_USDT', clientOrderId: 'dca-1' })).body,
    ).toHaveLength(1);
    const window = { startDate: start / 1000 + 1, endDate: start / 1000 + 1 };
    expect((await ask('listExecutedDeals', window)).body).toEqual({ ETH_USDT: [expect.anything()] });
    expect((await ask('listExecutedDeals', { limit: 1, offset: 1 })).body).toEqual({
      ETH_USDT: [expect.anything()],
    });
  });

  it('keeps six months, from the start of the month: older deals are not listed', async () => {
    await placed({ market: 'ETH_USDT', side: 'sell', amount: '0.25' }, 'createMarketOrder');
    now = Date.UTC(2031, 10, 1); // the deal was in May; six months back from November is May
    expect((await ask('listExecutedDeals')).body).toEqual({ ETH_USDT: [expect.anything()] });
    now = Date.UTC(2031, 11, 1);
    expect((await ask('listExecutedDeals')).body).toEqual({});
  });

  it("one order's deals, with the other side's order and the maker or taker role", async () => {
    const order = await placed({ market: 'BTC_USDT', side: 'sell', amount: '0.01', price: '36000' });
    sandbox.setPrice('BTC_USDT', '36000');
    const reply = await ask('listOrderDeals', { orderId: order.orderId });
    expect(reply.body).toEqual({
      records: [
        {
          id: expect.any(Number),
          dealOrderId: expect.any(Number),
          clientOrderId: '',
          time: start / 1000,
          role: 1,
          amount: '0.01',
          price: '36000',
          deal: '360',
          fee: '0.36',
          feeAsset: 'USDT',
          rpi: false,
        },
      ],
      offset: 0,
      limit: 50,
    });
    expect(reply.body.records[0]?.dealOrderId).not.toBe(order.orderId);
    // An order without deals, or of nobody, has none.
    expect((await ask('listOrderDeals', { orderId: 1 })).body).toEqual({ records: [], offset: 0, limit: 50 });
  });
});

describe('order history', () => {
  it('lists the filled and cancelled orders keyed by market, newest first', async () => {
    const filled = await placed({ market: 'BTC_USDT', side: 'buy', amount: '100' }, 'createMarketOrder');
    now += 1_000;
    const resting = await placed({
      market: 'BTC_USDT',
      side: 'buy',
      amount: '0.01',
      price: '30000',
      clientOrderId: 'c-1',
    });
    await ask('cancelOrder', { market: 'BTC_USDT', orderId: resting.orderId });
    const reply = await ask('listOrderHistory', { market: 'BTC_USDT' });
    expect(reply.status).toBe(200);
    expect(reply.body.BTC_USDT?.map((order) => order.id)).toEqual([resting.orderId, filled.orderId]);
    expect(reply.body.BTC_USDT?.[0]).toMatchObject({
      clientOrderId: 'c-1',
      status: 'CANCELED',
      ctime: start / 1000 + 1,
      ftime: start / 1000 + 1,
      dealStock: '0',
      feeAsset: 'USDT',
      takerFee: '0.001',
      makerFee: '0.001',
    });
    expect(reply.body.BTC_USDT?.[1]).toMatchObject({
      type: 'market',
      status: 'FILLED',
      dealMoney: '99.9999',
      dealFee: '0.1',
    });
  });

  it('by default, the last month; an older order needs a window that reaches it', async () => {
    await placed({ market: 'ETH_USDT', side: 'sell', amount: '0.25' }, 'createMarketOrder');
    now = start + 40 * 86_400_000;
    expect((await ask('listOrderHistory')).body).toEqual({});
    const window = { startDate: start / 1000 - 86_400, endDate: start / 1000 + 86_400 };
    expect(Object.keys((await ask('listOrderHistory', window)).body)).toEqual(['ETH_USDT']);
    // An end in the future is taken as now.
    expect(
      (await ask('listOrderHistory', { startDate: now / 1000 - 86_400, endDate: now / 1000 + 1e6 })).status,
    ).toBe(200);
  });

  it('refuses a window longer than 31 days or starting more than six months back, in x-messages wording', async () => {
    const operation = documentOf('listOrderHistory');
    const shape = operation.example(operation.validationExampleName());
    const tooLong = await ask('listOrderHistory', {
      startDate: start / 1000 - 32 * 86_400,
      endDate: start / 1000,
    });
    expect(tooLong).toMatchObject({
      status: shape.status,
      body: { errors: { endDate: [operation.message('windowTooLong')] } },
    });
    const earliest = Date.UTC(2030, 10, 15) / 1000; // six months before 15 May 2031, 00:00 UTC
    const tooEarly = await ask('listOrderHistory', { startDate: earliest - 1, endDate: earliest + 86_400 });
    expect(tooEarly.body.errors).toEqual({
      startDate: [operation.message('startTooEarly').replace('{earliest}', String(earliest))],
    });
    expect((await ask('listOrderHistory', { startDate: earliest, endDate: earliest + 86_400 })).status).toBe(
      200,
    );
  });

  it('leaves cancelled orders out for an account that does not record them', async () => {
    await sandbox.close();
    await open((custom) => {
      const account = custom.accounts.find((candidate) => candidate.id === partnerKey(custom).account);
      if (account) account.recordCancelledOrders = false;
    });
    const filled = await placed({ market: 'ETH_USDT', side: 'sell', amount: '0.25' }, 'createMarketOrder');
    const resting = await placed({ market: 'ETH_USDT', side: 'sell', amount: '0.25', price: '2600' });
    await ask('cancelOrder', { market: 'ETH_USDT', orderId: resting.orderId });
    expect((await ask('listOrderHistory')).body).toEqual({
      ETH_USDT: [expect.objectContaining({ id: filled.orderId })],
    });
  });
});
