// The kill switch on the sandbox's clock: a timer per market that, unless set again in time,
// cancels the market's open orders of its kinds when it runs out. The test moves a fake clock in
// explicit steps; nothing waits on real time.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Fixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { call, defaultFixture, documentOf, type OperationId, partnerKey, units } from './helpers.ts';

let fixture: Fixture;
let sandbox: Sandbox;
let now: number;
const start = Date.UTC(2031, 6, 1, 9);
const key = () => partnerKey(fixture);

beforeEach(async () => {
  fixture = defaultFixture();
  now = start;
  sandbox = await startSandbox({ port: 0, strict: true, fixture, clock: () => now });
});
afterEach(async () => {
  await sandbox.close();
  expect(sandbox.violations).toEqual([]);
});

const ask = <Id extends OperationId>(operationId: Id, fields: Record<string, unknown> = {}) =>
  call(sandbox.url, key(), operationId, { fields });
const open = () => [...sandbox.state.account(key().account).orders.values()];
const openIn = (market: string) => open().filter((order) => order.market === market);

describe('kill switch', () => {
  it('cancels the market’s open orders of its kinds when it runs out, and only those', async () => {
    const set = await ask('setKillSwitch', { market: 'BTC_USDT', timeout: '60', types: ['spot'] });
    expect(set).toMatchObject({
      status: 200,
      body: {
        market: 'BTC_USDT',
        startTime: start / 1000,
        cancellationTime: start / 1000 + 60,
        types: ['spot'],
      },
    });
    expect((await ask('getKillSwitchStatus')).body).toEqual([set.body]);
    const spot = openIn('BTC_USDT').filter((order) => order.kind === 'spot');
    const margin = openIn('BTC_USDT').filter((order) => order.kind === 'margin');
    const elsewhere = open().filter((order) => order.market !== 'BTC_USDT');
    expect(spot.length).toBeGreaterThan(0);
    expect(spot.every((order) => order.hold?.asset === 'USDT')).toBe(true);
    expect(margin.length).toBeGreaterThan(0);

    now = start + 59_999;
    sandbox.settle();
    expect(openIn('BTC_USDT')).toHaveLength(spot.length + margin.length);

    now = start + 60_000;
    sandbox.settle();
    expect(openIn('BTC_USDT')).toEqual(margin);
    expect(open().filter((order) => order.market !== 'BTC_USDT')).toEqual(elsewhere);
    // What stays held is what the orders left open hold: the cancelled ones gave theirs back.
    const usdt = sandbox.state.account(key().account).trade.get('USDT');
    const stillHeld = open()
      .filter((order) => order.hold?.asset === 'USDT')
      .reduce((total, order) => total + units(order.hold?.amount ?? '0'), 0n);
    expect(units(usdt?.frozen ?? '0')).toBe(stillHeld);
    const cancelled = sandbox.state.account(key().account).closed;
    expect(cancelled.map((order) => order.orderId).sort()).toEqual(spot.map((order) => order.orderId).sort());
    expect(
      cancelled.every((order) => order.status === 'CANCELED' && order.finishedAt === start / 1000 + 60),
    ).toBe(true);
    expect((await ask('getKillSwitchStatus')).body).toEqual([]);
  });

  it('set again before it runs out, it runs out later', async () => {
    await ask('setKillSwitch', { market: 'ETH_USDT', timeout: '30' });
    now = start + 20_000;
    const again = await ask('setKillSwitch', { market: 'ETH_USDT', timeout: '30' });
    expect(again.body.cancellationTime).toBe(start / 1000 + 50);
    now = start + 30_000;
    sandbox.settle();
    expect(openIn('ETH_USDT').length).toBeGreaterThan(0);
    now = start + 50_000;
    sandbox.settle();
    expect(openIn('ETH_USDT')).toEqual([]);
  });

  it('without types it cancels every kind; any call applies the clock first', async () => {
    const set = await ask('setKillSwitch', { market: 'BTC_PERP', timeout: '5', types: null });
    expect(set.body.types).toEqual(['spot', 'margin', 'futures']);
    expect(openIn('BTC_PERP').length).toBeGreaterThan(0);
    now = start + 5_000;
    // No settle(): the next call sees the clock.
    expect((await ask('getKillSwitchStatus', { market: 'BTC_PERP' })).body).toEqual([]);
    expect(openIn('BTC_PERP')).toEqual([]);
  });

  it('a null timeout removes the timer: nothing is cancelled when it would have run out', async () => {
    const set = await ask('setKillSwitch', { market: 'BTC_USDT', timeout: '60', types: ['spot'] });
    const removed = await ask('setKillSwitch', { market: 'BTC_USDT', timeout: null });
    expect(removed).toMatchObject({ status: 200, body: set.body });
    expect((await ask('getKillSwitchStatus')).body).toEqual([]);
    const before = open();
    now = start + 120_000;
    sandbox.settle();
    expect(open()).toEqual(before);
  });

  it('lists the timers of one market or of all, each key its own', async () => {
    await ask('setKillSwitch', { market: 'BTC_USDT', timeout: '60' });
    await ask('setKillSwitch', { market: 'ETH_USDT', timeout: '90', types: ['margin'] });
    expect((await ask('getKillSwitchStatus')).body.map((timer: { market: string }) => timer.market)).toEqual([
      'BTC_USDT',
      'ETH_USDT',
    ]);
    expect((await ask('getKillSwitchStatus', { market: 'ETH_USDT' })).body).toEqual([
      { market: 'ETH_USDT', startTime: start / 1000, cancellationTime: start / 1000 + 90, types: ['margin'] },
    ]);
    const trader = fixture.keys.find(
      (candidate) => candidate.account === 'trader' && candidate.enabled !== false,
    );
    if (!trader) throw new Error('no trader key');
    expect((await call(sandbox.url, trader, 'getKillSwitchStatus')).body).toEqual([]);
  });

  it('refuses a timeout below 5 s with its example, above 600 s in x-messages wording, and an unknown market', async () => {
    const operation = documentOf('setKillSwitch');
    const short = operation.example('timeoutTooShort');
    expect(await ask('setKillSwitch', { market: 'BTC_USDT', timeout: '4' })).toMatchObject({
      status: short.status,
      body: short.value,
    });
    expect(await ask('setKillSwitch', { market: 'BTC_USDT', timeout: '601' })).toMatchObject({
      status: short.status,
      body: { ...(short.value as object), errors: { timeout: [operation.message('timeoutTooLong')] } },
    });
    expect((await ask('setKillSwitch', { market: 'BTC_USDT', timeout: '600' })).status).toBe(200);
    for (const operationId of ['setKillSwitch', 'getKillSwitchStatus'] as const) {
      const example = documentOf(operationId).example('marketNotAvailable');
      expect(await ask(operationId, { market: 'NOPE_USDT', timeout: '60' })).toMatchObject({
        status: example.status,
        body: example.value,
      });
    }
  });
});
