// The sandbox's account streams against its REST answers: a connection is authorized only by the
// token the REST operation hands out; an order placed, filled, cancelled or changed over REST is
// in the open orders stream, its fill in the deals and executed orders streams, its balance
// change in the spot balance stream, each with the ids, amounts and times REST shows; the
// collateral balance and positions are the REST ones. Every message received is checked against
// the stream documents.
import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OperationId } from '../../generated/operations.ts';
import type { FixtureKey } from '../../sandbox/fixture.ts';
import { call, defaultFixture, ordinaryKey, partnerKey, present, strictSandbox } from './helpers.ts';
import { type StreamMessage, TestStream } from './stream-client.ts';
import { schemaProblems } from './stream-schemas.ts';

const suite = strictSandbox();
const fixture = defaultFixture();
const trader = ordinaryKey(fixture);
const partner = partnerKey(fixture);
const streams: TestStream[] = [];
const tokens = new Map<string, string>();

afterEach(async () => {
  for (const stream of streams.splice(0)) {
    await stream.close();
    expect(schemaProblems(stream)).toEqual([]);
  }
});

async function open(): Promise<TestStream> {
  const stream = await TestStream.open(suite.sandbox.streamUrl);
  streams.push(stream);
  return stream;
}

/** A connection authorized with the key's token (one REST call per key: the operation allows 10 a minute). */
async function authorized(key: FixtureKey): Promise<TestStream> {
  let token = tokens.get(key.apiKey);
  if (!token) {
    const reply = await call(suite.sandbox.url, key, 'getWebSocketToken');
    expect(reply.status).toBe(200);
    token = reply.body.websocket_token as string;
    tokens.set(key.apiKey, token);
  }
  const stream = await open();
  expect((await stream.request('authorize', [token, 'public'])).result).toEqual({ status: 'success' });
  return stream;
}

async function control(path: 'price' | 'clock', body: unknown) {
  const response = await fetch(`${suite.sandbox.url}/sandbox/${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

async function rest<Id extends OperationId>(
  key: FixtureKey,
  operationId: Id,
  fields?: Record<string, unknown>,
) {
  const reply = await call(suite.sandbox.url, key, operationId, fields ? { fields } : {});
  expect(reply.status, `${operationId}: ${JSON.stringify(reply.body)}`).toBe(200);
  return reply.body;
}

/** Waits until a connection has received everything sent before now: a ping's answer comes after it. */
async function settled(stream: TestStream) {
  expect((await stream.request('ping', [])).result).toBe('pong');
}

/** The next open-orders update about `orderId`. */
const pendingOf = (stream: TestStream, orderId: number) =>
  stream.next('ordersPending_update', (message) => message.params[1].id === orderId);

describe('authorization', () => {
  let token: string;
  beforeAll(async () => {
    token = (await call(suite.sandbox.url, trader, 'getWebSocketToken')).body.websocket_token;
    tokens.set(trader.apiKey, token);
  });

  it('refuses the account channels before authorize, and a token the sandbox did not hand out', async () => {
    const stream = await open();
    const requireAuthentication = { code: 6, message: 'require authentication' };
    expect((await stream.request('balanceSpot_subscribe', ['USDT'])).error).toEqual(requireAuthentication);
    expect((await stream.request('ordersPending_request', ['ETH_USDT', 0, 10])).error).toEqual(
      requireAuthentication,
    );
    expect((await stream.request('deals_subscribe', [['ETH_USDT']])).error).toEqual(requireAuthentication);
    const wrong = await stream.request('authorize', [randomBytes(24).toString('base64url'), 'public']);
    expect(wrong).toMatchObject({ result: null, error: { code: 1, message: 'invalid argument' } });
    expect((await stream.request('balanceSpot_request', [])).error).toEqual(requireAuthentication);
    // The public channels need none.
    expect((await stream.request('lastprice_request', ['ETH_USDT'])).error).toBeNull();
  });

  it("the REST token authorizes the connection for the key's account, and is never shown", async () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(token).not.toBe('your_current_token');
    // Asked again, the same token (the account's current one).
    expect((await call(suite.sandbox.url, trader, 'getWebSocketToken')).body.websocket_token).toBe(token);
    const stream = await open();
    expect(await stream.request('authorize', [token, 'public'])).toEqual({
      id: 1,
      result: { status: 'success' },
      error: null,
    });
    const balances = await stream.request('balanceSpot_request', []);
    expect(balances.result).toEqual(await rest(trader, 'getTradeBalance'));
    // Another account's token gives that account.
    const other = await authorized(partner);
    expect((await other.request('balanceSpot_request', ['USDT'])).result).toEqual(
      await rest(partner, 'getTradeBalance', { ticker: 'USDT' }),
    );
    for (const shown of [
      inspect(suite.sandbox.state, { depth: 10 }),
      JSON.stringify(suite.sandbox.state.snapshot()),
    ])
      expect(shown).not.toContain(token);
  });
});

describe('orders placed over REST, as the account streams show them', () => {
  it('a resting order is pending; its fill is a deal and an executed order; the balance follows', async () => {
    const stream = await authorized(trader);
    await stream.request('ordersPending_subscribe', ['ETH_USDT']);
    await stream.request('deals_subscribe', [['ETH_USDT']]);
    await stream.request('ordersExecuted_subscribe', [['ETH_USDT'], 0]);
    await stream.request('balanceSpot_subscribe', ['USDT', 'ETH']);
    const start = await rest(trader, 'getTradeBalance');
    expect((await stream.next('balanceSpot_update')).params).toEqual([{ USDT: start.USDT, ETH: start.ETH }]);

    const order = await rest(trader, 'createLimitOrder', {
      market: 'ETH_USDT',
      side: 'buy',
      amount: '0.01',
      price: '2000',
      clientOrderId: 'stream-buy-1',
    });
    const [event, pending] = (await pendingOf(stream, order.orderId)).params;
    expect(event).toBe(1);
    expect(pending).toMatchObject({
      id: order.orderId,
      market: 'ETH_USDT',
      type: 1,
      side: 2,
      ctime: order.timestamp,
      mtime: order.timestamp,
      price: order.price,
      amount: order.amount,
      left: order.left,
      deal_stock: '0',
      client_order_id: 'stream-buy-1',
      status: 'OPEN',
      post_only: false,
      ioc: false,
    });
    // What the order holds is frozen, as REST shows it.
    const holding = await rest(trader, 'getTradeBalance');
    await stream.next(
      'balanceSpot_update',
      (message) => message.params[0].USDT?.freeze === holding.USDT?.freeze,
    );
    expect((await stream.request('ordersPending_request', ['ETH_USDT', 0, 100])).result.records).toEqual(
      expect.arrayContaining([pending]),
    );

    // The price moves through it: it fills as the maker at its price.
    await control('price', { market: 'ETH_USDT', price: '1999' });
    const [finished, filled] = (await pendingOf(stream, order.orderId)).params;
    expect(finished).toBe(3);
    expect(filled).toMatchObject({ id: order.orderId, status: 'FILLED', left: '0', deal_stock: '0.01' });

    // With a market named, the deals are a list (without one, lists keyed by market).
    const restDeals = await rest(trader, 'listExecutedDeals', { market: 'ETH_USDT' });
    const deal = present(Array.isArray(restDeals) ? restDeals[0] : undefined, 'the deal');
    expect((await stream.next('deals_update')).params).toEqual([
      deal.id,
      deal.time,
      'ETH_USDT',
      order.orderId,
      deal.price,
      deal.amount,
      deal.fee,
      'stream-buy-1',
      2,
      deal.role,
      deal.feeAsset,
    ]);
    expect(deal).toMatchObject({ orderId: order.orderId, role: 1, price: '2000' });
    expect(filled.mtime).toBe(deal.time);

    const history = present(
      (await rest(trader, 'listOrderHistory', { market: 'ETH_USDT' })).ETH_USDT,
      'ETH_USDT',
    );
    const record = present(
      history.find((row: { id: number }) => row.id === order.orderId),
      'the order in the history',
    );
    const [executed] = (await stream.next('ordersExecuted_update')).params;
    expect(executed).toMatchObject({
      id: record.id,
      ctime: record.ctime,
      ftime: record.ftime,
      deal_stock: record.dealStock,
      deal_money: record.dealMoney,
      deal_fee: record.dealFee,
      fee_asset: record.feeAsset,
      status: 'FILLED',
      client_order_id: 'stream-buy-1',
    });

    const after = await rest(trader, 'getTradeBalance');
    await stream.next(
      'balanceSpot_update',
      (message) => JSON.stringify(message.params[0]) === JSON.stringify({ USDT: after.USDT, ETH: after.ETH }),
    );

    // The one-off requests answer what REST does.
    const deals = (await stream.request('deals_request', ['ETH_USDT', 0, 100])).result.records;
    expect(deals[0]).toMatchObject({ id: deal.id, order_id: order.orderId, time: deal.time, fee: deal.fee });
    const executedPage = await stream.request('ordersExecuted_request', [
      { market: 'ETH_USDT', order_types: [1] },
      0,
      100,
    ]);
    expect(executedPage.result.records[0]).toEqual(executed);
  });

  it('a market order is only finished; a cancel finishes a pending order; a change is finished then new', async () => {
    const stream = await authorized(trader);
    await stream.request('ordersPending_subscribe', []);
    await stream.request('ordersExecuted_subscribe', [['ETH_USDT'], 2]);

    const sold = await rest(trader, 'createMarketOrder', {
      market: 'ETH_USDT',
      side: 'sell',
      amount: '0.01',
    });
    await settled(stream);
    const aboutSold = stream
      .pending('ordersPending_update')
      .filter((message) => message.params[1].id === sold.orderId);
    expect(aboutSold.map((message) => message.params[0])).toEqual([3]);
    expect(aboutSold[0]?.params[1]).toMatchObject({ type: 2, side: 1, status: 'FILLED' });
    await pendingOf(stream, sold.orderId);
    // The executed orders of market orders only: this one.
    expect((await stream.next('ordersExecuted_update')).params[0]).toMatchObject({
      id: sold.orderId,
      type: 2,
    });

    const resting = await rest(trader, 'createLimitOrder', {
      market: 'ETH_USDT',
      side: 'sell',
      amount: '0.01',
      price: '2500',
    });
    expect((await pendingOf(stream, resting.orderId)).params[0]).toBe(1);
    const cancelled = await rest(trader, 'cancelOrder', { market: 'ETH_USDT', orderId: resting.orderId });
    const [event, gone] = (await pendingOf(stream, resting.orderId)).params;
    expect([event, gone.status, gone.mtime]).toEqual([3, 'CANCELED', expect.any(Number)]);
    expect(cancelled.status).toBe('CANCELED');

    const kept = await rest(trader, 'createLimitOrder', {
      market: 'ETH_USDT',
      side: 'sell',
      amount: '0.01',
      price: '2600',
      clientOrderId: 'stream-change-1',
    });
    await pendingOf(stream, kept.orderId);
    const changed = await rest(trader, 'modifyOrder', {
      market: 'ETH_USDT',
      orderId: kept.orderId,
      price: '2700',
    });
    await settled(stream);
    const byClientId = stream
      .pending('ordersPending_update')
      .filter((message) => message.params[1].client_order_id === 'stream-change-1');
    expect(
      byClientId.map((message) => [message.params[0], message.params[1].id, message.params[1].price]),
    ).toEqual([
      [3, kept.orderId, '2600'],
      [1, changed.orderId, '2700'],
    ]);
  });

  it('an unsubscribed channel sends nothing more', async () => {
    const stream = await authorized(trader);
    await stream.request('ordersPending_subscribe', ['ETH_USDT']);
    expect((await stream.request('ordersPending_unsubscribe', [])).result).toEqual({ status: 'success' });
    await rest(trader, 'createLimitOrder', {
      market: 'ETH_USDT',
      side: 'buy',
      amount: '0.01',
      price: '1500',
    });
    await settled(stream);
    expect(stream.pending('ordersPending_update')).toEqual([]);
  });
});

describe('the collateral account, as the account streams show it', () => {
  it('the margin balance and the positions are the REST ones, and follow the price', async () => {
    const stream = await authorized(partner);
    await stream.request('balanceMargin_subscribe', []);
    await stream.request('positionsMargin_subscribe', []);
    const summary = await rest(partner, 'getCollateralBalanceSummary');
    const [balances] = [(await stream.next('balanceMargin_update')).params];
    expect(balances).toEqual(
      summary.map((item: Record<string, string>) => ({
        a: item.asset,
        B: item.balance,
        b: item.borrow,
        av: item.availableWithoutBorrow,
        ab: item.availableWithBorrow,
      })),
    );
    const requested = (await stream.request('balanceMargin_request', ['BTC'])).result;
    expect(requested.BTC.balance).toBe(
      summary.find((item: { asset: string }) => item.asset === 'BTC')?.balance,
    );

    const expectPositions = async (update: StreamMessage) => {
      const positions = await rest(partner, 'listOpenPositions');
      expect(update.params.total).toBe(positions.length);
      expect(
        update.params.records.map((record: Record<string, unknown>) => [
          record.id,
          record.market,
          record.amount,
          record.base_price,
          record.pnl,
          record.margin,
          record.free_margin,
          record.realized_pnl,
        ]),
      ).toEqual(
        positions.map((position: Record<string, unknown>) => [
          position.positionId,
          position.market,
          position.amount,
          position.basePrice,
          position.unrealizedPnl,
          position.margin,
          position.freeMargin,
          position.pnl,
        ]),
      );
    };
    const first = await stream.next('positionsMargin_update');
    expect(first.params.total).toBeGreaterThan(0);
    await expectPositions(first);
    await control('price', { market: 'BTC_USDT', price: '36000' });
    const positions = await rest(partner, 'listOpenPositions');
    const btc = present(
      positions.find((position: { market: string }) => position.market === 'BTC_USDT'),
      'the BTC_USDT position',
    );
    const moved = await stream.next('positionsMargin_update', (message) =>
      message.params.records.some(
        (record: { market: string; pnl: string }) =>
          record.market === 'BTC_USDT' && record.pnl === btc.unrealizedPnl,
      ),
    );
    await expectPositions(moved);
  });

  it('borrows: none, since the sandbox models none; the event channels take a subscription', async () => {
    const stream = await authorized(partner);
    await stream.request('borrowsMargin_subscribe', []);
    expect((await stream.next('borrowsMargin_update')).params).toEqual({ total: 0, records: [] });
    for (const method of ['positionsAccountMargin_subscribe', 'borrowsAccountMargin_subscribe'])
      expect((await stream.request(method, [])).result).toEqual({ status: 'success' });
  });
});
