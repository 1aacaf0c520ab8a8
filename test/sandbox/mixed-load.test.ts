// 500 concurrent calls of every kind that moves money at once, through the real client: spot
// orders and cancels, convert confirmations (some of the same quote twice), collateral orders and
// position closes (each twice). Afterwards every ledger reconciles exactly, read back through the
// API and computed with the test's own arithmetic: the trade balances with the deals and the open
// orders, the main balances with the confirmed quotes and the conversion history, the collateral
// balance with the positions' events and the funding paid. Nothing is created or lost, fees
// included, and no call counts twice.
//
// No timing: the latch in the client's transport (./burst.ts) makes the calls overlap, and the
// clock is a fake one shared by the client's nonces and the sandbox, stepped between phases.
import { describe, expect, it } from 'vitest';
import type { OperationId } from '../../generated/operations.ts';
import type { Fixture, FixtureMarket } from '../../sandbox/fixture.ts';
import { timeLimits } from '../../scripts/time-limits.ts';
import { unwrap } from '../../src/index.ts';
import { loadSuite, type Outcome, outcome } from './burst.ts';
import {
  decimalText,
  defaultFixture,
  documentOf,
  partnerKey,
  units,
  withoutCollateralSeeds,
} from './helpers.ts';
import { draws, expectSpotReconciled, leastSteps, pricePercent, stepOf, tradeTotals } from './spot-ledger.ts';

const fixture: Fixture = defaultFixture();
const key = partnerKey(fixture);
withoutCollateralSeeds(fixture, key.account);
const account = fixture.accounts.find((candidate) => candidate.id === key.account);
if (!account) throw new Error('the fixture has no account for the partner key');
// Each balance smaller than what the calls on it ask for together, so that some are refused.
account.tradeBalances = { USDT: '30000', BTC: '0.8', ETH: '8' };
account.mainBalances = { ...account.mainBalances, USDT: '1500', BTC: '0' };
for (const item of account.collateralBalances ?? []) {
  if (item.asset !== 'USDT') continue;
  item.balance = '1200';
  item.availableWithoutBorrow = '1200';
  item.availableWithBorrow = '6000';
}
const marketNamed = (name: string) => {
  const market = fixture.markets.find((candidate) => candidate.name === name);
  if (!market) throw new Error(`the fixture has no ${name}`);
  return market;
};
const traded = ['BTC_USDT', 'ETH_USDT', 'ETH_BTC'].map(marketNamed);
const perpetual = marketNamed('BTC_PERP');
const { next, pick, priceNear, amountFor, steps } = draws(20261126);

// The clock starts a little ahead of the real one, so that no nonce this process signed earlier
// with the same key is above it, and moves only when the suite steps it.
const suite = loadSuite(fixture, key, Date.now() + 1_000);
const { burst, step } = suite;

/** Each call's kind starts with its operation, whose documented refusals it may get. */
const refusal = (operationId: OperationId, name: string) =>
  JSON.stringify(documentOf(operationId).example(name).value);
const sum = (values: readonly string[]) => values.reduce((total, value) => total + units(value), 0n);

describe('500 concurrent orders, cancels, conversions and position closes', {
  timeout: timeLimits.processTestMs,
}, () => {
  it('reconcile exactly in every ledger: nothing created or lost, no call counted twice', async () => {
    const { client, sandbox } = suite;
    // Resting spot orders far from the price, to be cancelled twice each during the burst.
    const resting = traded.slice(0, 2).flatMap((market) =>
      Array.from({ length: 20 }, (_, i) => ({
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

    // A long and a short position on the perpetual market, in hedge mode, to be closed twice each.
    await unwrap(client.POST('/api/v4/collateral-account/hedge-mode/update', { body: { hedgeMode: true } }));
    for (const [side, positionSide] of [
      ['buy', 'LONG'],
      ['sell', 'SHORT'],
    ] as const) {
      await unwrap(
        client.POST('/api/v4/order/collateral/market', {
          body: { market: perpetual.name, side, amount: '0.01', positionSide },
        }),
      );
    }
    step();
    type Position = { positionId: number; positionSide: string; unrealizedPnl: string };
    const positions = (await unwrap(
      client.POST('/api/v4/collateral-account/positions/open', { body: {} }),
    )) as Position[];
    expect(positions.map((position) => position.positionSide).sort()).toEqual(['LONG', 'SHORT']);

    // Quotes asking together for more USDT than the main balance holds.
    type Quote = { id: string; give: string; receive: string };
    const quotes: Quote[] = [];
    for (let i = 0; i < 60; i++) {
      const amount = `${20 + (i % 11)}.${i % 10}`;
      quotes.push(
        (await unwrap(
          client.POST('/api/v4/convert/estimate', {
            body: { from: 'USDT', to: 'BTC', direction: 'from', amount },
          }),
        )) as Quote,
      );
    }
    step();

    const tradeBefore = await tradeTotals(client);
    type MainBalances = Record<string, { main_balance: string }>;
    const mainOf = async () =>
      (await unwrap(client.POST('/api/v4/main-account/balance', { body: {} }))) as MainBalances;
    const mainBefore = await mainOf();
    type Conversion = { give: string; receive: string };
    const conversions = async () =>
      (
        (await unwrap(client.POST('/api/v4/convert/history', { body: { limit: 100, offset: 0 } }))) as {
          records: Conversion[];
        }
      ).records;
    const conversionsBefore = (await conversions()).length;

    const calls: (() => Promise<Outcome>)[] = [];
    resting.forEach(({ market, clientOrderId }, i) => {
      const label = `cancelOrder ${clientOrderId}`;
      const byId = { market, orderId: restingIds[i] as number };
      calls.push(() => client.POST('/api/v4/order/cancel', { body: byId }).then(outcome(label)));
      calls.push(() =>
        client.POST('/api/v4/order/cancel', { body: { market, clientOrderId } }).then(outcome(label)),
      );
    });
    quotes.forEach((quote, i) => {
      const confirm = () =>
        client
          .POST('/api/v4/convert/confirm', { body: { quoteId: quote.id } })
          .then(outcome(`confirmConversion ${i}`));
      calls.push(confirm);
      if (i < 20) calls.push(confirm);
    });
    for (const position of positions) {
      const body = {
        positionId: position.positionId,
        market: perpetual.name,
        positionSide: position.positionSide as 'LONG' | 'SHORT',
      };
      for (let twice = 0; twice < 2; twice++)
        calls.push(() =>
          client
            .POST('/api/v4/collateral-account/position/close', { body })
            .then(outcome(`closePosition ${position.positionId}`)),
        );
    }
    for (let i = 0; i < 60; i++) {
      const [side, positionSide] = i % 2 ? (['sell', 'SHORT'] as const) : (['buy', 'LONG'] as const);
      const body = { market: perpetual.name, side, amount: '0.001', positionSide };
      calls.push(() =>
        client.POST('/api/v4/order/collateral/market', { body }).then(outcome('createCollateralMarketOrder')),
      );
    }
    for (let i = 0; i < 20; i++) {
      const body = {
        market: perpetual.name,
        side: 'buy' as const,
        amount: '0.001',
        price: pricePercent(perpetual, 98n),
        positionSide: 'LONG' as const,
      };
      calls.push(() =>
        client.POST('/api/v4/order/collateral/limit', { body }).then(outcome('createCollateralLimitOrder')),
      );
    }
    const contended: { clientOrderId: string; market: string }[] = [];
    while (calls.length < 500) {
      const market = pick(traded) as FixtureMarket;
      const side = pick(['buy', 'sell'] as const);
      const roll = next();
      if (roll < 0.5) {
        const clientOrderId = `mixed-${calls.length}`;
        contended.push({ clientOrderId, market: market.name });
        const body = {
          market: market.name,
          side,
          amount: amountFor(market),
          price: priceNear(market),
          clientOrderId,
        };
        calls.push(() => client.POST('/api/v4/order/new', { body }).then(outcome('createLimitOrder')));
      } else if (roll < 0.7) {
        const body = { market: market.name, side: 'sell' as const, amount: amountFor(market) };
        calls.push(() => client.POST('/api/v4/order/market', { body }).then(outcome('createMarketOrder')));
      } else {
        const target =
          contended.length > 0 ? pick(contended) : { market: market.name, clientOrderId: 'none' };
        calls.push(() => client.POST('/api/v4/order/cancel', { body: target }).then(outcome('cancelOrder')));
      }
    }
    const results = await burst(calls);

    // Every answer is a success or one of its operation's documented refusals.
    for (const result of results) {
      if (result.status === 200) continue;
      const documented = documentOf(result.kind.split(' ')[0] as OperationId)
        .errorExamples()
        .map(({ value }) => JSON.stringify(value));
      expect(documented, JSON.stringify(result)).toContain(JSON.stringify(result.body));
    }
    const byKind = (kind: string) => results.filter((result) => result.kind === kind);
    // Each resting order cancelled once; each position closed once; each quote converted at most once.
    for (const { clientOrderId } of resting)
      expect(
        byKind(`cancelOrder ${clientOrderId}`)
          .map((result) => result.status)
          .sort(),
        clientOrderId,
      ).toEqual([200, 400]);
    const positionGone = documentOf('closePosition').example('positionNotFound');
    for (const position of positions) {
      const pair = byKind(`closePosition ${position.positionId}`);
      expect(pair.map((result) => result.status).sort(), String(position.positionId)).toEqual([
        200,
        positionGone.status,
      ]);
      expect(JSON.stringify(pair.find((result) => result.status !== 200)?.body)).toBe(
        JSON.stringify(positionGone.value),
      );
    }
    const accepted = quotes.filter((_, i) => {
      const answers = byKind(`confirmConversion ${i}`);
      const successes = answers.filter((result) => result.status === 200);
      expect(successes.length, `quote ${i}`).toBeLessThanOrEqual(1);
      if (successes.length === 1 && answers.length === 2)
        expect(JSON.stringify(answers.find((result) => result.status !== 200)?.body)).toBe(
          refusal('confirmConversion', 'quoteAlreadyUsed'),
        );
      return successes.length === 1;
    });
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.length).toBeLessThan(quotes.length);

    // The market moves through what rests, on the spot markets and the perpetual one.
    for (const market of [...traded, perpetual]) {
      sandbox.setPrice(market.name, pricePercent(market, 103n));
      sandbox.setPrice(market.name, pricePercent(market, 97n));
    }
    step();

    // Trade balances: the deals and the open orders.
    await expectSpotReconciled(client, fixture, traded, tradeBefore);

    // Main balances: exactly the accepted quotes, each once in the history.
    const mainAfter = await mainOf();
    const given = sum(accepted.map((quote) => quote.give));
    const received = sum(accepted.map((quote) => quote.receive));
    expect(units(mainAfter.USDT?.main_balance ?? '0')).toBe(
      units(mainBefore.USDT?.main_balance ?? '0') - given,
    );
    expect(units(mainAfter.BTC?.main_balance ?? '0')).toBe(
      units(mainBefore.BTC?.main_balance ?? '0') + received,
    );
    const all = await conversions();
    // Newest first: what the burst converted is ahead of what was there before.
    const history = all.slice(0, all.length - conversionsBefore);
    expect(history).toHaveLength(accepted.length);
    expect(sum(history.map((row) => row.give))).toBe(given);
    expect(sum(history.map((row) => row.receive))).toBe(received);

    // Collateral: the starting 1200 USDT plus each position event's realized PnL, less its fee,
    // plus the funding paid; the equity adds what the open positions would realize now.
    type PositionEvent = { orderDetail: { tradeFee: string; realizedPnl: string | null } };
    const events = (await unwrap(
      client.POST('/api/v4/collateral-account/positions/history', { body: {} }),
    )) as PositionEvent[];
    const funding = (
      (await unwrap(
        client.POST('/api/v4/collateral-account/funding-history', { body: { market: perpetual.name } }),
      )) as { records: { fundingAmount: string }[] }
    ).records;
    const realized = sum(events.map((event) => event.orderDetail.realizedPnl ?? '0'));
    const fees = sum(events.map((event) => event.orderDetail.tradeFee));
    const collateral = (await unwrap(
      client.POST('/api/v4/collateral-account/balance', { body: {} }),
    )) as Record<string, string>;
    expect(decimalText(units(collateral.USDT ?? '0'))).toBe(
      decimalText(units('1200') + realized - fees + sum(funding.map((row) => row.fundingAmount))),
    );
    const open = (await unwrap(
      client.POST('/api/v4/collateral-account/positions/open', { body: {} }),
    )) as Position[];
    const summary = (await unwrap(client.POST('/api/v4/collateral-account/summary', { body: {} }))) as {
      equity: string;
    };
    expect(units(summary.equity)).toBe(units(collateral.USDT ?? '0') + sum(open.map((p) => p.unrealizedPnl)));

    // And the sandbox's one ledger: every move of every kind was a balanced entry.
    expect(sandbox.state.ledger.imbalance(sandbox.state.accounts.values())).toEqual({});
  });
});
