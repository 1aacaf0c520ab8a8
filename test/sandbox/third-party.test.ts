// A third-party client of this API (ccxt's whitebit class) and ours, each against a sandbox of
// its own started from the same fixture, make the same calls and must get the same answers:
// the sandbox speaks the service's protocol, not just our client's dialect.
import ccxt from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { createPrivateClient, type PrivateClient } from '../../src/index.ts';
import { defaultFixture, partnerKey } from './helpers.ts';

const fixture = defaultFixture();
const key = partnerKey(fixture);
const plan = fixture.plans.find(
  (candidate) => candidate.status === 'active' && candidate.currency === 'USDT',
);
const market = fixture.markets[0]?.name as string;

let forCcxt: Sandbox;
let forOurs: Sandbox;
let exchange: InstanceType<typeof ccxt.whitebit>;
let client: PrivateClient;

/** ccxt's call of an operation, by the name its implicit API gives the path. */
interface Outcome {
  ok: boolean;
  body: unknown;
}

async function ccxtCall(path: string, params: Record<string, unknown>): Promise<Outcome> {
  // ccxt's nonce is the millisecond clock: two calls in one millisecond would collide.
  await new Promise((resolve) => setTimeout(resolve, 2));
  const method = `v4PrivatePost${path
    .replace('/api/v4/', '')
    .split(/[/-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}`;
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

beforeAll(async () => {
  [forCcxt, forOurs] = await Promise.all([
    startSandbox({ port: 0, fixture: defaultFixture(), strict: true }),
    startSandbox({ port: 0, fixture: defaultFixture(), strict: true }),
  ]);
  exchange = new ccxt.whitebit({ apiKey: key.apiKey, secret: key.secret, enableRateLimit: false });
  (exchange.urls as unknown as { api: { v4: { private: string } } }).api.v4.private = `${forCcxt.url}/api/v4`;
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
  const steps: [string, string, Record<string, unknown>][] = [
    ['main balance', operations.getMainBalance.path, {}],
    ['history', operations.listFlexInvestmentHistory.path, { limit: 10 }],
    ['collateral summary', operations.getCollateralBalanceSummary.path, { ticker: 'BTC' }],
    ['invest', operations.createFixedInvestment.path, { planId: plan?.id, amount: '100.00' }],
    ['main balance after investing', operations.getMainBalance.path, {}],
    ['history after investing', operations.listFlexInvestmentHistory.path, { limit: 10 }],
    ['cancel all', operations.cancelAllOrders.path, { market, type: ['spot'] }],
    ['invalid market', operations.cancelAllOrders.path, { market: 'NOT-A-MARKET' }],
  ];

  it.each(steps)('%s', async (_, path, params) => {
    const [theirs, ours] = [await ccxtCall(path, params), await ourCall(path, params)];
    if (params.market === 'NOT-A-MARKET') {
      // Our client refuses to send this; ccxt sends it and the sandbox answers with the service's error.
      expect(ours).toEqual({ ok: false, body: undefined });
      expect(theirs.ok).toBe(false);
      expect(theirs.body).toMatchObject({ errors: { market: expect.any(Array) } });
      return;
    }
    expect(theirs.ok).toBe(true);
    expect(ours.ok).toBe(true);
    expect(comparable(theirs.body)).toEqual(comparable(ours.body));
    expect(forCcxt.violations).toEqual([]);
    expect(forOurs.violations).toEqual([]);
  });

  it("with a wrong secret both get the service's unauthorized error", async () => {
    const wrong = new ccxt.whitebit({ apiKey: key.apiKey, secret: 'wrong-secret', enableRateLimit: false });
    (wrong.urls as unknown as { api: { v4: { private: string } } }).api.v4.private = `${forCcxt.url}/api/v4`;
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
