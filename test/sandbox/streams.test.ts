// The sandbox's public streams against its REST answers at the same moment: the depth snapshot is
// the REST book and its updates carry exactly the levels that changed, so that replayed onto the
// snapshot they give the REST book again; a fill is a trade of the trades stream and of the REST
// recent trades, and the candles agree; the walk's trades too, moved by the control's clock. Also
// the service requests, the keepalive on the sandbox's clock, and the refusals. Every message
// received is checked against the stream documents.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/server.ts';
import { call, defaultFixture, get, ordinaryKey, present, strictSandbox } from './helpers.ts';
import { type StreamMessage, TestStream } from './stream-client.ts';
import { schemaProblems } from './stream-schemas.ts';

const suite = strictSandbox();
const key = ordinaryKey(defaultFixture());
const streams: TestStream[] = [];

async function open(url = suite.sandbox.streamUrl): Promise<TestStream> {
  const stream = await TestStream.open(url);
  streams.push(stream);
  return stream;
}

afterEach(async () => {
  for (const stream of streams.splice(0)) {
    await stream.close();
    expect(schemaProblems(stream)).toEqual([]);
  }
});

async function control(url: string, path: 'price' | 'clock', body: unknown) {
  const response = await fetch(`${url}/sandbox/${path}`, { method: 'POST', body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return response.json();
}

type Levels = [string, string][];

/** The REST book of a market, every level the sandbox keeps, not grouped. */
async function restBook(market: string): Promise<{ asks: Levels; bids: Levels }> {
  const reply = await get(suite.sandbox.url, 'getOrderBook', { market, limit: 100, level: 0 });
  expect(reply.status).toBe(200);
  const levels = (rows: string[][]): Levels => rows.map(([price = '', amount = '']) => [price, amount]);
  return { asks: levels(reply.body.asks), bids: levels(reply.body.bids) };
}

/** Test-side: the levels of `after` that differ from `before`, a level gone as "0", sorted by price. */
function levelChanges(before: Levels, after: Levels): Levels {
  const old = new Map(before);
  const now = new Map(after);
  const changed: Levels = [];
  for (const price of new Set([...old.keys(), ...now.keys()])) {
    if (old.get(price) !== now.get(price)) changed.push([price, now.get(price) ?? '0']);
  }
  return changed.sort(([a], [b]) => Number(a) - Number(b));
}

/** Test-side: `changes` applied to a side of a book, the side sorted best first, at most `depth` levels. */
function replay(side: Levels, changes: Levels, ascending: boolean, depth: number): Levels {
  const levels = new Map(side);
  for (const [price, amount] of changes) {
    if (Number(amount) === 0) levels.delete(price);
    else levels.set(price, amount);
  }
  return [...levels]
    .sort(([a], [b]) => (ascending ? Number(a) - Number(b) : Number(b) - Number(a)))
    .slice(0, depth);
}

const byPrice = (levels: Levels) => [...levels].sort(([a], [b]) => Number(a) - Number(b));

describe('the sandbox streams its market', () => {
  it('serves on the same origin at /ws: ping answers pong, time is the REST time of the same moment', async () => {
    expect(suite.sandbox.streamUrl).toBe(`ws://127.0.0.1:${suite.sandbox.port}/ws`);
    const stream = await open();
    expect(await stream.request('ping', [])).toEqual({ id: 1, result: 'pong', error: null });
    const time = await stream.request('time', []);
    const rest = await get(suite.sandbox.url, 'getServerTime', {});
    expect(time.result).toBe(rest.body.time);
  });

  it('the depth snapshot is the REST book; each update carries exactly the levels that changed', async () => {
    const stream = await open();
    const before = await restBook('ETH_USDT');
    expect((await stream.request('depth_subscribe', ['ETH_USDT', 100, '0', false])).result).toEqual({
      status: 'success',
    });
    const snapshot = await stream.next('depth_update');
    const [whole, book, market] = snapshot.params;
    expect([whole, market]).toEqual([true, 'ETH_USDT']);
    expect({ asks: book.asks, bids: book.bids }).toEqual(before);
    expect(book.past_update_id).toBeUndefined();

    // A resting buy below the price: one bid level changes, nothing else.
    const placed = await call(suite.sandbox.url, key, 'createLimitOrder', {
      fields: { market: 'ETH_USDT', side: 'buy', amount: '0.01', price: '2049.5' },
    });
    expect(placed.status).toBe(200);
    const after = await restBook('ETH_USDT');
    const update = await stream.next('depth_update');
    const [changesOnly, changes] = update.params;
    expect(changesOnly).toBe(false);
    expect(changes.past_update_id).toBe(book.update_id);
    expect(changes.update_id).toBeGreaterThan(book.update_id);
    expect(byPrice(changes.asks)).toEqual(levelChanges(before.asks, after.asks));
    expect(byPrice(changes.bids)).toEqual(levelChanges(before.bids, after.bids));
    expect(changes.bids.map(([price]: [string]) => price)).toEqual(['2049.5']);
    expect(changes.asks).toEqual([]);

    // The price moves through the order (it fills) and the whole book shifts: replayed onto the
    // snapshot, every update gives the REST book again.
    await control(suite.sandbox.url, 'price', { market: 'ETH_USDT', price: '2049.4' });
    const moved = await restBook('ETH_USDT');
    let asks = replay(book.asks, changes.asks, true, 100);
    let bids = replay(book.bids, changes.bids, false, 100);
    let last = changes.update_id;
    while (JSON.stringify({ asks, bids }) !== JSON.stringify(moved)) {
      const next = (await stream.next('depth_update')).params[1];
      expect(next.past_update_id).toBe(last);
      last = next.update_id;
      asks = replay(asks, next.asks, true, 100);
      bids = replay(bids, next.bids, false, 100);
    }
    expect({ asks, bids }).toEqual(moved);
    expect(stream.pending('depth_update')).toEqual([]);
  });

  it('depth_request and the best bid and ask are the REST book', async () => {
    const stream = await open();
    const book = await restBook('BTC_USDT');
    const answer = await stream.request('depth_request', ['BTC_USDT', 100, '0']);
    expect({ asks: answer.result.asks, bids: answer.result.bids }).toEqual(book);
    await stream.request('bookTicker_subscribe', ['BTC_USDT']);
    const [[, , market, , bidPrice, bidAmount, askPrice, askAmount]] = (
      await stream.next('bookTicker_update')
    ).params;
    expect([market, bidPrice, bidAmount, askPrice, askAmount]).toEqual([
      'BTC_USDT',
      ...(book.bids[0] as [string, string]),
      ...(book.asks[0] as [string, string]),
    ]);
  });

  it('a fill is a trade of the trades stream and of the REST recent trades; the candles agree', async () => {
    // The fill in the first second of a minute, as a run sometimes lands: its candle has just
    // begun, and no query may end where it starts. The sandbox's clock stands still between calls.
    const before = (await get(suite.sandbox.url, 'getServerTime', {})).body.time;
    if (before % 60 !== 0) await control(suite.sandbox.url, 'clock', { advanceSeconds: 60 - (before % 60) });
    const stream = await open();
    await stream.request('trades_subscribe', ['ETH_USDT']);
    await stream.request('candles_subscribe', ['ETH_USDT', 60]);
    const sold = await call(suite.sandbox.url, key, 'createMarketOrder', {
      fields: { market: 'ETH_USDT', side: 'sell', amount: '0.01' },
    });
    expect(sold.status).toBe(200);
    const recent = await get(suite.sandbox.url, 'listRecentTrades', { market: 'ETH_USDT' });
    const newest = present(recent.body[0], 'the newest trade');
    const update = await stream.next('trades_update', (message) =>
      message.params[1].some((trade: { id: number }) => trade.id === newest.tradeID),
    );
    const trade = update.params[1].find((candidate: { id: number }) => candidate.id === newest.tradeID);
    expect(trade).toEqual({
      id: newest.tradeID,
      time: newest.trade_timestamp,
      price: newest.price,
      amount: newest.quote_volume,
      type: newest.type,
      rpi: newest.rpi,
    });
    expect(trade).toMatchObject({ amount: '0.01', type: 'sell' });
    // trades_request answers the REST trades, newest first.
    const answer = await stream.request('trades_request', ['ETH_USDT', 100, 0]);
    expect(answer.result.map((item: { id: number }) => item.id)).toEqual(
      recent.body.map((item: { tradeID: number }) => item.tradeID),
    );

    // The forming candle is the REST candle of the same interval at the same moment: asked for
    // over the interval's whole minute.
    const now = (await get(suite.sandbox.url, 'getServerTime', {})).body.time;
    const start = now - (now % 60);
    expect(start).toBe(now);
    const end = start + 59;
    const rest = await get(suite.sandbox.url, 'listCandles', {
      market: 'ETH_USDT',
      interval: '1m',
      start,
      end,
    });
    const rows = present(rest.body.result, 'the REST candles');
    expect(rows.length).toBe(1);
    // Updates come at most every half second: the last one is the REST candle.
    const expected = JSON.stringify([[...present(rows[0], 'the REST candle'), 'ETH_USDT']]);
    const candle = await stream.next(
      'candles_update',
      (message) => JSON.stringify(message.params) === expected,
    );
    expect(candle.params[0][0]).toBe(start);
    const requested = await stream.request('candles_request', ['ETH_USDT', start, end, 60]);
    expect(requested.result).toEqual(rows.map((row: unknown[]) => [...row, 'ETH_USDT']));
  });

  it('a candle period without a trade streams flat at the last price, with no volume; REST lists none', async () => {
    const stream = await open();
    await stream.request('candles_subscribe', ['BTC_USD', 900]);
    const [candle] = (await stream.next('candles_update')).params;
    const now = (await get(suite.sandbox.url, 'getServerTime', {})).body.time;
    const start = now - (now % 900);
    // Over the interval's whole quarter: `now` may be its first second.
    const end = start + 899;
    const last = present(
      (await get(suite.sandbox.url, 'listTickers', {})).body.BTC_USD,
      'BTC_USD',
    ).last_price;
    expect(candle).toEqual([start, last, last, last, last, '0', '0', 'BTC_USD']);
    const rest = await get(suite.sandbox.url, 'listCandles', {
      market: 'BTC_USD',
      interval: '15m',
      start,
      end,
    });
    expect(rest.body.result).toEqual([]);
  });

  it('the last price and the day are the REST ticker and market activity', async () => {
    const stream = await open();
    const ticker = present((await get(suite.sandbox.url, 'listTickers', {})).body.BTC_USDT, 'BTC_USDT');
    const activity = present(
      (await get(suite.sandbox.url, 'getMarketActivity', { market: 'BTC_USDT' })).body.result,
      'the market activity',
    );
    expect((await stream.request('lastprice_request', ['BTC_USDT'])).result).toBe(ticker.last_price);
    const day = (await stream.request('market_request', ['BTC_USDT', 86_400])).result;
    expect(day).toEqual({
      period: 86_400,
      last: activity.last,
      open: activity.open,
      close: activity.last,
      high: activity.high,
      low: activity.low,
      volume: activity.volume,
      deal: activity.deal,
    });
    await stream.request('lastprice_subscribe', ['BTC_USDT']);
    await stream.request('market_subscribe', ['BTC_USDT']);
    await stream.request('marketToday_subscribe', ['BTC_USDT']);
    expect((await stream.next('lastprice_update')).params).toEqual(['BTC_USDT', ticker.last_price]);
    expect((await stream.next('market_update')).params).toEqual(['BTC_USDT', day]);
    expect((await stream.next('marketToday_update')).params[1]).toMatchObject({ last: activity.last });
    expect((await stream.request('marketToday_query', ['BTC_USDT'])).result.last).toBe(activity.last);
  });

  it('refuses what it cannot take with the error object; a frame that is not JSON ends the connection', async () => {
    const stream = await open();
    const methodNotFound = { code: 4, message: 'method not found' };
    const invalidArgument = { code: 1, message: 'invalid argument' };
    expect(await stream.request('depth_subscribed', [])).toEqual({
      id: 1,
      result: null,
      error: methodNotFound,
    });
    expect((await stream.request('depth_subscribe', ['NOPE_USDT', 100, '0', false])).error).toEqual(
      invalidArgument,
    );
    // A limit the documents do not list breaks the message's schema.
    expect((await stream.request('depth_subscribe', ['BTC_USDT', 7, '0', false])).error).toEqual(
      invalidArgument,
    );
    expect((await stream.request('trades_request', ['BTC_USDT', 101, 0])).error).toEqual(invalidArgument);
    stream.raw('{"id": 9, "method"');
    expect((await stream.closed).code).toBe(1007);
  });

  it('refuses a request past 200 a minute on a connection with code 7, until the window moves on', async () => {
    const stream = await open();
    const answers = await Promise.all(Array.from({ length: 201 }, () => stream.request('ping', [])));
    expect(answers.slice(0, 200).every((answer) => answer.result === 'pong')).toBe(true);
    expect(answers[200]).toMatchObject({ result: null, error: { code: 7, message: 'too many requests' } });
    // Another connection has a window of its own.
    expect((await (await open()).request('ping', [])).result).toBe('pong');
    await control(suite.sandbox.url, 'clock', { advanceSeconds: 30 });
    expect((await stream.request('ping', [])).error?.code).toBe(7);
    await control(suite.sandbox.url, 'clock', { advanceSeconds: 31 });
    expect((await stream.request('ping', [])).result).toBe('pong');
  });

  it('serves nothing but the streams at other paths', async () => {
    await expect(TestStream.open(suite.sandbox.streamUrl.replace(/\/ws$/, '/ws/other'))).rejects.toThrow(
      /404/,
    );
  });

  it('closes a connection after 60 seconds of the sandbox clock without a request; a ping keeps it', async () => {
    const stream = await open();
    await control(suite.sandbox.url, 'clock', { advanceSeconds: 59 });
    expect((await stream.request('ping', [])).result).toBe('pong');
    await control(suite.sandbox.url, 'clock', { advanceSeconds: 59 });
    expect((await stream.request('ping', [])).result).toBe('pong');
    await control(suite.sandbox.url, 'clock', { advanceSeconds: 61 });
    expect((await stream.closed).code).toBe(1000);
  });
});

describe('the walk, moved by the control clock', () => {
  const clock = { now: Date.UTC(2026, 0, 5, 12, 0, 0) };
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      strict: true,
      clock: () => clock.now,
      walk: { seed: 7, stepSeconds: 5 },
    });
  });
  afterAll(async () => {
    await sandbox.close();
    expect(sandbox.violations).toEqual([]);
  });

  it("streams the walk's trades as the REST recent trades list them, and its candles as REST's", async () => {
    // The walk starts where the clock is when a market is first seen: at this call.
    await get(sandbox.url, 'getServerTime', {});
    const stream = await open(sandbox.streamUrl);
    await stream.request('trades_subscribe', ['ETH_BTC']);
    await stream.request('candles_subscribe', ['ETH_BTC', 60]);
    await control(sandbox.url, 'clock', { advanceSeconds: 30 });
    const rest = await get(sandbox.url, 'listRecentTrades', { market: 'ETH_BTC' });
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(rest.body.length).toBe(6);
    const seen: StreamMessage['params'][] = [];
    while (seen.length < rest.body.length) seen.push(...(await stream.next('trades_update')).params[1]);
    expect(seen.map((trade) => [trade.id, trade.price, trade.amount, trade.type, trade.time])).toEqual(
      rest.body.map((trade: Record<string, unknown>) => [
        trade.tradeID,
        trade.price,
        trade.quote_volume,
        trade.type,
        trade.trade_timestamp,
      ]),
    );
    const now = Math.floor(clock.now / 1000) + 30;
    const candles = present(
      (
        await get(sandbox.url, 'listCandles', {
          market: 'ETH_BTC',
          interval: '1m',
          start: now - 120,
          end: now,
        })
      ).body.result,
      'the REST candles',
    );
    let streamed: unknown[] = [];
    while (JSON.stringify(streamed) !== JSON.stringify([...(candles.at(-1) as unknown[]), 'ETH_BTC'])) {
      streamed = (await stream.next('candles_update')).params[0];
    }
    expect(streamed.slice(0, 7)).toEqual(candles.at(-1));
  });
});
