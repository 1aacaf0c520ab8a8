import { describe, expect, it, vi } from 'vitest';
import { createPrivateClient } from '../../src/index.ts';
import { Deadline, Permits } from '../../src/waits.ts';
import { json, startLocalServer } from './local-server.ts';
import { mainBalancePath } from './paths.ts';

const limit = { requests: 5, windowSeconds: 0.3 };

/** A server that enforces `limit` with a sliding window and answers 429 beyond it. */
async function strictServer(limit: { requests: number; windowSeconds: number }) {
  const arrivals: number[] = [];
  let rejected = 0;
  const server = await startLocalServer((_, response) => {
    const now = performance.now();
    const recent = arrivals.filter((time) => now - time < limit.windowSeconds * 1000);
    if (recent.length >= limit.requests) {
      rejected++;
      return json(response, 429, { code: 0, errors: {}, message: 'Too many requests.' });
    }
    arrivals.push(now);
    json(response, 200, {});
  });
  return { server, rejected: () => rejected };
}

describe('client-side rate limiting', () => {
  it('spreads a burst beyond the limit over the window: none rejected', async () => {
    const { server, rejected } = await strictServer(limit);
    const client = createPrivateClient({
      apiKey: 'limited-key',
      apiSecret: 'secret',
      baseUrl: server.url,
      rateLimit: { limits: { getMainBalance: limit } },
    });
    const results = await Promise.all(Array.from({ length: 17 }, () => client.POST(mainBalancePath)));
    expect(results.filter((result) => result.error)).toEqual([]);
    expect(rejected()).toBe(0);
    await client.close();
    await server.close();
  });

  it('the same burst without the limiter earns 429s (so the test above can fail)', async () => {
    // The server's window an hour long: however slowly a busy machine sends the burst, it is in one.
    const { server, rejected } = await strictServer({ ...limit, windowSeconds: 3600 });
    const client = createPrivateClient({
      apiKey: 'unlimited-key',
      apiSecret: 'secret',
      baseUrl: server.url,
      rateLimit: false,
    });
    const results = await Promise.all(Array.from({ length: 17 }, () => client.POST(mainBalancePath)));
    expect(results.filter((result) => result.error?.kind === 'rate-limited').length).toBeGreaterThan(0);
    expect(rejected()).toBeGreaterThan(0);
    await client.close();
    await server.close();
  });

  it('a permit comes back one window after its call has finished, in call order', async () => {
    vi.useFakeTimers();
    const window = new Permits(2, 50, () => Date.now());
    const order: number[] = [];
    await window.take();
    await window.take();
    const third = window.take().then(() => order.push(3));
    const fourth = window.take().then(() => order.push(4));
    try {
      await vi.advanceTimersByTimeAsync(1000);
      expect(order).toEqual([]); // nothing given back yet: both wait however long it takes
      window.give();
      window.give();
      await vi.advanceTimersByTimeAsync(49);
      expect(order).toEqual([]); // given back, but the window has not passed
      await vi.advanceTimersByTimeAsync(2);
      expect(order).toEqual([3, 4]);
      await third;
      await fourth;
      window.give();
      window.give();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a caller that gives up waiting leaves the queue', async () => {
    const window = new Permits(1, 10);
    await window.take();
    const controller = new AbortController();
    const waiting = new Deadline(0, controller.signal);
    const abandoned = window.take(waiting);
    controller.abort();
    await expect(abandoned).rejects.toBe(controller.signal.reason);
    waiting.clear();
    window.give();
    await expect(window.take()).resolves.toBeUndefined();
  });

  it('connection slots (no window) go to the next waiter as soon as one is given back', async () => {
    const slots = new Permits(1);
    expect(slots.tryTake()).toBe(true);
    expect(slots.tryTake()).toBe(false);
    const next = slots.take();
    slots.give();
    await next;
    expect(slots.tryTake()).toBe(false);
    slots.give();
    expect(slots.tryTake()).toBe(true);
  });
});
