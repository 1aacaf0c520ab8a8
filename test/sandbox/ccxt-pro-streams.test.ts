// A streaming client no one here wrote, ccxt.pro's whitebit class (ccxt as installed, unchanged),
// reads the sandbox's streams through its own watch methods: `npm run sandbox` started as a
// process, ccxt configured only by the lines it prints (the stream URL for its WebSocket, the base
// URL and the key for its REST calls, which its authorization and its balance make too), with the
// market moving (the walk on). Each of the seven watch methods gets an answer, and what ccxt makes
// of it agrees with what its own fetch methods read over REST at the same moment: the book (and
// again once the printed control has moved the price), the trades (and again with a trade of the
// account's), the ticker and the candles as the walk makes them; the balance; an order placed
// over REST in watchOrders, then its fill (the control moves the price through it) in
// watchOrders, watchMyTrades and watchBalance. The sandbox runs strict, and refuses nothing ccxt
// sends: every request of ccxt's is answered with a result.
//
// ccxt.ts says how ccxt is configured. "At the same moment": the stream's view, ccxt's REST answer,
// and the stream's view again; the two views equal and the REST answer equal to them. The market
// moves every few seconds, and an update may be on its way while REST answers: then the next
// update is awaited and they are compared again, a few times at most.
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentVariables, streamVariables } from '../../model/environment.ts';
import { type SandboxProcess, startSandboxProcess } from '../../sandbox/process.ts';
import { timeLimits } from '../../scripts/time-limits.ts';
import { type WhitebitPro, whitebitProFor } from './ccxt.ts';

type Order = Awaited<ReturnType<WhitebitPro['watchOrders']>>[number];
type Trade = Awaited<ReturnType<WhitebitPro['watchMyTrades']>>[number];

const symbol = 'BTC/USDT';
const market = 'BTC_USDT';
/** Comparisons of the stream's view with REST's before the test gives up on them agreeing. */
const tries = 8;

let sandbox: SandboxProcess;
let exchange: WhitebitPro;
let baseUrl: string;
let tap: WireTap;

/** The control the sandbox prints, for what no client of the service can do. */
async function control(path: string, body?: object) {
  const response = await fetch(`${baseUrl}/sandbox${path}`, {
    method: body ? 'POST' : 'GET',
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(response.status, path).toBe(200);
  return (await response.json()) as { now: number; prices: Record<string, string> };
}

interface Answer {
  id: unknown;
  result: unknown;
  error: unknown;
}

/**
 * What ccxt sends on its WebSocket and what comes back by id, seen without changing either: its
 * message handler and its client's `send` are wrapped, each passing everything on as it was. The
 * test waits on it for a subscription the sandbox has confirmed (so that what the test does next
 * comes after it), and reads from it every request the sandbox refused.
 */
interface WireTap {
  /**
   * The answer to ccxt's request of `method`, once it has come: the latest one sent, or the next
   * one if none has been sent yet (ccxt sends a subscribe after awaits of its own).
   */
  answered(method: string): Promise<Answer>;
  /** Every request the sandbox answered with an error, with that error. */
  readonly refused: { request: unknown; error: unknown }[];
}

function tapWire(pro: WhitebitPro, url: string): WireTap {
  type Handle = (client: unknown, message: unknown) => void;
  type Client = { send(message: unknown): Promise<unknown> };
  const sent = new Map<unknown, { method: string; message: unknown }>();
  const answers = new Map<unknown, Answer>();
  /** Who waits for the answer to a request, by the request's id or, not sent yet, by its method. */
  const waiting = new Map<unknown, ((answer: Answer) => void)[]>();
  const wait = (key: unknown, resolve: (answer: Answer) => void) =>
    waiting.set(key, [...(waiting.get(key) ?? []), resolve]);
  const refused: WireTap['refused'] = [];
  // ccxt binds its handler when it makes the client: wrapped first, then the client made.
  const exchange = pro as unknown as { handleMessage: Handle; client(url: string): Client };
  const handle = exchange.handleMessage.bind(pro);
  exchange.handleMessage = (client, message) => {
    const { id, result, error } = (message ?? {}) as Partial<Answer>;
    if (id !== null && id !== undefined && sent.has(id)) {
      const answer = { id, result, error: error ?? null };
      answers.set(id, answer);
      if (answer.error !== null) refused.push({ request: sent.get(id)?.message, error: answer.error });
      for (const resolve of waiting.get(id) ?? []) resolve(answer);
      waiting.delete(id);
    }
    handle(client, message);
  };
  const client = exchange.client(url);
  const send = client.send.bind(client);
  client.send = (message) => {
    const { id, method } = (message ?? {}) as { id?: unknown; method?: unknown };
    if (typeof method === 'string') {
      sent.set(id, { method, message });
      // Those waiting for this method's next request wait for this one's answer.
      for (const resolve of waiting.get(method) ?? []) wait(id, resolve);
      waiting.delete(method);
    }
    return send(message);
  };
  return {
    refused,
    answered(method) {
      const ids = [...sent].filter(([, request]) => request.method === method).map(([id]) => id);
      const id = ids.at(-1);
      const answer = id === undefined ? undefined : answers.get(id);
      if (answer) return Promise.resolve(answer);
      return new Promise((resolve) => wait(id ?? method, resolve));
    },
  };
}

/**
 * What `read` finds in ccxt's caches of the stream (its orders, its trades), once it is there:
 * read at once, and again after each update. A watch method's answer is not enough: it holds the
 * update that woke it, and one that came in the same moment only in the cache.
 */
async function until<Found>(read: () => Found | undefined, next: () => Promise<unknown>): Promise<Found> {
  for (let update = 0; update < tries; update++) {
    const found = read();
    if (found !== undefined) return found;
    await next();
  }
  const found = read();
  if (found === undefined) throw new Error(`not in ccxt's cache after ${tries} updates`);
  return found;
}

/** A view as JSON has it: ccxt's lists are Array subclasses on one side and arrays on the other. */
const plain = <View>(view: View): View => JSON.parse(JSON.stringify(view ?? null)) as View;

/** A watch armed before the action it waits for: awaited later, never reported unhandled meanwhile. */
function armed<T>(watch: Promise<T>): Promise<T> {
  watch.catch(() => undefined);
  return watch;
}

/**
 * The stream's view and REST's answer at the same moment: `streamed` before and after `rest`,
 * equal, and `rest` equal to them. Otherwise the next update (`next`) is awaited and they are
 * compared again. Returns REST's answer; fails with the last comparison.
 */
async function agreed<View>(
  streamed: () => View,
  rest: () => Promise<View>,
  next: () => Promise<unknown>,
): Promise<View> {
  let last: { before: View; answer: View } | undefined;
  for (let attempt = 0; attempt < tries; attempt++) {
    const before = plain(streamed());
    const answer = plain(await rest());
    const after = plain(streamed());
    if (isDeepStrictEqual(before, after) && isDeepStrictEqual(before, answer)) return answer;
    last = { before, answer };
    await next();
  }
  expect(last?.before, 'the stream, against REST at the same moment').toEqual(last?.answer);
  throw new Error('unreachable');
}

/** A book's first levels, `[price, amount]`, as ccxt gives them from the stream or REST. */
function levels(book: { bids: unknown[]; asks: unknown[] }, depth: number) {
  const pairs = (side: unknown[]) => side.slice(0, depth).map((level) => (level as number[]).slice(0, 2));
  return { bids: pairs(book.bids), asks: pairs(book.asks) };
}

/** A trade as ccxt makes it, public or the account's, without what only one side carries. */
function tradeFacts(trade: {
  id?: unknown;
  timestamp?: unknown;
  price?: unknown;
  amount?: unknown;
  side?: unknown;
  order?: unknown;
  takerOrMaker?: unknown;
  fee?: { cost?: unknown; currency?: unknown } | undefined;
}) {
  return {
    id: trade.id,
    timestamp: trade.timestamp,
    price: trade.price,
    amount: trade.amount,
    side: trade.side,
    ...(trade.order === undefined ? {} : { order: trade.order, takerOrMaker: trade.takerOrMaker }),
    ...(trade.fee?.cost === undefined ? {} : { fee: trade.fee.cost, feeCurrency: trade.fee.currency }),
  };
}

/** An order as ccxt makes it, from the stream or REST. */
function orderFacts(order: {
  id?: unknown;
  timestamp?: unknown;
  side?: unknown;
  type?: unknown;
  price?: unknown;
  amount?: unknown;
  filled?: unknown;
  remaining?: unknown;
  status?: unknown;
}) {
  const { id, timestamp, side, type, price, amount, filled, remaining, status } = order;
  return { id, timestamp, side, type, price, amount, filled, remaining, status };
}

/** The free and used amounts of some assets, as ccxt keeps a balance. */
function holdings(balance: Record<string, unknown>, assets: readonly string[]) {
  return Object.fromEntries(
    assets.map((asset) => {
      const account = balance[asset] as { free?: unknown; used?: unknown } | undefined;
      return [asset, { free: account?.free, used: account?.used }];
    }),
  );
}

beforeAll(async () => {
  sandbox = await startSandboxProcess({ SANDBOX_STRICT: '1', SANDBOX_QUIET: '1' }, timeLimits.serverStartMs);
  const { values } = sandbox;
  baseUrl = values[environmentVariables.baseUrl] as string;
  const streamUrl = values[streamVariables.url] as string;
  exchange = await whitebitProFor(
    baseUrl,
    streamUrl,
    values[environmentVariables.apiKey] as string,
    values[environmentVariables.apiSecret] as string,
  );
  tap = tapWire(exchange, streamUrl);
  await exchange.loadMarkets();
  // Two hours of the walk, for trades and candles to read; before any stream, whose connection
  // the sandbox would close after a minute of its clock without a request.
  await control('/clock', { advanceSeconds: 7200 });
}, timeLimits.hookMs);

afterAll(async () => {
  await exchange?.close();
  await sandbox?.stop();
});

describe("ccxt.pro's whitebit class streams the sandbox's market and account", {
  timeout: timeLimits.processTestMs,
}, () => {
  it('watchOrderBook: the book REST shows at the same moment, and after the price moves', async () => {
    const depth = 10;
    const first = await exchange.watchOrderBook(symbol, depth);
    expect(first.bids.length).toBe(depth);
    expect(first.asks.length).toBe(depth);
    const streamed = () => levels(exchange.orderbooks[symbol] as typeof first, depth);
    const rest = async () => levels(await exchange.fetchOrderBook(symbol, depth), depth);
    const next = () => exchange.watchOrderBook(symbol, depth);
    const book = await agreed(streamed, rest, next);
    expect(book.bids[0]?.[0]).toBeLessThan(book.asks[0]?.[0] as number);
    // The printed control moves the price: the change arrives, and the book agrees with REST again.
    const moved = armed(next());
    const { prices } = await control('');
    await control('/price', { market, price: String(Number(prices[market]) + 25) });
    await moved;
    const after = await agreed(streamed, rest, next);
    expect(after).not.toEqual(book);
  });

  it('watchTrades: the latest trades REST lists, each as REST gives it', async () => {
    const count = 5;
    const first = await exchange.watchTrades(symbol);
    expect(first.length).toBeGreaterThan(0);
    const streamed = () => (exchange.trades[symbol] ?? []).slice(-count).map(tradeFacts);
    const rest = async () => (await exchange.fetchTrades(symbol)).slice(-count).map(tradeFacts);
    const next = () => exchange.watchTrades(symbol);
    const trades = await agreed(streamed, rest, next);
    expect(trades.length).toBe(count);
    // A trade of the account's is the market's too: it arrives, and REST lists it alike.
    const arrived = armed(next());
    await exchange.createOrder(symbol, 'market', 'buy', 0.001, undefined, { cost: 50 });
    await arrived;
    const after = await agreed(streamed, rest, next);
    expect(after.at(-1)?.id).not.toBe(trades.at(-1)?.id);
  });

  it('watchTicker: the last price and the day’s volumes REST shows at the same moment', async () => {
    const facts = (ticker: { last?: unknown; baseVolume?: unknown; quoteVolume?: unknown }) => ({
      last: ticker.last,
      baseVolume: ticker.baseVolume,
      quoteVolume: ticker.quoteVolume,
    });
    const first = await exchange.watchTicker(symbol);
    expect(first.last).toBeGreaterThan(0);
    const ticker = await agreed(
      () => facts(exchange.tickers[symbol] ?? {}),
      async () => facts(await exchange.fetchTicker(symbol)),
      () => exchange.watchTicker(symbol),
    );
    expect(ticker.baseVolume).toBeGreaterThan(0);
  });

  it('watchOHLCV: the forming minute’s candle as REST lists it', async () => {
    const latest: { candle: unknown[] | undefined } = { candle: undefined };
    const next = async () => {
      latest.candle = (await exchange.watchOHLCV(symbol, '1m')).at(-1);
    };
    await next();
    expect(latest.candle).toHaveLength(6);
    const candle = await agreed(
      () => latest.candle,
      async () => (await exchange.fetchOHLCV(symbol, '1m')).at(-1),
      next,
    );
    const [start, open, high, low, close, volume] = candle as number[];
    expect((start as number) % 60_000).toBe(0);
    expect(high).toBeGreaterThanOrEqual(Math.max(open as number, close as number));
    expect(low).toBeLessThanOrEqual(Math.min(open as number, close as number));
    expect(volume).toBeGreaterThan(0);
  });

  it('watchBalance, watchOrders, watchMyTrades: an order placed over REST, then filled', async () => {
    const assets = ['BTC', 'USDT'];
    const cached = exchange as unknown as {
      balance: Record<string, unknown>;
      orders: Order[] | undefined;
      myTrades: Trade[] | undefined;
    };
    const balance = () =>
      agreed(
        () => holdings(cached.balance, assets),
        async () => holdings((await exchange.fetchBalance()) as unknown as Record<string, unknown>, assets),
        () => exchange.watchBalance(),
      );
    await exchange.watchBalance();
    const before = await balance();

    // The order and deal streams subscribed, and confirmed, before the order is placed.
    const ordersWatched = armed(exchange.watchOrders(symbol));
    const dealsWatched = armed(exchange.watchMyTrades(symbol));
    expect((await tap.answered('ordersPending_subscribe')).error).toBeNull();
    expect((await tap.answered('deals_subscribe')).error).toBeNull();

    // A buy below the market rests: watchOrders has it open, as REST's open orders do.
    const { prices } = await control('');
    const price = Math.floor(Number(prices[market]) * 0.99);
    const amount = 0.001;
    const placed = await exchange.createOrder(symbol, 'limit', 'buy', amount, price);
    const ours = (status: string) => () =>
      cached.orders?.find((order) => order.id === placed.id && order.status === status);
    await ordersWatched;
    const opened = await until(ours('open'), () => exchange.watchOrders(symbol));
    expect(opened).toMatchObject({ price, amount, remaining: amount, filled: 0 });
    const openOverRest = (await exchange.fetchOpenOrders(symbol)).find((order) => order.id === placed.id);
    expect(orderFacts(opened)).toEqual(orderFacts(openOverRest ?? {}));
    // What it holds shows in the balance stream, as in REST's balance.
    const held = await balance();
    expect(held.USDT?.used).toBeGreaterThan(before.USDT?.used as number);

    // The printed control moves the price through it, and it fills: watchOrders has it closed,
    // watchMyTrades its deal and watchBalance the balance after it, each as REST has it.
    await control('/price', { market, price: String(price - 1) });
    const closed = await until(ours('closed'), () => exchange.watchOrders(symbol));
    expect(closed).toMatchObject({ price, amount, filled: amount, remaining: 0 });
    const closedOverRest = (await exchange.fetchClosedOrders(symbol)).find((order) => order.id === placed.id);
    expect(orderFacts(closed)).toEqual(orderFacts(closedOverRest ?? {}));

    await dealsWatched;
    const deal = await until(
      () => cached.myTrades?.find((trade) => trade.order === placed.id),
      () => exchange.watchMyTrades(symbol),
    );
    expect(deal).toMatchObject({ side: 'buy', price, amount });
    const dealOverRest = (await exchange.fetchMyTrades(symbol)).find((trade) => trade.id === deal.id);
    expect(tradeFacts(deal)).toEqual(tradeFacts(dealOverRest ?? {}));

    const after = await balance();
    expect(after.BTC?.free).toBeGreaterThan(held.BTC?.free as number);
    expect(after.USDT?.used).toBeLessThan(held.USDT?.used as number);
  });

  it('the sandbox refused nothing ccxt sent', () => {
    expect(tap.refused).toEqual([]);
  });
});
