import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Faults, faultsFromEnvironment } from '../../sandbox/faults.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { call, defaultFixture, nextNonce, operations, ordinaryKey, partnerKey } from './helpers.ts';

const fixture = defaultFixture();
const partner = partnerKey(fixture);
const plan = fixture.plans.find((p) => p.status === 'active' && p.currency === 'USDT');
if (!plan) throw new Error('the fixture lacks an active USDT plan');

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, strict: true });
});
afterEach(() => sandbox.setFaults());
afterAll(async () => {
  await sandbox.close();
  expect(sandbox.violations).toEqual([]);
});

const balance = async () =>
  (await call(sandbox.url, partner, 'getMainBalance', { fields: { ticker: plan.currency } })).body
    .main_balance;
const invest = () =>
  call(sandbox.url, partner, 'createFixedInvestment', {
    fields: { planId: plan.id, amount: plan.minAmount },
  });

describe('fault mode', () => {
  it('status5xx as a count answers the first N matching calls 503, unprocessed, then recovers', async () => {
    sandbox.setFaults({ status5xx: 2, operations: ['createFixedInvestment'] });
    const before = await balance();
    const first = await invest();
    const second = await invest();
    expect([first.status, second.status]).toEqual([503, 503]);
    expect(first.body).toBeUndefined();
    expect(await balance()).toBe(before);
    expect((await invest()).status).toBe(201);
    expect(await balance()).not.toBe(before);
    expect(sandbox.faults.injected.unavailable).toBe(2);
  });

  it('only the operations listed are affected', async () => {
    sandbox.setFaults({ status5xx: 100, operations: ['cancelAllOrders'] });
    expect((await call(sandbox.url, partner, 'getMainBalance')).status).toBe(200);
    expect((await fetch(`${sandbox.url}${operations.pingApi.path}`)).status).toBe(200);
    expect((await call(sandbox.url, partner, 'cancelAllOrders')).status).toBe(503);
  });

  it('a 503 leaves the nonce unused, so the same signed call can be sent again', async () => {
    sandbox.setFaults({ status5xx: 1 });
    const fields = { nonce: nextNonce() };
    expect((await call(sandbox.url, partner, 'getMainBalance', { fields })).status).toBe(503);
    expect((await call(sandbox.url, partner, 'getMainBalance', { fields })).status).toBe(200);
  });

  it('dropConnections destroys the socket before processing', async () => {
    sandbox.setFaults({ dropConnections: 1, operations: ['createFixedInvestment'] });
    const before = await balance();
    await expect(invest()).rejects.toThrow();
    expect(await balance()).toBe(before);
    expect((await invest()).status).toBe(201);
    expect(sandbox.faults.injected.dropped).toBe(1);
  });

  it('dropPhase "after" processes the call, then loses the answer (why invest must not be retried)', async () => {
    sandbox.setFaults({
      dropConnections: { count: 1 },
      dropPhase: 'after',
      operations: ['createFixedInvestment'],
    });
    const before = await balance();
    await expect(invest()).rejects.toThrow();
    const after = await balance();
    expect(after).not.toBe(before);
    const rows = sandbox.state.account(partner.account).investments;
    expect(rows.at(-1)?.amount).toBe(plan.minAmount);
  });

  it('delayMs holds matching calls back: a later, undelayed call is answered first', async () => {
    sandbox.setFaults({ delayMs: 400, operations: ['getCollateralBalanceSummary'] });
    // The sandbox's wait on fake timers: the slow call stays held however long the quick one takes.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const order: string[] = [];
      const slow = call(sandbox.url, partner, 'getCollateralBalanceSummary').then((r) =>
        order.push(`slow ${r.status}`),
      );
      // Until the sandbox holds it (expect.poll would advance the fake clock: turns of the event loop).
      while (sandbox.faults.injected.delayed === 0) await new Promise((resolve) => setImmediate(resolve));
      // Another key: with one key, the later nonce would overtake the earlier one and the slow call get 429.
      await call(sandbox.url, ordinaryKey(fixture), 'getMainBalance').then((r) =>
        order.push(`quick ${r.status}`),
      );
      await vi.advanceTimersByTimeAsync(399);
      expect(order).toEqual(['quick 200']);
      await vi.advanceTimersByTimeAsync(1);
      await slow;
      expect(order).toEqual(['quick 200', 'slow 200']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a rate is seeded: the same seed gives the same faults, another seed others', () => {
    const run = (seed: number) => {
      const faults = new Faults({ status5xx: 0.5, seed });
      return Array.from({ length: 64 }, () => faults.decide('getMainBalance'));
    };
    const a = run(7);
    expect(run(7)).toEqual(a);
    expect(a).toContain('unavailable');
    expect(a).toContain('none');
    expect(run(8)).not.toEqual(a);
  });

  it('a seeded rate applies to real calls in arrival order', async () => {
    const expected = (() => {
      const faults = new Faults({ dropConnections: 0.3, status5xx: 0.3, seed: 42 });
      return Array.from({ length: 20 }, () => faults.decide('getMainBalance'));
    })();
    sandbox.setFaults({ dropConnections: 0.3, status5xx: 0.3, seed: 42 });
    const seen: string[] = [];
    for (let i = 0; i < expected.length; i++) {
      const outcome = await call(sandbox.url, partner, 'getMainBalance').then(
        (reply) =>
          reply.status === 503 ? 'unavailable' : reply.status === 200 ? 'none' : String(reply.status),
        () => 'drop-before',
      );
      seen.push(outcome);
    }
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(3);
  });

  it('SANDBOX_FAULTS is JSON; bad options are refused', () => {
    expect(faultsFromEnvironment(undefined)).toBeUndefined();
    expect(faultsFromEnvironment('{"status5xx":3,"operations":["getMainBalance"]}')).toEqual({
      status5xx: 3,
      operations: ['getMainBalance'],
    });
    expect(() => faultsFromEnvironment('[1]')).toThrow();
    expect(() => new Faults({ operations: ['noSuchOperation' as never] })).toThrow(/unknown operation/);
    expect(() => new Faults({ status5xx: -1 })).toThrow();
  });
});
