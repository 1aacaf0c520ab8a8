// A third-party client of this API (ccxt's whitebit class, through its implicit methods, one per
// path) and ours, each against a sandbox of its own started from the same fixture on the same
// stopped clock, make the same calls and must get the same answers: the sandbox speaks the
// service's protocol, not just our client's dialect. ccxt.ts says how ccxt is configured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { createPrivateClient, createPublicClient, type PrivateClient } from '../../src/index.ts';
import { type Whitebit, whitebitFor } from './ccxt.ts';
import { defaultFixture, partnerKey } from './helpers.ts';

const fixture = defaultFixture();
const key = partnerKey(fixture);
const plan = fixture.plans.find(
  (candidate) => candidate.status === 'active' && candidate.currency === 'USDT',
);
const market = fixture.markets[0]?.name as string;

let forCcxt: Sandbox;
let forOurs: Sandbox;
let exchange: Whitebit;
let client: PrivateClient;

/** ccxt's call of an operation, by the name its implicit API gives the path. */
interface Outcome {
  ok: boolean;
  body: unknown;
}

/** The name of ccxt's implicit method for a path: `/api/v4/order/stock_market` → `…OrderStockMarket`. */
const implicitName = (prefix: string, path: string) =>
  `${prefix}${path
    .replace(/^\/api\/v4\/(public\/)?/, '')
    .split(/[/_-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}`;

async function ccxtCall(path: string, params: Record<string, unknown>): Promise<Outcome> {
  const method = implicitName('v4PrivatePost', path);
  try {
    const body = await (exchange as unknown as Record<string, (p: unknown) => Promise<unknown>>)[method]?.(
      params,
    );
    return { ok: true, body };
  } catch {
    return { ok: false, body: JSON.parse(String(exchange.last_http_response)) };
  }
}

async function ourCall(path: string, params: Record<string, unknown>): Promise<Outcome> {
  const { data, error } = await client.POST(path as never, { body: params as never });
  return error ? { ok: false, body: error.body } : { ok: true, body: data };
}

// One stopped clock for both sandboxes: the orders, deals and timers they make carry the same times.
const startedAt = Date.now();
const clock = () => startedAt;

beforeAll(async () => {
  [forCcxt, forOurs] = await Promise.all([
    startSandbox({ port: 0, fixture: defaultFixture(), strict: true, clock }),
    startSandbox({ port: 0, fixture: defaultFixture(), strict: true, clock }),
  ]);
  exchange = whitebitFor(forCcxt.url, key.apiKey, key.secret);
  client = createPrivateClient({ apiKey: key.apiKey, apiSecret: key.secret, baseUrl: forOurs.url });
});

afterAll(async () => {
  await client?.close();
  await Promise.all([forCcxt?.close(), forOurs?.close()]);
});

/** History rows made during the test carry fresh ids and times: compare the rest. */
const comparable = (body: unknown) =>
  JSON.parse(JSON.stringify(body), (name, value) =>
    ['id', 'investmentId', 'transaction_id', 'createdAt'].includes(name) ? '<generated>' : value,
  );

describe('a third-party client gets the answers ours gets', () => {
  /** ccxt's answers so far, by step: a later step may use an id an earlier one was given. */
  const answers = new Map<string, unknown>();
  const orderIdOf = (step: string) => (answers.get(step) as { orderId: number }).orderId;
  type Params = Record<string, unknown> | (() => Record<string, unknown>);
  /** A step's name, path and body, and whether the service refuses it (both must get the same refusal). */
  const steps: [string, string, Params, 'refused'?][] = [
    ['main balance', operations.getMainBalance.path, {}],
    ['history', operations.listFlexInvestmentHistory.path, { limit: 10 }],
    ['collateral summary', operations.getCollateralBalanceSummary.path, { ticker: 'BTC' }],
    ['invest', operations.createFixedInvestment.path, { planId: plan?.id, amount: '100.00' }],
    ['main balance after investing', operations.getMainBalance.path, {}],
    ['history after investing', operations.listFlexInvestmentHistory.path, { limit: 10 }],
    ['trade balance', operations.getTradeBalance.path, {}],
    [
      'limit order',
      operations.createLimitOrder.path,
      { market, side: 'buy', amount: '0.01', price: '30000', clientOrderId: 'third-party-1' },
    ],
    [
      'stop-limit order',
      operations.createStopLimitOrder.path,
      { market, side: 'sell', amount: '0.01', price: '33000', activation_price: '34000' },
    ],
    ['market order', operations.createMarketOrder.path, { market, side: 'buy', amount: '100' }],
    ['stock market order', operations.createStockMarketOrder.path, { market, side: 'sell', amount: '0.001' }],
    [
      'bulk orders',
      operations.createBulkLimitOrders.path,
      {
        orders: [
          { market, side: 'buy', amount: '0.01', price: '29000' },
          { market, side: 'buy', amount: '0.00000001', price: '29000' },
        ],
      },
    ],
    ['active orders', operations.listActiveOrders.path, { market }],
    [
      'modify',
      operations.modifyOrder.path,
      () => ({ market, orderId: orderIdOf('limit order'), price: '30500' }),
    ],
    ['cancel', operations.cancelOrder.path, { market, clientOrderId: 'third-party-1' }],
    ['cancel it again', operations.cancelOrder.path, { market, clientOrderId: 'third-party-1' }, 'refused'],
    ['deals', operations.listExecutedDeals.path, { market }],
    ['one order’s deals', operations.listOrderDeals.path, () => ({ orderId: orderIdOf('market order') })],
    ['order history', operations.listOrderHistory.path, { market }],
    ['kill switch', operations.setKillSwitch.path, { market, timeout: '60', types: ['spot'] }],
    ['kill switch status', operations.getKillSwitchStatus.path, {}],
    ['cancel all', operations.cancelAllOrders.path, { market, type: ['spot'] }],
    ['trade balance at the end', operations.getTradeBalance.path, {}],
    ['invalid market', operations.cancelAllOrders.path, { market: 'NOT-A-MARKET' }],
  ];

  it.each(steps)('%s', async (step, path, paramsOf, refused) => {
    const params = typeof paramsOf === 'function' ? paramsOf() : paramsOf;
    const [theirs, ours] = [await ccxtCall(path, params), await ourCall(path, params)];
    answers.set(step, theirs.body);
    if (params.market === 'NOT-A-MARKET') {
      // Our client refuses to send this; ccxt sends it and the sandbox answers with the service's error.
      expect(ours).toEqual({ ok: false, body: undefined });
      expect(theirs.ok).toBe(false);
      expect(theirs.body).toMatchObject({ errors: { market: expect.any(Array) } });
      return;
    }
    expect(theirs.ok).toBe(!refused);
    expect(ours.ok).toBe(!refused);
    expect(comparable(theirs.body)).toEqual(comparable(ours.body));
    expect(forCcxt.violations).toEqual([]);
    expect(forOurs.violations).toEqual([]);
  });

  it.each([operations.listMarkets.path, operations.listAssets.path])(
    'public market data: %s',
    async (path) => {
      const method = implicitName('v4PublicGet', path);
      const theirs = await (exchange as unknown as Record<string, () => Promise<unknown>>)[method]?.();
      const publicClient = createPublicClient({ baseUrl: forOurs.url });
      const { data } = await publicClient.GET(path as never);
      await publicClient.close();
      expect(theirs).toBeDefined();
      expect(theirs).toEqual(data);
    },
  );

  it("with a wrong secret both get the service's unauthorized error", async () => {
    const wrong = whitebitFor(forCcxt.url, key.apiKey, 'wrong-secret');
    await expect(wrong.v4PrivatePostMainAccountBalance({})).rejects.toThrow();
    const theirs = JSON.parse(String(wrong.last_http_response));
    const ours = createPrivateClient({ apiKey: key.apiKey, apiSecret: 'wrong-secret', baseUrl: forOurs.url });
    const { error } = await ours.POST(operations.getMainBalance.path);
    expect(error?.kind).toBe('unauthorized');
    expect(error?.status).toBe(401);
    expect(theirs).toEqual(error?.body);
    expect(theirs).toMatchObject({ code: 10 });
    await ours.close();
  });
});
