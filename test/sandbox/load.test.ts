// Integrity under load: hundreds of concurrent invests, cancels and reads against one account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, recordAt, stringAt } from '../../model/json.ts';
import { multiply } from '../../sandbox/decimal.ts';
import type { Fixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { actionType, call, defaultFixture, documentOf, partnerKey, units } from './helpers.ts';

const fixture: Fixture = defaultFixture();
const partner = partnerKey(fixture);
const account = fixture.accounts.find((a) => a.id === partner.account);
const usdtPlan = fixture.plans.find((p) => p.status === 'active' && p.currency === 'USDT');
const btcPlan = fixture.plans.find((p) => p.status === 'active' && p.currency === 'BTC');
if (!account || !usdtPlan || !btcPlan) throw new Error('the fixture lacks what this test needs');

// Less money than the invests ask for, and many orders.
account.mainBalances = { ...account.mainBalances, USDT: '5000.5', BTC: '0.01' };
usdtPlan.minAmount = '10';
btcPlan.minAmount = '0.0001';
// Every kind of order each market takes: spot and margin orders on spot markets, futures ones
// on futures markets. Sells far above the price, so that none fills.
const combos = fixture.markets.flatMap((market) =>
  (market.type === 'spot' ? (['spot', 'margin'] as const) : (['futures'] as const)).map((kind) => ({
    market: market.name,
    kind,
    price: multiply(market.price, '10'),
    amount: market.minAmount,
  })),
);
account.openOrders = Array.from({ length: 300 }, (_, i) => {
  const combo = combos[i % combos.length] as (typeof combos)[number];
  return { orderId: 5_000_000_000 + i, side: 'sell' as const, ...combo };
});

/** A seeded sequence, so that a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, strict: true, fixture, nonceWindowMs: 600_000 });
});
afterAll(async () => {
  await sandbox.close();
  expect(sandbox.violations).toEqual([]);
});

let nonce = Date.now() - 300_000;
const windowed = () => ({ nonce: String(nonce++), nonceWindow: true });

describe('integrity under load', () => {
  it('concurrent invests and cancels: no negative balance, no lost or doubled row, totals reconcile', async () => {
    const next = random(20240601);
    const invests = Array.from({ length: 300 }, (_, i) => {
      const plan = i % 6 === 5 ? btcPlan : usdtPlan;
      const amount =
        plan === usdtPlan
          ? `${10 + Math.floor(next() * 30)}.${String(Math.floor(next() * 10000)).padStart(4, '0')}`
          : `0.000${1 + Math.floor(next() * 9)}`;
      return { plan, amount };
    });
    const targeted = combos.filter((_, i) => i % 2 === 0);

    const requests = [
      ...invests.map(({ plan, amount }) =>
        call(sandbox.url, partner, 'createFixedInvestment', {
          fields: { ...windowed(), planId: plan.id, amount },
        }).then((reply) => ({ kind: 'invest' as const, plan, amount, reply })),
      ),
      ...Array.from({ length: 100 }, (_, i) => {
        const combo = targeted[i % targeted.length];
        return call(sandbox.url, partner, 'cancelAllOrders', {
          fields: { ...windowed(), market: combo?.market, type: [combo?.kind] },
        }).then((reply) => ({ kind: 'cancel' as const, reply }));
      }),
      ...Array.from({ length: 50 }, () =>
        call(sandbox.url, partner, 'getMainBalance', { fields: windowed() }).then((reply) => ({
          kind: 'read' as const,
          reply,
        })),
      ),
    ];
    // Interleave the kinds rather than sending them in blocks.
    const results = await Promise.all(requests);

    for (const result of results) {
      if (result.kind === 'invest') expect([201, 422]).toContain(result.reply.status);
      else expect(result.reply.status).toBe(200);
    }
    const reads = results.filter((r) => r.kind === 'read');
    for (const { reply } of reads) {
      for (const balance of Object.values(recordAt(reply.body))) {
        expect(units(stringAt(balance, 'main_balance') ?? 'missing')).toBeGreaterThan(0n);
      }
    }

    for (const plan of [usdtPlan, btcPlan]) {
      const mine = results.filter((r) => r.kind === 'invest' && r.plan === plan) as {
        amount: string;
        reply: { status: number; body: { id: string; code?: number; errors?: Record<string, string[]> } };
      }[];
      const succeeded = mine.filter((r) => r.reply.status === 201);
      const failed = mine.filter((r) => r.reply.status === 422);
      expect(succeeded.length, `${plan.currency}: some invests succeed`).toBeGreaterThan(0);
      expect(failed.length, `${plan.currency}: the money runs out`).toBeGreaterThan(0);
      for (const { reply } of failed) {
        expect(reply.body.code).toBe(
          at(documentOf('createFixedInvestment').example('notEnoughBalance').value, 'code'),
        );
        expect(reply.body.errors?.amount?.[0]).toMatch(/ available, you're trying to invest /);
      }

      const initial = units(account.mainBalances?.[plan.currency] ?? '0');
      const spent = succeeded.reduce((total, r) => total + units(r.amount), 0n);
      const balance = units(
        (
          await call(sandbox.url, partner, 'getMainBalance', {
            fields: { ...windowed(), ticker: plan.currency },
          })
        ).body.main_balance as string,
      );
      expect(balance).toBe(initial - spent);
      expect(balance >= 0n).toBe(true);
      // The balance only went down, so it is now below every amount that was refused for lack of it.
      for (const { amount } of failed) expect(balance).toBeLessThan(units(amount));

      for (const type of [actionType.INVEST, actionType.OPEN_INVESTMENT]) {
        const rows: { investmentId: string; amount: string; transaction_id: string }[] = [];
        for (let offset = 0; ; offset += 100) {
          const page = await call(sandbox.url, partner, 'listFlexInvestmentHistory', {
            fields: { ...windowed(), plan: plan.id, actionTypes: [type], limit: 100, offset },
          });
          expect(page.status).toBe(200);
          rows.push(...page.body.data);
          if (page.body.data.length < 100) break;
        }
        const seeded = (account.history ?? []).filter(
          (row) => row.planId === plan.id && row.actionType === type,
        );
        const created = rows.filter((row) => !seeded.some((s) => s.transaction_id === row.transaction_id));
        expect(created).toHaveLength(succeeded.length);
        expect(new Set(created.map((row) => row.investmentId))).toEqual(
          new Set(succeeded.map((r) => r.reply.body.id)),
        );
        expect(new Set(rows.map((row) => row.transaction_id)).size).toBe(rows.length);
        expect(created.reduce((total, row) => total + units(row.amount), 0n)).toBe(spent);
      }
    }

    const snapshot = sandbox.state.snapshot();
    for (const { mainBalances } of snapshot.accounts) {
      for (const amount of Object.values(mainBalances)) expect(units(amount) >= 0n).toBe(true);
    }
    const mine = snapshot.accounts.find((a) => a.id === partner.account);
    const cancelledIds = (mine?.closedOrders ?? []).map((o) => o.orderId);
    const openIds = (mine?.openOrders ?? []).map((o) => o.orderId);
    expect(new Set(cancelledIds).size).toBe(cancelledIds.length);
    expect([...cancelledIds, ...openIds].sort()).toEqual(
      (account.openOrders ?? []).map((o) => o.orderId).sort(),
    );
    const isTargeted = (o: { market: string; kind: string }) =>
      targeted.some((t) => t.market === o.market && t.kind === o.kind);
    expect(mine?.openOrders.every((o) => !isTargeted(o))).toBe(true);
    expect(mine?.closedOrders.every(isTargeted)).toBe(true);
    expect(cancelledIds.length).toBeGreaterThan(0);
    expect(openIds.length).toBeGreaterThan(0);
  });
});
