import { describe, expect, it } from 'vitest';
import { call, defaultFixture, operations, ordinaryKey, partnerKey, strictSandbox } from './helpers.ts';

const fixture = defaultFixture();
const partner = partnerKey(fixture);
const ordinary = ordinaryKey(fixture);
const tooMany = { code: 0, errors: {}, message: 'Too many requests.' };

const suite = strictSandbox();

/** `count` calls at the current fake time, concurrently in batches, with unique window nonces. */
async function burst(
  operationId: 'getMainBalance' | 'getCollateralBalanceSummary',
  count: number,
  key = partner,
) {
  const statuses: number[] = [];
  let next = suite.clock.now - 4000 + Math.floor(Math.random() * 1000);
  for (let start = 0; start < count; start += 100) {
    const batch = Array.from({ length: Math.min(100, count - start) }, () => {
      next += 1;
      return call(suite.sandbox.url, key, operationId, {
        fields: { nonce: String(next), nonceWindow: true },
      });
    });
    statuses.push(...(await Promise.all(batch)).map((reply) => reply.status));
  }
  return statuses;
}

describe('rate limits from generated/operations.ts', () => {
  const limit = operations.getMainBalance.rateLimit;
  const windowMs = limit.windowSeconds * 1000;
  const half = Math.floor(limit.requests / 2);

  it(`allows ${limit.requests} calls per ${limit.windowSeconds} s per key and operation in a sliding window`, async () => {
    suite.clock.now = Date.now();
    // Half the limit now, the other half half a window later: the window is full.
    expect((await burst('getMainBalance', half)).every((s) => s === 200)).toBe(true);
    suite.clock.now += windowMs / 2;
    expect((await burst('getMainBalance', limit.requests - half)).every((s) => s === 200)).toBe(true);
    const refused = await call(suite.sandbox.url, partner, 'getMainBalance');
    expect(refused).toMatchObject({ status: 429, body: tooMany });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(limit.windowSeconds / 2);
    // Refused calls do not count.
    for (let i = 0; i < 5; i++)
      expect((await call(suite.sandbox.url, partner, 'getMainBalance')).status).toBe(429);
    // Another key, and another operation of the same key, have their own windows.
    expect((await call(suite.sandbox.url, ordinary, 'getMainBalance')).status).toBe(200);
    expect((await call(suite.sandbox.url, partner, 'getCollateralBalanceSummary')).status).toBe(200);
    // Half a window later the first half has left and the second is still in: exactly `half`
    // calls are free (fewer if the refused calls had counted, all if the window were fixed).
    suite.clock.now += windowMs / 2;
    const third = await burst('getMainBalance', half + 1);
    expect(third.filter((s) => s === 200)).toHaveLength(half);
    expect(third.filter((s) => s === 429)).toHaveLength(1);
  });

  it(`ping allows ${operations.pingApi.rateLimit.requests} calls per window, then 429 without a JSON body`, async () => {
    suite.clock.now += 2 * windowMs;
    const { requests } = operations.pingApi.rateLimit;
    const statuses: number[] = [];
    for (let start = 0; start < requests; start += 200) {
      const batch = Array.from({ length: Math.min(200, requests - start) }, () =>
        fetch(`${suite.sandbox.url}${operations.pingApi.path}`).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      );
      statuses.push(...(await Promise.all(batch)));
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await fetch(`${suite.sandbox.url}${operations.pingApi.path}`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type') ?? '').not.toMatch(/json/);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.text()).toBe('');
    suite.clock.now += operations.pingApi.rateLimit.windowSeconds * 1000;
    expect((await fetch(`${suite.sandbox.url}${operations.pingApi.path}`)).status).toBe(200);
  });
});
