// The public market data answers from the fixture, so that an outside client sees the markets
// the sandbox trades; a market whose delisting date passes on the sandbox's clock stops trading
// and its open orders are cancelled, giving back what they held.
import { afterEach, describe, expect, it } from 'vitest';
import type { Fixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { call, defaultFixture, documentOf, partnerKey, units } from './helpers.ts';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  expect(sandbox?.violations).toEqual([]);
});

const get = async (path: string) => {
  const response = await fetch(`${(sandbox as Sandbox).url}${path}`);
  return { status: response.status, body: await response.json() };
};

describe('public market data', () => {
  it('lists the trading markets of the fixture with their rules and defaults, not the sandbox price', async () => {
    const fixture = defaultFixture();
    sandbox = await startSandbox({ port: 0, strict: true, fixture });
    const { status, body } = await get('/api/v4/public/markets');
    expect(status).toBe(200);
    const trading = fixture.markets.filter((market) => market.tradesEnabled !== false);
    expect(trading.length).toBeLessThan(fixture.markets.length);
    expect(body.map((market: { name: string }) => market.name)).toEqual(trading.map((market) => market.name));
    for (const [index, { price: _, ...facts }] of trading.entries()) {
      expect(body[index]).toEqual({
        tradesEnabled: true,
        isCollateral: false,
        isTradFiFutures: false,
        delistedAt: null,
        tickSize: '',
        stepSize: '',
        ...facts,
      });
    }
  });

  it('lists the assets of the fixture as it gives them', async () => {
    const fixture = defaultFixture();
    sandbox = await startSandbox({ port: 0, strict: true, fixture });
    expect(await get('/api/v4/public/assets')).toEqual({ status: 200, body: fixture.assets });
  });
});

describe('a market whose delisting date passes', () => {
  it('is no longer listed, takes no order, and its open orders are cancelled', async () => {
    let now = Date.UTC(2031, 0, 1);
    const delistedAt = now / 1000 + 3600;
    const fixture: Fixture = defaultFixture();
    const ethUsdt = fixture.markets.find((market) => market.name === 'ETH_USDT');
    if (!ethUsdt) throw new Error('the fixture has no ETH_USDT');
    ethUsdt.delistedAt = delistedAt;
    const key = partnerKey(fixture);
    sandbox = await startSandbox({ port: 0, strict: true, fixture, clock: () => now });
    const order = { market: 'ETH_USDT', side: 'sell', amount: '1', price: '2500' };
    expect((await call(sandbox.url, key, 'createLimitOrder', { fields: order })).status).toBe(200);
    const listed = async () =>
      (await get('/api/v4/public/markets')).body.map((m: { name: string }) => m.name);
    expect(await listed()).toContain('ETH_USDT');
    const eth = () => sandbox?.state.account(key.account).trade.get('ETH');
    expect(units(eth()?.frozen ?? '0')).toBeGreaterThan(0n);

    now = delistedAt * 1000;
    expect(await listed()).not.toContain('ETH_USDT');
    const refused = await call(sandbox.url, key, 'createLimitOrder', { fields: order });
    expect(refused).toMatchObject({
      status: 422,
      body: documentOf('createLimitOrder').example('marketNotAvailable').value,
    });
    expect(eth()?.frozen).toBe('0');
    const cancelled = sandbox.state
      .account(key.account)
      .closed.filter((closed) => closed.market === 'ETH_USDT');
    expect(cancelled.length).toBeGreaterThan(1);
    expect(
      cancelled.every((closed) => closed.status === 'CANCELED' && closed.finishedAt === delistedAt),
    ).toBe(true);
  });
});
