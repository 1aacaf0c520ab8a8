import { Agent, request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import {
  call,
  defaultFixture,
  operations,
  ordinaryKey,
  partnerKey,
  signedPost,
  strictSandbox,
} from './helpers.ts';

const fixture = defaultFixture();
const partner = partnerKey(fixture);
const ordinary = ordinaryKey(fixture);
const tooMany = { code: 0, errors: {}, message: 'Too many requests.' };

const suite = strictSandbox();

/**
 * The bursts' connections, kept alive: the thousands of calls that fill a window go through
 * node:http, a third of the CPU of a fetch each (the sandbox answers the same requests either
 * way); the calls whose answers are read in full still go through `call`.
 */
const agent = new Agent({ keepAlive: true });
afterAll(() => agent.destroy());

/** A request on the bursts' connections; resolves with its status and body once all is read. */
function send(
  path: string,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const outgoing = request(`${suite.sandbox.url}${path}`, { ...init, agent }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });
}

/** `count` calls at the current fake time, concurrently in batches, with unique window nonces. */
async function burst(
  operationId: 'getMainBalance' | 'getCollateralBalanceSummary',
  count: number,
  key = partner,
) {
  const { path } = operations[operationId];
  const statuses: number[] = [];
  let next = suite.clock.now - 4000 + Math.floor(Math.random() * 1000);
  for (let start = 0; start < count; start += 100) {
    const batch = Array.from({ length: Math.min(100, count - start) }, async () => {
      next += 1;
      const { text, headers } = signedPost(key, path, { fields: { nonce: String(next), nonceWindow: true } });
      const answer = await send(path, { method: 'POST', headers, body: text });
      // Every answer is JSON, as `call` reads it.
      JSON.parse(answer.text);
      return answer.status;
    });
    statuses.push(...(await Promise.all(batch)));
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
        send(operations.pingApi.path, { method: 'GET' }).then((answer) => answer.status),
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
