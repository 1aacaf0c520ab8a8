// Two reads of the sandbox's markets: the account's fees (the fixture markets' maker and taker
// fees, a default per kind and the markets that differ), and the orders a market's delisting
// cancelled, listed once the sandbox's (fake) clock passes its delistedAt.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fillTemplate } from '../../sandbox/document.ts';
import type { Fixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { call, defaultFixture, documentOf, ordinaryKey, partnerKey } from './helpers.ts';

let sandbox: Sandbox | undefined;
let now: number;
beforeEach(() => {
  now = Date.UTC(2031, 4, 1, 12);
});

async function start(fixture: Fixture) {
  sandbox = await startSandbox({ port: 0, strict: true, fixture, clock: () => now });
  return sandbox;
}
afterEach(async () => {
  await sandbox?.close();
  expect(sandbox?.violations).toEqual([]);
  sandbox = undefined;
});

const market = (fixture: Fixture, name: string) => {
  const found = fixture.markets.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no market ${name}`);
  return found;
};

describe("the account's fees", () => {
  it('are the fees of the fixture’s markets: a default per kind, and the markets that differ', async () => {
    const fixture = defaultFixture();
    const spot = market(fixture, 'BTC_USDT');
    const futures = market(fixture, 'BTC_PERP');
    const running = await start(fixture);
    const plain = await call(running.url, partnerKey(fixture), 'getMarketFee');
    expect(plain).toMatchObject({ status: 200 });
    expect(plain.body).toEqual({
      error: null,
      taker: spot.takerFee,
      maker: spot.makerFee,
      futures_taker: futures.takerFee,
      futures_maker: futures.makerFee,
      rpi_maker_fee_premium: null,
      futures_rpi_maker_fee_premium: null,
      custom_fee: {},
    });
    await running.close();
    expect(running.violations).toEqual([]);

    const cheaper = defaultFixture();
    Object.assign(market(cheaper, 'ETH_USDT'), { makerFee: '0.02', takerFee: '0.07' });
    const again = await start(cheaper);
    const reply = await call(again.url, ordinaryKey(cheaper), 'getMarketFee');
    expect(reply.body).toMatchObject({
      taker: spot.takerFee,
      maker: spot.makerFee,
      custom_fee: { ETH_USDT: { taker: '0.07', maker: '0.02' } },
    });
  });
});

describe('the orders a delisting closed', () => {
  const list = (running: Sandbox, fixture: Fixture, fields: Record<string, unknown> = {}) =>
    call(running.url, partnerKey(fixture), 'listDelistedOrderHistory', { fields });

  it('lists, once the clock passes delistedAt, the orders it cancelled, and no other', async () => {
    const fixture = defaultFixture();
    const delistedAt = Math.floor(now / 1000) + 3_600;
    market(fixture, 'BTC_USDT').delistedAt = delistedAt;
    const running = await start(fixture);
    const key = partnerKey(fixture);
    const seeded = running.state.account(key.account);
    const spotIds = [...seeded.orders.values()]
      .filter((order) => order.market === 'BTC_USDT' && order.kind === 'spot')
      .map((order) => order.orderId);
    expect(spotIds.length).toBeGreaterThan(0);
    // Two orders of the caller's own on the market: one cancelled before the delisting, one left open.
    const placed = async (clientOrderId: string) =>
      (
        await call(running.url, key, 'createLimitOrder', {
          fields: { market: 'BTC_USDT', side: 'buy', amount: '0.001', price: '30000', clientOrderId },
        })
      ).body.orderId as number;
    const cancelledFirst = await placed('gone-before');
    const leftOpen = await placed('left-open');
    expect(
      (
        await call(running.url, key, 'cancelOrder', {
          fields: { market: 'BTC_USDT', orderId: cancelledFirst },
        })
      ).status,
    ).toBe(200);
    expect((await list(running, fixture)).body).toEqual([]);

    now = (delistedAt + 60) * 1000;
    const reply = await list(running, fixture);
    expect(reply.status).toBe(200);
    const ids = [...spotIds, leftOpen].sort((a, b) => b - a);
    expect(reply.body.map((order: { id: number }) => order.id)).toEqual(ids);
    for (const order of reply.body) {
      expect(order).toMatchObject({
        market: 'BTC_USDT',
        finishAt: delistedAt,
        status: 'canceled',
        delistingKind: 'canceled',
        feeAsset: 'USDT',
      });
    }
    expect(reply.body.find((order: { id: number }) => order.id === leftOpen)).toMatchObject({
      clientOrderId: 'left-open',
      amount: '0.001',
      price: '30000',
      dealStock: '0',
      fee: '0',
    });
    // The filters: the kind, the market, the window.
    expect((await list(running, fixture, { status: 'delisting' })).body).toHaveLength(ids.length);
    expect((await list(running, fixture, { status: 'filled' })).body).toEqual([]);
    expect((await list(running, fixture, { market: 'ETH_USDT' })).body).toEqual([]);
    expect((await list(running, fixture, { startDate: delistedAt + 1 })).body).toEqual([]);
    expect(
      (await list(running, fixture, { limit: 1, offset: 1 })).body.map((o: { id: number }) => o.id),
    ).toEqual([ids[1]]);
    // Another account's orders are not the caller's.
    const other = await call(running.url, ordinaryKey(fixture), 'listDelistedOrderHistory', { fields: {} });
    expect(other.body).toEqual([]);
  });

  it('refuses a window that starts after it ends or is longer than 31 days, and a page past 10000', async () => {
    const fixture = defaultFixture();
    const running = await start(fixture);
    const operation = documentOf('listDelistedOrderHistory');
    const shape = operation.example(operation.validationExampleName()).value as object;
    const worded = (field: string, message: string, values = {}) => ({
      ...shape,
      errors: { [field]: [fillTemplate(operation.message(message), values)] },
    });
    const end = Math.floor(now / 1000);
    expect((await list(running, fixture, { startDate: end - 10, endDate: end - 20 })).body).toEqual(
      worded('startDate', 'startAfterEnd'),
    );
    expect((await list(running, fixture, { startDate: end - 32 * 86_400, endDate: end })).body).toEqual(
      worded('endDate', 'windowTooLong'),
    );
    expect((await list(running, fixture, { offset: 9_600, limit: 500 })).body).toEqual(
      worded('offset', 'pageTooDeep', { most: '10000' }),
    );
    expect((await list(running, fixture, { offset: 9_500, limit: 500 })).status).toBe(200);
  });
});
