// The sandbox's market moves: a seeded walk of its clock moves each price and trades at every
// step, the same seed giving the same run; every fill of an account is a public trade too; the
// recent trades, the 24-hour ticker and the candles are computed from those trades and agree with
// one another and with the deals; the order book shows the accounts' resting orders at their
// prices beside other participants' orders; and the control outside the API sets a price and
// moves the clock for a sandbox in another process. Fake clocks only: no test waits.
import { afterEach, describe, expect, it } from 'vitest';
import { credentialKey } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { call, decimalText, defaultFixture, documentOf, get, present, units } from './helpers.ts';

const started: Sandbox[] = [];
afterEach(async () => {
  for (const sandbox of started.splice(0)) {
    await sandbox.close();
    expect(sandbox.violations).toEqual([]);
  }
});

async function moving(seed = 7) {
  const clock = { now: Date.UTC(2026, 0, 1) };
  const sandbox = await startSandbox({
    port: 0,
    strict: true,
    clock: () => clock.now,
    walk: { seed, stepSeconds: 5 },
  });
  started.push(sandbox);
  sandbox.settle();
  return { sandbox, clock };
}

const sum = (values: string[]) => decimalText(values.reduce((total, value) => total + units(value), 0n));

describe('the walk', () => {
  it('moves the prices step by step, and the same seed and clock give the same run', async () => {
    const runs = [];
    for (const _ of [1, 2]) {
      const { sandbox, clock } = await moving(7);
      clock.now += 10 * 60_000;
      const reply = await get(sandbox.url, 'listRecentTrades', { market: 'BTC_USDT' });
      runs.push({ trades: reply.body, price: sandbox.state.market('BTC_USDT').price });
    }
    const [first, second] = runs;
    // 10 minutes at a step every 5 s: 120 trades of the walk, the newest first.
    expect(first?.trades).toHaveLength(100);
    expect(second).toEqual(first);
    const other = await moving(8);
    other.clock.now += 10 * 60_000;
    other.sandbox.settle();
    expect(other.sandbox.state.market('BTC_USDT').price).not.toBe(first?.price);
    // The newest trade is at the price the market is at.
    expect(first?.trades[0]?.price).toBe(first?.price);
  });

  it("a fill is a public trade, and the ticker and candles add up the day's trades", async () => {
    const { sandbox, clock } = await moving();
    const key = credentialKey(defaultFixture());
    clock.now += 60 * 60_000;
    const placed = await call(sandbox.url, key, 'createMarketOrder', {
      fields: { market: 'BTC_USDT', side: 'buy', amount: '100' },
    });
    expect(placed.status).toBe(200);
    const deals = await call(sandbox.url, key, 'listOrderDeals', {
      fields: { orderId: placed.body.orderId },
    });
    const [deal] = deals.body.records;
    const trades = await get(sandbox.url, 'listRecentTrades', { market: 'BTC_USDT', type: 'buy' });
    expect(trades.body[0]).toMatchObject({ price: deal?.price, quote_volume: deal?.amount, type: 'buy' });

    clock.now += 60_000;
    const all = sandbox.state;
    const dayTrades = (await get(sandbox.url, 'listRecentTrades', { market: 'BTC_USDT' })).body as {
      price: string;
      quote_volume: string;
      base_volume: string;
    }[];
    const ticker = present((await get(sandbox.url, 'listTickers', {})).body.BTC_USDT, 'the BTC_USDT ticker');
    expect(ticker.last_price).toBe(all.market('BTC_USDT').price);
    const candles = await get(sandbox.url, 'listCandles', { market: 'BTC_USDT', interval: '1h' });
    expect(candles.body.success).toBe(true);
    const rows = candles.body.result as [number, string, string, string, string, string, string][];
    // The hour's candles hold what the walk and the fill traded: the same amounts as the ticker.
    expect(sum(rows.map((row) => row[5]))).toBe(decimalText(units(ticker.base_volume)));
    expect(sum(rows.map((row) => row[6]))).toBe(decimalText(units(ticker.quote_volume)));
    expect(dayTrades.length).toBe(100);
    // The last candle closes at the last trade's price.
    expect(rows.at(-1)?.[2]).toBe(dayTrades[0]?.price);
  });

  it('the order book shows a resting order at its price, on top of other participants', async () => {
    const { sandbox } = await moving();
    const key = credentialKey(defaultFixture());
    const price = sandbox.state.market('BTC_USDT').price;
    const before = (await get(sandbox.url, 'getOrderBook', { market: 'BTC_USDT', limit: 100 })).body;
    const level = present(before.bids[5]?.[0], 'the sixth bid');
    const resting = await call(sandbox.url, key, 'createLimitOrder', {
      fields: { market: 'BTC_USDT', side: 'buy', amount: '0.25', price: level },
    });
    expect(resting.status).toBe(200);
    const after = (await get(sandbox.url, 'getOrderBook', { market: 'BTC_USDT', limit: 100 })).body;
    const amountAt = (book: { bids: string[][] }) => book.bids.find(([at]) => at === level)?.[1] ?? '0';
    expect(decimalText(units(amountAt(after)) - units(amountAt(before)))).toBe('0.25');
    // Asks start at the price a buy fills at; bids below it.
    expect(after.asks[0]?.[0]).toBe(price);
    expect(units(present(after.bids[0]?.[0], 'the best bid'))).toBeLessThan(units(price));
  });
  it('the futures market list reads the perpetual market as the ticker, the book and the positions do', async () => {
    const { sandbox, clock } = await moving();
    const key = credentialKey(defaultFixture());
    clock.now += 30 * 60_000;
    const perpetual = async () =>
      present((await get(sandbox.url, 'listFuturesMarkets', {})).body.result[0], 'the perpetual market');
    const interest = async () => (await perpetual()).open_interest;
    const before = await interest();
    const opened = await call(sandbox.url, key, 'createCollateralMarketOrder', {
      fields: { market: 'BTC_PERP', side: 'buy', amount: '0.05' },
    });
    expect(opened.status).toBe(200);
    // A long position grew by what the order bought: so did the open interest.
    expect(decimalText(units(await interest()) - units(before))).toBe('0.05');
    const row = await perpetual();
    const ticker = present((await get(sandbox.url, 'listTickers', {})).body.BTC_PERP, 'the BTC_PERP ticker');
    const book = (await get(sandbox.url, 'getOrderBook', { market: 'BTC_PERP', limit: 1 })).body;
    expect(row).toMatchObject({
      ticker_id: 'BTC_PERP',
      last_price: ticker.last_price,
      stock_volume: ticker.base_volume,
      money_volume: ticker.quote_volume,
      bid: book.bids[0]?.[0],
      ask: book.asks[0]?.[0],
      index_price: sandbox.state.market('BTC_PERP').price,
    });
    // The next settlement is ahead on the sandbox's clock, within one interval.
    const next = Number(row.next_funding_rate_timestamp);
    expect(next).toBeGreaterThan(clock.now);
    expect(next - clock.now).toBeLessThanOrEqual(row.funding_interval_minutes * 60_000);
  });
});

describe('the control outside the API', () => {
  it('sets a price, which fills a resting order it passes, and moves the clock', async () => {
    const { sandbox } = await moving();
    const key = credentialKey(defaultFixture());
    const resting = await call(sandbox.url, key, 'createLimitOrder', {
      fields: { market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '30000' },
    });
    const set = await fetch(`${sandbox.url}/sandbox/price`, {
      method: 'POST',
      body: JSON.stringify({ market: 'BTC_USDT', price: '29999.5' }),
    });
    expect(set.status).toBe(200);
    const history = await call(sandbox.url, key, 'listOrderDeals', {
      fields: { orderId: resting.body.orderId },
    });
    expect(history.body.records[0]).toMatchObject({ price: '30000', amount: '0.01' });

    const before = (await get(sandbox.url, 'getServerTime', {})).body.time;
    const moved = await fetch(`${sandbox.url}/sandbox/clock`, {
      method: 'POST',
      body: JSON.stringify({ advanceSeconds: 3600 }),
    });
    expect(moved.status).toBe(200);
    expect((await get(sandbox.url, 'getServerTime', {})).body.time).toBe(before + 3600);
  });

  it('refuses what it cannot do, naming the field', async () => {
    const { sandbox } = await moving();
    const refused = await fetch(`${sandbox.url}/sandbox/price`, {
      method: 'POST',
      body: JSON.stringify({ market: 'BTC_USDT', price: '-1' }),
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatch(/price/);
  });

  it('a market the sandbox does not trade is the documents’ refusal', async () => {
    const { sandbox } = await moving();
    const reply = await get(sandbox.url, 'getOrderBook', { market: 'NOPE_USDT' });
    const refusal = documentOf('getOrderBook').example('marketNotAvailable');
    expect(reply.status).toBe(refusal.status);
    expect(reply.body).toEqual(refusal.value);
  });
});
