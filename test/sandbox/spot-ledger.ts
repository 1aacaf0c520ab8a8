// The spot side of the load tests: seeded draws of orders a market accepts, and the check that
// the trade balances reconcile exactly with the recorded deals and the open orders, read back
// through the API and computed with the tests' own arithmetic, never the sandbox's.
import { expect } from 'vitest';
import type { Fixture, FixtureMarket } from '../../sandbox/fixture.ts';
import { type PrivateClient, unwrap } from '../../src/index.ts';
import { decimalText, feeUp, times, units } from './helpers.ts';

/** Seeded draws of prices and amounts a market accepts, so that a failure can be replayed. */
export function draws(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const steps = (step: string, from: number, to: number) =>
    decimalText(units(step) * BigInt(from + Math.floor(next() * (to - from))));
  /** A price within 5 % of the market's, on its tick: about half cross it. */
  const priceNear = (market: FixtureMarket) => {
    const tick = tickOf(market);
    const ticks = units(market.price) / units(tick);
    const spread = ticks / 20n;
    return decimalText(units(tick) * (ticks - spread + BigInt(Math.floor(next() * Number(2n * spread)))));
  };
  /** An amount of the base asset on the market's step, between its minimum total and about 100 times it. */
  const amountFor = (market: FixtureMarket) =>
    steps(stepOf(market), leastSteps(market), leastSteps(market) * 100);
  return { next, pick, steps, priceNear, amountFor };
}

const tickOf = (market: FixtureMarket) => market.tickSize || `0.${'0'.repeat(Number(market.moneyPrec) - 1)}1`;
export const stepOf = (market: FixtureMarket) =>
  market.stepSize || `0.${'0'.repeat(Number(market.stockPrec) - 1)}1`;
/** The fewest steps of the base asset that meet the market's minimum amount and, at its price, total. */
export const leastSteps = (market: FixtureMarket) => {
  const perStep = times(market.price, stepOf(market));
  const forTotal = (units(market.minTotal) + perStep - 1n) / perStep;
  const forAmount = (units(market.minAmount) + units(stepOf(market)) - 1n) / units(stepOf(market));
  return Number(forTotal > forAmount ? forTotal : forAmount);
};
/** The text of `value` % of a market's price, on its tick. */
export const pricePercent = (market: FixtureMarket, value: bigint) => {
  const tick = tickOf(market);
  return decimalText(((units(market.price) * value) / 100n / units(tick)) * units(tick));
};

type Balances = Record<string, { available: string; freeze: string }>;
/** Each asset's total (available + held) in units. */
export const totals = (balances: Balances) =>
  Object.fromEntries(
    Object.entries(balances).map(([ticker, { available, freeze }]) => [
      ticker,
      units(available) + units(freeze),
    ]),
  );
export const tradeTotals = async (client: PrivateClient) =>
  totals((await unwrap(client.POST('/api/v4/trade-account/balance', { body: {} }))) as Balances);

/** Every page of a list operation. */
export async function allPages<Item>(
  read: (limit: number, offset: number) => Promise<Item[]>,
  limit: number,
) {
  const items: Item[] = [];
  for (let offset = 0; ; offset += limit) {
    const page = await read(limit, offset);
    items.push(...page);
    if (page.length < limit) return items;
  }
}

/**
 * The trade balances reconcile: each asset's total is `before` plus what each recorded deal on
 * `traded` moved, fees included; what is held is what the open orders hold; nothing is negative.
 * Returns the deals, for a caller's own checks.
 */
export async function expectSpotReconciled(
  client: PrivateClient,
  fixture: Fixture,
  traded: readonly FixtureMarket[],
  before: Record<string, bigint>,
) {
  const after = (await unwrap(client.POST('/api/v4/trade-account/balance', { body: {} }))) as Balances;
  type Deal = { amount: string; deal: string; fee: string; price: string; side: 'buy' | 'sell'; id: number };
  const spot = new Set(traded.map((market) => market.name));
  const deals = (
    await allPages(async (limit, offset) => {
      const page = (await unwrap(
        client.POST('/api/v4/trade-account/executed-history', { body: { limit, offset } }),
      )) as Record<string, Deal[]>;
      return Object.entries(page).flatMap(([market, marketDeals]) =>
        marketDeals.map((deal) => ({ market, ...deal })),
      );
    }, 500)
  ).filter((deal) => spot.has(deal.market));
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

  // Holds: what the open spot orders hold, by the test's own arithmetic.
  type Open = { market: string; side: 'buy' | 'sell'; type: string; amount: string; price: string };
  const open = (
    (await allPages(
      async (limit, offset) =>
        (await unwrap(client.POST('/api/v4/orders', { body: { limit, offset } }))) as Open[],
      100,
    )) as Open[]
  ).filter((order) => spot.has(order.market));
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
  return deals;
}
