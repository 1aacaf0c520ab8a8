// The sandbox as an exchange: placing orders holds exactly what they may spend, cancelling gives
// it back exactly, fills move base and quote at the market's price with the market's fees, and
// stop orders wait for their activation price. Balances are read from the state and compared
// with the test's own arithmetic (scaled BigInts), never the sandbox's.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Fixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import {
  call,
  decimalText,
  defaultFixture,
  documentOf,
  feeUp,
  findKey,
  type OperationId,
  partnerKey,
  refusalOf,
  times,
  units,
} from './helpers.ts';

const scale = 10n ** 18n;
const text = decimalText;
const fee = feeUp;

let fixture: Fixture;
let sandbox: Sandbox;
let now: number;
const key = () => partnerKey(fixture);
const market = (name: string) => {
  const found = fixture.markets.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no market ${name}`);
  return found;
};

beforeEach(async () => {
  fixture = defaultFixture();
  now = Date.UTC(2031, 4, 1, 12);
  sandbox = await startSandbox({ port: 0, strict: true, fixture, clock: () => now });
});
afterEach(async () => {
  await sandbox.close();
  expect(sandbox.violations).toEqual([]);
});

const place = <Id extends OperationId>(operationId: Id, fields: Record<string, unknown>, signer = key()) =>
  call(sandbox.url, signer, operationId, { fields });
const balance = (ticker: string, accountId = key().account) => {
  const found = sandbox.state.account(accountId).trade.get(ticker) ?? { available: '0', frozen: '0' };
  return { available: units(found.available), frozen: units(found.frozen) };
};
const openIds = (accountId = key().account) => [...sandbox.state.account(accountId).orders.keys()];

describe('a limit order that does not cross the price', () => {
  it('rests, holding its total and the larger fee, and cancelling gives exactly that back', async () => {
    const btcUsdt = market('BTC_USDT');
    const before = balance('USDT');
    const reply = await place('createLimitOrder', {
      market: 'BTC_USDT',
      side: 'buy',
      amount: '0.012345',
      price: '30000.07',
      clientOrderId: 'rest-1',
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      clientOrderId: 'rest-1',
      type: 'limit',
      status: 'NEW',
      amount: '0.012345',
      left: '0.012345',
      dealStock: '0',
      price: '30000.07',
      timestamp: now / 1000,
    });
    const total = times('0.012345', '30000.07');
    const held =
      total + fee(total, btcUsdt.makerFee > btcUsdt.takerFee ? btcUsdt.makerFee : btcUsdt.takerFee, 6);
    expect(balance('USDT')).toEqual({ available: before.available - held, frozen: before.frozen + held });
    expect(openIds()).toContain(reply.body.orderId);

    const cancelled = await place('cancelOrder', { market: 'BTC_USDT', clientOrderId: 'rest-1' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      orderId: reply.body.orderId,
      status: 'CANCELED',
      left: '0.012345',
    });
    expect(balance('USDT')).toEqual(before);
    expect(openIds()).not.toContain(reply.body.orderId);
    // Cancelled once, it is not found again.
    const again = await place('cancelOrder', { market: 'BTC_USDT', orderId: reply.body.orderId });
    expect(again).toMatchObject({
      status: 400,
      body: documentOf('cancelOrder').example('orderNotFound').value,
    });
  });

  it('a sell holds its amount of the base asset', async () => {
    const before = balance('ETH');
    const reply = await place('createLimitOrder', {
      market: 'ETH_USDT',
      side: 'sell',
      amount: '1.5',
      price: '2500',
    });
    expect(reply.status).toBe(200);
    expect(balance('ETH')).toEqual({
      available: before.available - units('1.5'),
      frozen: before.frozen + units('1.5'),
    });
  });

  it('fills as the maker, at its own price, once the price moves through it', async () => {
    const btcUsdt = market('BTC_USDT');
    const [usdt, btc] = [balance('USDT'), balance('BTC')];
    const reply = await place('createLimitOrder', {
      market: 'BTC_USDT',
      side: 'sell',
      amount: '0.01',
      price: '36000',
    });
    sandbox.setPrice('BTC_USDT', '35900');
    expect(openIds()).toContain(reply.body.orderId);
    now += 5_000;
    sandbox.setPrice('BTC_USDT', '36000.5');
    expect(openIds()).not.toContain(reply.body.orderId);
    const money = times('0.01', '36000');
    const charged = fee(money, btcUsdt.makerFee, 6);
    expect(balance('USDT')).toEqual({ available: usdt.available + money - charged, frozen: usdt.frozen });
    expect(balance('BTC')).toEqual({ available: btc.available - units('0.01'), frozen: btc.frozen });
    const [deal] = sandbox.state.account(key().account).deals.slice(-1);
    expect(deal).toMatchObject({ orderId: reply.body.orderId, role: 1, price: '36000', amount: '0.01' });
    expect(deal?.time).toBe(now / 1000);
  });

  it('a price move fills every resting order it passes, the fixture’s too', async () => {
    const seeded = 4180284841; // a buy at 35000
    expect(openIds()).toContain(seeded);
    sandbox.setPrice('BTC_USDT', '34999.99');
    expect(openIds()).not.toContain(seeded);
    expect(sandbox.state.account(key().account).deals.at(-1)).toMatchObject({ orderId: seeded, role: 1 });
  });

  it('with ioc, is cancelled at once and holds nothing', async () => {
    const before = balance('USDT');
    const reply = await place('createLimitOrder', {
      market: 'BTC_USDT',
      side: 'buy',
      amount: '0.01',
      price: '30000',
      ioc: true,
    });
    expect(reply.body).toMatchObject({ status: 'CANCELED', ioc: true, dealStock: '0' });
    expect(balance('USDT')).toEqual(before);
  });

  it('post-only, it never takes: one that would cross waits for the price to come to it', async () => {
    const reply = await place('createLimitOrder', {
      market: 'BTC_USDT',
      side: 'buy',
      amount: '0.01',
      price: '36000',
      postOnly: true,
    });
    expect(reply.body).toMatchObject({ status: 'NEW', postOnly: true });
    expect(sandbox.state.account(key().account).deals).toEqual([]);
  });
});

describe('orders that fill at once, at the market price, as the taker', () => {
  it('a limit buy that crosses pays the market price, not its limit, and the taker fee', async () => {
    const btcUsdt = market('BTC_USDT');
    const [usdt, btc] = [balance('USDT'), balance('BTC')];
    const reply = await place('createLimitOrder', {
      market: 'BTC_USDT',
      side: 'buy',
      amount: '0.02',
      price: '36000',
    });
    const money = times('0.02', btcUsdt.price);
    const charged = fee(money, btcUsdt.takerFee, 6);
    expect(reply.body).toMatchObject({
      status: 'FILLED',
      left: '0',
      dealStock: '0.02',
      dealMoney: text(money),
      dealFee: text(charged),
    });
    expect(balance('USDT')).toEqual({ available: usdt.available - money - charged, frozen: usdt.frozen });
    expect(balance('BTC')).toEqual({ available: btc.available + units('0.02'), frozen: btc.frozen });
  });

  it('a market buy spends its quote amount, buying what it affords at the base precision', async () => {
    const btcUsdt = market('BTC_USDT');
    const [usdt, btc] = [balance('USDT'), balance('BTC')];
    const reply = await place('createMarketOrder', { market: 'BTC_USDT', side: 'buy', amount: '100' });
    // 100 / 35100 = 0.002849…, down to 6 decimals.
    const bought = units('0.002849');
    const money = (bought * units(btcUsdt.price)) / scale;
    const charged = fee(money, btcUsdt.takerFee, 6);
    expect(reply.body).toMatchObject({
      type: 'market',
      status: 'FILLED',
      amount: '100',
      dealStock: text(bought),
      dealMoney: text(money),
      dealFee: text(charged),
      price: '0',
    });
    expect(balance('USDT').available).toBe(usdt.available - money - charged);
    expect(balance('BTC').available).toBe(btc.available + bought);
  });

  it('a market sell sells its base amount and is paid the total less the fee', async () => {
    const ethUsdt = market('ETH_USDT');
    const [eth, usdt] = [balance('ETH'), balance('USDT')];
    await place('createMarketOrder', { market: 'ETH_USDT', side: 'sell', amount: '0.25' });
    const money = times('0.25', ethUsdt.price);
    expect(balance('ETH').available).toBe(eth.available - units('0.25'));
    expect(balance('USDT').available).toBe(usdt.available + money - fee(money, ethUsdt.takerFee, 6));
  });

  it('a stock market buy buys its base amount whatever it costs', async () => {
    const btcUsdt = market('BTC_USDT');
    const usdt = balance('USDT');
    const reply = await place('createStockMarketOrder', { market: 'BTC_USDT', side: 'buy', amount: '0.01' });
    const money = times('0.01', btcUsdt.price);
    expect(reply.body).toMatchObject({ type: 'stock market', dealStock: '0.01', dealMoney: text(money) });
    expect(balance('USDT').available).toBe(usdt.available - money - fee(money, btcUsdt.takerFee, 6));
  });
});

describe('stop orders', () => {
  it('a stop-limit sell waits, activates when the price falls to its activation price, then rests or fills', async () => {
    // The fixture's buy at 35000 would fill too as the price falls: out of the way first.
    await place('cancelAllOrders', { market: 'BTC_USDT', type: ['spot'] });
    const btc = balance('BTC');
    const reply = await place('createStopLimitOrder', {
      market: 'BTC_USDT',
      side: 'sell',
      amount: '0.05',
      price: '33900',
      activation_price: '34000',
    });
    expect(reply.body).toMatchObject({
      status: 'NEW',
      activated: 0,
      activationCondition: 'lte',
      activation_price: '34000',
    });
    expect(balance('BTC')).toEqual({
      available: btc.available - units('0.05'),
      frozen: btc.frozen + units('0.05'),
    });
    sandbox.setPrice('BTC_USDT', '34000.01');
    expect(sandbox.state.account(key().account).orders.get(reply.body.orderId)?.activated).toBe(false);
    // Activated at 34000: a sell limit at 33900 crosses, so it fills at once at the market price.
    sandbox.setPrice('BTC_USDT', '34000');
    expect(openIds()).not.toContain(reply.body.orderId);
    const [deal] = sandbox.state.account(key().account).deals.slice(-1);
    expect(deal).toMatchObject({ orderId: reply.body.orderId, role: 2, price: '34000', amount: '0.05' });
    expect(balance('BTC')).toEqual({ available: btc.available - units('0.05'), frozen: btc.frozen });
  });

  it('a stop-market buy spends its total once the price rises to its activation price', async () => {
    const usdt = balance('USDT');
    const reply = await place('createStopMarketOrder', {
      market: 'BTC_USDT',
      side: 'buy',
      amount: '500',
      activation_price: '36000',
    });
    expect(reply.body).toMatchObject({ status: 'NEW', activated: 0, activationCondition: 'gte', price: '0' });
    sandbox.setPrice('BTC_USDT', '36200');
    const bought = units('0.013812'); // 500 / 36200, down to 6 decimals
    const money = (bought * units('36200')) / scale;
    const charged = fee(money, market('BTC_USDT').takerFee, 6);
    expect(balance('USDT')).toEqual({ available: usdt.available - money - charged, frozen: usdt.frozen });
  });

  it('one placed where its activation price is already reached activates at once', async () => {
    const reply = await place('createStopMarketOrder', {
      market: 'BTC_USDT',
      side: 'sell',
      amount: '0.001',
      activation_price: '36000',
    });
    expect(reply.body).toMatchObject({ status: 'FILLED', activated: 1 });
  });
});

describe('a clientOrderId is refused only while an open order on the same market carries it', () => {
  const used = () => documentOf('createLimitOrder').example('clientOrderIdUsed').value;
  const resting = {
    market: 'ETH_USDT',
    side: 'sell',
    amount: '0.01',
    price: '3000',
    clientOrderId: 'reused',
  };

  it('is refused while the order rests; after it is cancelled, the same id is accepted', async () => {
    const first = await place('createLimitOrder', resting);
    expect(first.body).toMatchObject({ status: 'NEW', clientOrderId: 'reused' });
    const second = await place('createLimitOrder', resting);
    expect(second).toMatchObject({ status: 422, body: used() });
    // A market order with the id is refused too: the id, not the order type, is in use.
    const market = await place('createMarketOrder', {
      market: 'ETH_USDT',
      side: 'sell',
      amount: '0.01',
      clientOrderId: 'reused',
    });
    expect(market).toMatchObject({ status: 422, body: used() });
    // Open on another market, the id is free here.
    const elsewhere = await place('createLimitOrder', {
      market: 'BTC_USDT',
      side: 'buy',
      amount: '0.01',
      price: '30000',
      clientOrderId: 'reused',
    });
    expect(elsewhere.body).toMatchObject({ status: 'NEW', clientOrderId: 'reused' });
    // Another account may use it on the same market.
    const other = findKey(
      fixture,
      (candidate) => candidate.account === 'trader' && candidate.enabled !== false,
    );
    expect((await place('createLimitOrder', resting, other)).status).toBe(200);

    const cancelled = await place('cancelOrder', { market: 'ETH_USDT', clientOrderId: 'reused' });
    expect(cancelled.status).toBe(200);
    const again = await place('createLimitOrder', resting);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'NEW', clientOrderId: 'reused' });
    expect(again.body.orderId).not.toBe(first.body.orderId);
  });

  it('once the order has filled, the same id is accepted and places a second order', async () => {
    const fill = { market: 'ETH_USDT', side: 'sell', amount: '0.01', clientOrderId: 'filled-once' };
    const first = await place('createMarketOrder', fill);
    expect(first.body).toMatchObject({ status: 'FILLED', clientOrderId: 'filled-once' });
    const second = await place('createMarketOrder', fill);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ status: 'FILLED', clientOrderId: 'filled-once' });
    expect(second.body.orderId).not.toBe(first.body.orderId);
    // Both orders are in the history under the one id.
    const history = await place('listOrderHistory', { market: 'ETH_USDT', clientOrderId: 'filled-once' });
    expect(history.status).toBe(200);
    expect(JSON.stringify(history.body).match(/"filled-once"/g)).toHaveLength(2);
  });
});

describe('modify', () => {
  it('replaces the order under a new orderId, keeps its clientOrderId and moves the hold exactly', async () => {
    const btcUsdt = market('BTC_USDT');
    const usdt = balance('USDT');
    const placed = await place('createLimitOrder', {
      market: 'BTC_USDT',
      side: 'buy',
      amount: '0.01',
      price: '35000',
      clientOrderId: 'grid-1',
    });
    const changed = await place('modifyOrder', {
      market: 'BTC_USDT',
      clientOrderId: 'grid-1',
      amount: '0.015',
      price: '34900',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      clientOrderId: 'grid-1',
      amount: '0.015',
      price: '34900',
      status: 'NEW',
    });
    expect(changed.body.orderId).not.toBe(placed.body.orderId);
    expect(openIds()).toContain(changed.body.orderId);
    expect(openIds()).not.toContain(placed.body.orderId);
    const total = times('0.015', '34900');
    expect(balance('USDT').frozen - usdt.frozen).toBe(total + fee(total, btcUsdt.takerFee, 6));
    // The old order is cancelled, as the operator's streams show it.
    const old = sandbox.state
      .account(key().account)
      .closed.find((order) => order.orderId === placed.body.orderId);
    expect(old?.status).toBe('CANCELED');
  });

  it('a change the balance does not cover is refused with its example and leaves the order as it was', async () => {
    const placed = await place('createLimitOrder', {
      market: 'BTC_USDT',
      side: 'buy',
      amount: '0.01',
      price: '35000',
    });
    const before = balance('USDT');
    const refused = await place('modifyOrder', {
      market: 'BTC_USDT',
      orderId: placed.body.orderId,
      amount: '1000',
    });
    expect(refused).toMatchObject({
      status: 422,
      body: documentOf('modifyOrder').example('notEnoughBalance').value,
    });
    expect(openIds()).toContain(placed.body.orderId);
    expect(balance('USDT')).toEqual(before);
  });

  it('an order that is not open, and a request without an order or a change, are refused', async () => {
    const operation = documentOf('modifyOrder');
    expect(await place('modifyOrder', { market: 'BTC_USDT', orderId: 1, price: '1' })).toMatchObject({
      status: 400,
      body: operation.example('orderNotFound').value,
    });
    const noOrder = await place('modifyOrder', { market: 'BTC_USDT', price: '34000' });
    expect(refusalOf(noOrder).errors).toEqual({ orderId: [operation.message('orderIdOrClientOrderId')] });
    const noChange = await place('modifyOrder', { market: 'BTC_USDT', orderId: 4180284841 });
    expect(refusalOf(noChange).errors).toEqual({ amount: [operation.message('nothingToChange')] });
  });
});

describe('bulk limit orders', () => {
  it('answers each order: placed ones their order, refused ones the single order’s refusal', async () => {
    const reply = await place('createBulkLimitOrders', {
      orders: [
        { market: 'BTC_USDT', side: 'buy', amount: '0.02', price: '34500', clientOrderId: 'ladder-a' },
        { market: 'BTC_USDT', side: 'hold', amount: '0.01', price: '35500' },
        { market: 'NOPE_USDT', side: 'sell', amount: '0.01', price: '36000' },
        { market: 'BTC_USDT', side: 'sell', amount: '0.01', price: '36000', clientOrderId: 'ladder-a' },
        {},
        { market: 'BTC_USDT', side: 'sell', amount: '0.01', price: '36000' },
      ],
    });
    expect(reply.status).toBe(200);
    const single = documentOf('createLimitOrder');
    const bulk = documentOf('createBulkLimitOrders');
    expect(reply.body).toHaveLength(6);
    expect(reply.body[0]).toMatchObject({
      result: { clientOrderId: 'ladder-a', status: 'NEW' },
      error: null,
    });
    expect(reply.body[1]).toEqual({ result: null, error: single.example('sideInvalid').value });
    expect(reply.body[2]).toEqual({ result: null, error: single.example('marketNotAvailable').value });
    expect(reply.body[3]).toEqual({ result: null, error: single.example('clientOrderIdUsed').value });
    expect(reply.body[4]).toEqual((bulk.example('itemFieldsMissing').value as unknown[])[0]);
    expect(reply.body[5]).toMatchObject({ result: { side: 'sell' }, error: null });
  });

  it('with stopOnFail, stops at the first refused order: those after it are not placed', async () => {
    const before = openIds().length;
    const reply = await place('createBulkLimitOrders', {
      stopOnFail: true,
      orders: [
        { market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '34000' },
        { market: 'BTC_USDT', side: 'buy', amount: '0.00001', price: '34000' },
        { market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '34000' },
      ],
    });
    expect(reply.body).toHaveLength(2);
    expect(reply.body[1]).toEqual({
      result: null,
      error: documentOf('createLimitOrder').example('amountBelowMinimum').value,
    });
    expect(openIds().length).toBe(before + 1);
  });

  it('more than 20 orders are refused as a whole, in the document’s wording', async () => {
    const order = { market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '34000' };
    const reply = await place('createBulkLimitOrders', { orders: Array.from({ length: 21 }, () => order) });
    const operation = documentOf('createBulkLimitOrders');
    expect(reply.status).toBe(operation.example('ordersNotArray').status);
    expect(refusalOf(reply).errors).toEqual({ orders: [operation.message('ordersCount')] });
  });
});

describe('bulk cancel', () => {
  it('answers each item on its own, in the order asked', async () => {
    const placed = await place('createLimitOrder', {
      market: 'ETH_USDT',
      side: 'sell',
      amount: '0.5',
      price: '2100.5',
      clientOrderId: 'to-cancel',
    });
    const eth = balance('ETH');
    const operation = documentOf('cancelOrdersInBulk');
    const itemErrors = operation.example('itemErrors').value as unknown[];
    const reply = await place('cancelOrdersInBulk', {
      orders: [
        { market: 'BTC_USDT', orderId: 4180284841 },
        { market: 'ETH_USDT', clientOrderId: 'to-cancel' },
        { market: 'BTC_USDT', orderId: 4180284841 },
        'not an order',
        { orderId: 1 },
        { market: 'NOPE_USDT', orderId: 1 },
        { market: 'BTC_USDT' },
        { market: 'BTC_USDT', orderId: 1, clientOrderId: 'x' },
      ],
    });
    expect(reply.status).toBe(200);
    expect(reply.body.slice(0, 2)).toEqual([
      { result: { orderId: 4180284841, clientOrderId: '', market: 'BTC_USDT' }, error: null },
      {
        result: { orderId: placed.body.orderId, clientOrderId: 'to-cancel', market: 'ETH_USDT' },
        error: null,
      },
    ]);
    expect(reply.body[2]).toEqual((operation.example('oneCancelledOneNotFound').value as unknown[])[1]);
    expect(reply.body.slice(3)).toEqual(itemErrors.slice(0, 5));
    expect(balance('ETH').available).toBe(eth.available + units('0.5'));
  });
});

describe('cancel all', () => {
  it('cancels the open orders that match and gives back what they held', async () => {
    const usdt = balance('USDT');
    const eth = balance('ETH');
    expect(usdt.frozen).toBeGreaterThan(0n);
    const reply = await place('cancelAllOrders', { type: ['spot'] });
    expect(reply).toMatchObject({ status: 200, body: [] });
    expect(balance('USDT')).toEqual({ available: usdt.available + usdt.frozen, frozen: 0n });
    expect(balance('ETH')).toEqual({ available: eth.available + eth.frozen, frozen: 0n });
    const kinds = [...sandbox.state.account(key().account).orders.values()].map((order) => order.kind);
    expect(kinds.length).toBeGreaterThan(0);
    expect(kinds).not.toContain('spot');
  });
});

describe('the market rules, each refused with the operation’s own example', () => {
  it.each([
    ['a market that is not trading', { market: 'LTC_USDT' }, 'marketNotAvailable'],
    ['a futures market', { market: 'BTC_PERP' }, 'marketNotAvailable'],
    ['a market that does not exist', { market: 'NOPE_USDT' }, 'marketNotAvailable'],
    ['too many decimals in the amount', { amount: '0.0000001' }, 'amountOffStep'],
    ['an amount below the minimum', { amount: '0.00001' }, 'amountBelowMinimum'],
    ['a price of 0', { price: '0' }, 'priceNotPositive'],
    ['a price off its step', { price: '35000.001' }, 'priceBelowMinimum'],
    ['a total below the minimum', { amount: '0.0001', price: '100' }, 'totalBelowMinimum'],
    ['more than the balance', { amount: '100' }, 'notEnoughBalance'],
    ['ioc with postOnly', { ioc: true, postOnly: true }, 'iocWithPostOnly'],
  ])('%s', async (_, change, example) => {
    const before = sandbox.state.snapshot();
    const reply = await place('createLimitOrder', {
      market: 'BTC_USDT',
      side: 'buy',
      amount: '0.01',
      price: '34000',
      ...change,
    });
    const expected = documentOf('createLimitOrder').example(example);
    expect(reply).toMatchObject({ status: expected.status, body: expected.value });
    expect(sandbox.state.snapshot()).toEqual(before);
  });

  it('a total above the market’s maximum is worded by x-messages, in the shape of the minimum’s refusal', async () => {
    const ethBtc = market('ETH_BTC');
    const operation = documentOf('createLimitOrder');
    const reply = await place('createLimitOrder', {
      market: 'ETH_BTC',
      side: 'buy',
      amount: '200',
      price: '0.058',
    });
    const shape = operation.example('totalBelowMinimum');
    expect(reply.status).toBe(shape.status);
    expect(reply.body).toEqual({
      ...(shape.value as object),
      errors: { total: [operation.message('totalAboveMaximum').replace('{maxTotal}', ethBtc.maxTotal)] },
    });
  });

  it('rpi with ioc is refused in the wording of x-messages, code of the flags refusal', async () => {
    const operation = documentOf('createLimitOrder');
    const reply = await place('createLimitOrder', {
      market: 'BTC_USDT',
      side: 'buy',
      amount: '0.01',
      price: '34000',
      ioc: true,
      rpi: true,
    });
    expect(reply.body).toEqual({
      ...(operation.example('iocWithPostOnly').value as object),
      errors: { ioc: [operation.message('rpiWithIoc')] },
    });
  });
});

describe('reset', () => {
  it('puts orders, balances, deals and prices back to the fixture’s; the keys’ nonces stay used', async () => {
    const start = { usdt: balance('USDT'), btc: balance('BTC'), open: openIds() };
    const order = { market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '30000', clientOrderId: 'again' };
    expect((await place('createLimitOrder', order)).status).toBe(200);
    expect(
      (await place('createMarketOrder', { market: 'BTC_USDT', side: 'buy', amount: '100' })).status,
    ).toBe(200);
    sandbox.setPrice('BTC_USDT', '29000');
    expect(balance('BTC')).not.toEqual(start.btc);

    sandbox.reset();
    expect({ usdt: balance('USDT'), btc: balance('BTC'), open: openIds() }).toEqual(start);
    expect(sandbox.state.market('BTC_USDT').price).toBe(market('BTC_USDT').price);
    const deals = await place('listExecutedDeals', {});
    expect(deals.body).toEqual({});
    // The same clientOrderId is free again; a nonce used before the reset is still refused.
    expect((await place('createLimitOrder', order)).status).toBe(200);
    const replayed = await call(sandbox.url, key(), 'getTradeBalance', { fields: { nonce: '1' } });
    expect(replayed.status).toBe(429);
  });
});
