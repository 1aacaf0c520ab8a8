// Integrity of the exchange under load: 500 concurrent order and cancel calls through the real
// client (nonceWindow, as concurrent callers should), then price moves that fill what rests. The
// balances must reconcile exactly, read back through the API and checked with the test's own
// arithmetic: for each asset, the total (available + held) is the starting total plus what the
// recorded deals moved, and what is held is what the open orders hold. Nothing lost or created.
//
// No timing: the calls overlap because a latch in the client's transport holds every one of them
// until all have arrived, and time is a fake clock shared by the client (its nonces) and the
// sandbox (its nonce window, timestamps), stepped explicitly between phases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture, FixtureMarket } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { timeLimits } from '../../scripts/time-limits.ts';
import { createPrivateClient, type PrivateClient, type Transport, unwrap } from '../../src/index.ts';
import { createDefaultTransport } from '../../src/transport/undici.ts';
import { decimalText, defaultFixture, documentOf, feeUp, partnerKey, times, units } from './helpers.ts';

const fixture: Fixture = defaultFixture();
const key = partnerKey(fixture);
const account = fixture.accounts.find((candidate) => candidate.id === key.account);
if (!account) throw new Error('the fixture has no account for the partner key');
// Less than the orders ask for, so that some are refused for the balance.
account.tradeBalances = { USDT: '30000', BTC: '0.8', ETH: '8' };
const traded = ['BTC_USDT', 'ETH_USDT', 'ETH_BTC'].map((name) => {
  const market = fixture.markets.find((candidate) => candidate.name === name);
  if (!market) throw new Error(`the fixture has no ${name}`);
  return market;
});

/** A seeded sequence, so that a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}
const next = random(20261124);
const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
const steps = (step: string, from: number, to: number) =>
  decimalText(units(step) * BigInt(from + Math.floor(next() * (to - from))));
/** A price within 5 % of the market's, on its tick: about half cross it. */
const priceNear = (market: FixtureMarket) => {
  const tick = market.tickSize || `0.${'0'.repeat(Number(market.moneyPrec) - 1)}1`;
  const ticks = units(market.price) / units(tick);
  const spread = ticks / 20n;
  return decimalText(units(tick) * (ticks - spread + BigInt(Math.floor(next() * Number(2n * spread)))));
};
const stepOf = (market: FixtureMarket) => market.stepSize || `0.${'0'.repeat(Number(market.stockPrec) - 1)}1`;
/** The fewest steps of the base asset that meet the market's minimum amount and, at its price, total. */
const leastSteps = (market: FixtureMarket) => {
  const perStep = times(market.price, stepOf(market));
  const forTotal = (units(market.minTotal) + perStep - 1n) / perStep;
  const forAmount = (units(market.minAmount) + units(stepOf(market)) - 1n) / units(stepOf(market));
  return Number(forTotal > forAmount ? forTotal : forAmount);
};
/** An amount of the base asset on the market's step, between its minimum total and about 100 times it. */
const amountFor = (market: FixtureMarket) =>
  steps(stepOf(market), leastSteps(market), leastSteps(market) * 100);

/**
 * The shared fake clock: it starts a little ahead of the real one, so that no nonce this process
 * signed earlier with the same key is above it, and moves only when `step` is called.
 */
let now = Date.now() + 1_000;
const clock = () => now;
/** Moves the clock past every nonce a burst signed (at most 500, each one above the last). */
const step = () => {
  now += 2_000;
};

/**
 * A latch in the client's transport: while a burst runs, each exchange waits at it until every
 * call of the burst has reached the transport (or ended without reaching it), then all go at
 * once, as many on the wire together as the transport has connections.
 */
class Latch {
  arrived = 0;
  endedBefore = 0;
  isOpen = false;
  readonly opened: Promise<void>;
  readonly expected: number;
  #open = () => {};
  constructor(expected: number) {
    this.expected = expected;
    this.opened = new Promise((resolve) => {
      this.#open = resolve;
    });
  }
  arrive(): Promise<void> {
    this.arrived++;
    this.#check();
    return this.opened;
  }
  /** A call that ended while the latch was closed never reached the transport: stop waiting for it. */
  ended() {
    if (this.isOpen) return;
    this.endedBefore++;
    this.#check();
  }
  #check() {
    if (this.arrived + this.endedBefore < this.expected) return;
    this.isOpen = true;
    this.#open();
  }
}
let latch: Latch | undefined;
function latchedTransport(inner: Transport): Transport {
  return {
    // Held before the connection and the signature, as a call waiting for a connection would be.
    async lease(target, deadline) {
      await latch?.arrive();
      return inner.lease(target, deadline);
    },
    close: (reason) => inner.close(reason),
  };
}

type Outcome = { kind: string; status: number; body: unknown };
const outcome =
  (kind: string) =>
  (result: {
    data?: unknown;
    error?: { status?: number | undefined; body?: unknown } | undefined;
  }): Outcome => ({
    kind,
    status: result.error ? (result.error.status ?? 0) : 200,
    body: result.error ? result.error.body : result.data,
  });

/** Starts every call at once and waits for them all; the latch makes them overlap. */
async function burst(calls: (() => Promise<Outcome>)[]): Promise<Outcome[]> {
  const current = new Latch(calls.length);
  latch = current;
  const results = await Promise.all(calls.map((start) => start().finally(() => current.ended())));
  latch = undefined;
  // Every call was on its way to the sandbox at once: none ended inside the client.
  expect({ arrived: current.arrived, endedBefore: current.endedBefore }).toEqual({
    arrived: calls.length,
    endedBefore: 0,
  });
  step();
  return results;
}

let sandbox: Sandbox;
let client: PrivateClient;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, strict: true, fixture, clock });
  client = createPrivateClient({
    apiKey: key.apiKey,
    apiSecret: key.secret,
    baseUrl: sandbox.url,
    nonceWindow: true,
    clock,
    transport: latchedTransport(createDefaultTransport()),
  });
});
afterAll(async () => {
  await client?.close();
  await sandbox?.close();
  expect(sandbox?.violations).toEqual([]);
});

type Balances = Record<string, { available: string; freeze: string }>;
const totals = (balances: Balances) =>
  Object.fromEntries(
    Object.entries(balances).map(([ticker, { available, freeze }]) => [
      ticker,
      units(available) + units(freeze),
    ]),
  );

/** Every page of a list operation. */
async function allPages<Item>(read: (limit: number, offset: number) => Promise<Item[]>, limit: number) {
  const items: Item[] = [];
  for (let offset = 0; ; offset += limit) {
    const page = await read(limit, offset);
    items.push(...page);
    if (page.length < limit) return items;
  }
}

/** The text of `value` % of a market's price, on its tick. */
const pricePercent = (market: FixtureMarket, value: bigint) => {
  const tick = market.tickSize || `0.${'0'.repeat(Number(market.moneyPrec) - 1)}1`;
  return decimalText(((units(market.price) * value) / 100n / units(tick)) * units(tick));
};

describe('the exchange under 500 concurrent orders and cancels', {
  timeout: timeLimits.processTestMs,
}, () => {
  it('loses and creates nothing: totals move by the deals, holds are the open orders’', async () => {
    const before = totals(
      (await unwrap(client.POST('/api/v4/trade-account/balance', { body: {} }))) as Balances,
    );

    // First, orders that rest far from the price, placed together; the account can afford them
    // all, so every one is accepted, whatever order they arrive in.
    const [btcUsdt, ethUsdt, ethBtc] = traded as [FixtureMarket, FixtureMarket, FixtureMarket];
    const resting = [btcUsdt, ethUsdt].flatMap((market) =>
      Array.from({ length: 30 }, (_, i) => ({
        market: market.name,
        side: i % 2 === 0 ? ('buy' as const) : ('sell' as const),
        amount: steps(stepOf(market), leastSteps(market) * 2, leastSteps(market) * 3),
        price: pricePercent(market, i % 2 === 0 ? 92n : 108n),
        clientOrderId: `rest-${market.name}-${i}`,
      })),
    );
    const placed = await burst(
      resting.map((body) => () => client.POST('/api/v4/order/new', { body }).then(outcome('rest'))),
    );
    for (const result of placed) expect(result.status, JSON.stringify(result)).toBe(200);
    const restingIds = placed.map((result) => (result.body as { orderId: number }).orderId);

    // Then 500 calls at once: each resting order cancelled twice (by its id and by its
    // clientOrderId), cancel all on the one market none of them is on, an order no balance can
    // pay for, and orders on all three markets with cancels of them, which contend for a balance
    // smaller than they ask for.
    const calls: (() => Promise<Outcome>)[] = [];
    resting.forEach(({ market, clientOrderId }, i) => {
      calls.push(() =>
        client
          .POST('/api/v4/order/cancel', { body: { market, orderId: restingIds[i] as number } })
          .then(outcome(`cancel ${clientOrderId}`)),
      );
      calls.push(() =>
        client
          .POST('/api/v4/order/cancel', { body: { market, clientOrderId } })
          .then(outcome(`cancel ${clientOrderId}`)),
      );
    });
    for (let i = 0; i < 4; i++) {
      calls.push(() =>
        client
          .POST('/api/v4/order/cancel/all', { body: { market: ethBtc.name, type: ['spot'] } })
          .then(outcome('cancel all')),
      );
    }
    calls.push(() =>
      client
        .POST('/api/v4/order/new', {
          body: { market: btcUsdt.name, side: 'buy', amount: '100', price: btcUsdt.price },
        })
        .then(outcome('unaffordable')),
    );
    const contended: { clientOrderId: string; market: string }[] = [];
    for (let i = calls.length; i < 500; i++) {
      const market = pick(traded);
      const side = pick(['buy', 'sell'] as const);
      const roll = next();
      if (roll < 0.4) {
        contended.push({ clientOrderId: `load-${i}`, market: market.name });
        const body = {
          market: market.name,
          side,
          amount: amountFor(market),
          price: priceNear(market),
          clientOrderId: `load-${i}`,
        };
        calls.push(() => client.POST('/api/v4/order/new', { body }).then(outcome('limit')));
      } else if (roll < 0.5) {
        const amount =
          side === 'buy'
            ? steps(`0.${'0'.repeat(Number(market.moneyPrec) - 1)}1`, 1000, 20000)
            : amountFor(market);
        const body = { market: market.name, side, amount };
        calls.push(() => client.POST('/api/v4/order/market', { body }).then(outcome('market')));
      } else if (roll < 0.57) {
        const body = { market: market.name, side, amount: amountFor(market) };
        calls.push(() => client.POST('/api/v4/order/stock_market', { body }).then(outcome('stock market')));
      } else if (roll < 0.62) {
        const orders = [0, 1, 2].map(() => ({
          market: market.name,
          side,
          amount: amountFor(market),
          price: priceNear(market),
        }));
        calls.push(() => client.POST('/api/v4/order/bulk', { body: { orders } }).then(outcome('bulk')));
      } else {
        // One of the contended limit orders, which may not have arrived yet, may have filled or
        // been refused, or may be cancelled twice.
        const target =
          contended.length > 0 ? pick(contended) : { market: market.name, clientOrderId: 'none-yet' };
        calls.push(() => client.POST('/api/v4/order/cancel', { body: target }).then(outcome('cancel')));
      }
    }
    expect(calls).toHaveLength(500);
    const results = await burst(calls);

    // Every answer is a success or a documented refusal: never a 5xx, a rate limit or a stale nonce.
    const refusals = new Set(
      [
        'createLimitOrder',
        'createMarketOrder',
        'createStockMarketOrder',
        'cancelOrder',
        'cancelAllOrders',
      ].flatMap((id) =>
        documentOf(id as never)
          .errorExamples()
          .map(({ value }) => JSON.stringify(value)),
      ),
    );
    for (const result of results) {
      if (result.status === 200) continue;
      expect([400, 422], JSON.stringify(result)).toContain(result.status);
      expect(refusals.has(JSON.stringify(result.body)), JSON.stringify(result)).toBe(true);
    }
    // Each resting order was cancelled exactly once; the other cancel found no order.
    const unknownOrder = JSON.stringify(documentOf('cancelOrder').example('orderNotFound').value);
    for (const { clientOrderId } of resting) {
      const pair = results.filter((result) => result.kind === `cancel ${clientOrderId}`);
      expect(pair.map((result) => result.status).sort(), clientOrderId).toEqual([200, 400]);
      expect(JSON.stringify(pair.find((result) => result.status === 400)?.body)).toBe(unknownOrder);
    }
    expect(JSON.stringify(results.find((result) => result.kind === 'unaffordable')?.body)).toContain(
      'Not enough balance',
    );

    // Prices move through what rests: those orders fill as the maker.
    for (const market of traded) {
      sandbox.setPrice(market.name, pricePercent(market, 103n));
      sandbox.setPrice(market.name, pricePercent(market, 97n));
    }
    step();

    const after = (await unwrap(client.POST('/api/v4/trade-account/balance', { body: {} }))) as Balances;
    type Deal = {
      amount: string;
      deal: string;
      fee: string;
      price: string;
      side: 'buy' | 'sell';
      id: number;
    };
    const deals = (await allPages(async (limit, offset) => {
      const page = (await unwrap(
        client.POST('/api/v4/trade-account/executed-history', { body: { limit, offset } }),
      )) as Record<string, Deal[]>;
      return Object.entries(page).flatMap(([market, marketDeals]) =>
        marketDeals.map((deal) => ({ market, ...deal })),
      );
    }, 500)) as (Deal & { market: string })[];
    expect(new Set(deals.map((deal) => deal.id)).size).toBe(deals.length);
    for (const market of traded)
      expect(
        deals.some((deal) => deal.market === market.name),
        market.name,
      ).toBe(true);

    // Totals: the start plus what each deal moved.
    const expected = { ...before };
    const change = (ticker: string, amount: bigint) => {
      expected[ticker] = (expected[ticker] ?? 0n) + amount;
    };
    for (const deal of deals) {
      const market = traded.find((candidate) => candidate.name === deal.market) as FixtureMarket;
      const sign = deal.side === 'buy' ? 1n : -1n;
      change(market.stock, sign * units(deal.amount));
      change(market.money, -sign * units(deal.deal) - units(deal.fee));
      expect(units(deal.deal)).toBe(times(deal.amount, deal.price));
    }
    const totalsAfter = totals(after);
    for (const ticker of new Set([...Object.keys(expected), ...Object.keys(totalsAfter)])) {
      expect(totalsAfter[ticker] ?? 0n, ticker).toBe(expected[ticker] ?? 0n);
    }

    // Holds: what the open orders hold, by the test's own arithmetic.
    type Open = { market: string; side: 'buy' | 'sell'; type: string; amount: string; price: string };
    const open = (await allPages(
      async (limit, offset) =>
        (await unwrap(client.POST('/api/v4/orders', { body: { limit, offset } }))) as Open[],
      100,
    )) as Open[];
    expect(open.length).toBeGreaterThan(0);
    const held: Record<string, bigint> = {};
    for (const order of open) {
      const market = fixture.markets.find((candidate) => candidate.name === order.market) as FixtureMarket;
      if (order.side === 'sell') {
        held[market.stock] = (held[market.stock] ?? 0n) + units(order.amount);
        continue;
      }
      const total = times(order.amount, order.price);
      const rate = units(market.makerFee) > units(market.takerFee) ? market.makerFee : market.takerFee;
      held[market.money] = (held[market.money] ?? 0n) + total + feeUp(total, rate, Number(market.feePrec));
    }
    for (const [ticker, { freeze }] of Object.entries(after))
      expect(units(freeze), ticker).toBe(held[ticker] ?? 0n);
    for (const { available } of Object.values(after)) expect(units(available) >= 0n).toBe(true);
  });
});
