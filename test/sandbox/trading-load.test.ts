// Integrity of the exchange under load: 500 concurrent order and cancel calls through the real
// client (nonceWindow, as concurrent callers should), then price moves that fill what rests. The
// balances must reconcile exactly, read back through the API and checked with the test's own
// arithmetic: for each asset, the total (available + held) is the starting total plus what the
// recorded deals moved, and what is held is what the open orders hold. Nothing lost or created.
//
// No timing: the calls overlap because a latch in the client's transport holds every one of them
// until all have arrived, and time is a fake clock shared by the client (its nonces) and the
// sandbox (its nonce window, timestamps), stepped explicitly between phases.
import { describe, expect, it } from 'vitest';
import type { Fixture, FixtureMarket } from '../../sandbox/fixture.ts';
import { timeLimits } from '../../scripts/time-limits.ts';
import { loadSuite, type Outcome, outcome } from './burst.ts';
import { defaultFixture, documentOf, partnerKey } from './helpers.ts';
import { draws, expectSpotReconciled, leastSteps, pricePercent, stepOf, tradeTotals } from './spot-ledger.ts';

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

const { next, pick, steps, priceNear, amountFor } = draws(20261124);

/**
 * The shared fake clock: it starts a little ahead of the real one, so that no nonce this process
 * signed earlier with the same key is above it, and moves only when `step` is called.
 */
// The clock starts a little ahead of the real one, so that no nonce this process signed earlier
// with the same key is above it, and moves only when the suite steps it.
const suite = loadSuite(fixture, key, Date.now() + 1_000);
const { burst, step } = suite;

describe('the exchange under 500 concurrent orders and cancels', {
  timeout: timeLimits.processTestMs,
}, () => {
  it('loses and creates nothing: totals move by the deals, holds are the open orders’', async () => {
    const { client, sandbox } = suite;
    const before = await tradeTotals(client);

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

    await expectSpotReconciled(client, fixture, traded, before);
  });
});
