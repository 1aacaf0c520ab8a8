// Every wait has a bound: Retry-After beyond the policy, timeouts past a timer's range, per-call
// options, and a window-mode nonce held back after the clock stepped backwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, createPrivateClient } from '../../src/index.ts';
import { json, type LocalServer, startLocalServer } from './local-server.ts';
import { mainBalancePath } from './paths.ts';

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer((request, response) => {
    const retryAfter = request.headers['user-agent'];
    if (retryAfter?.startsWith('retry-after ')) {
      json(
        response,
        429,
        { code: 0, message: 'Too many requests.' },
        { 'retry-after': retryAfter.slice(12) },
      );
    } else json(response, 200, {});
  });
});
afterAll(() => server.close());

const options = (extra: Record<string, unknown> = {}) => ({
  apiKey: 'wait-key',
  apiSecret: 'wait-secret',
  baseUrl: server.url,
  rateLimit: false as const,
  ...extra,
});

describe('bounded waits', () => {
  it.each([
    ['a day', '86400'],
    ['past a timer', '3000000'],
  ])('Retry-After of %s beyond maxDelayMs ends the retries with the 429', async (_, seconds) => {
    const before = server.received.length;
    const client = createPrivateClient(options({ retry: true, userAgent: `retry-after ${seconds}` }));
    const { error } = await client.POST(mainBalancePath);
    await client.close();
    expect(error?.kind).toBe('rate-limited');
    expect(error?.retryAfterMs).toBe(Number(seconds) * 1000);
    expect(error?.attempts).toBe(1);
    expect(server.received.length - before).toBe(1);
  });

  it.each([2 ** 31, -1, Number.NaN, Number.POSITIVE_INFINITY])(
    'timeoutMs %d is refused at creation',
    (timeoutMs) => {
      expect(() => createPrivateClient(options({ timeoutMs }))).toThrow(ConfigurationError);
    },
  );

  it('the largest timeout a timer can hold is accepted and does not fire at once', async () => {
    const client = createPrivateClient(options({ timeoutMs: 2 ** 31 - 1 }));
    const { error } = await client.POST(mainBalancePath);
    await client.close();
    expect(error).toBeUndefined();
  });

  it.each([-1, Number.NaN, 'abc', 2 ** 31])(
    'a per-call timeoutMs of %s is an invalid request, never sent',
    async (timeoutMs) => {
      const before = server.received.length;
      const client = createPrivateClient(options());
      const { error } = await client.POST(mainBalancePath, { timeoutMs: timeoutMs as number });
      await client.close();
      expect(error?.kind).toBe('invalid-request');
      expect(error?.field).toBe('timeoutMs');
      expect(server.received.length).toBe(before);
    },
  );

  it('a per-call signal that is not an AbortSignal is an invalid request', async () => {
    const client = createPrivateClient(options());
    const { error } = await client.POST(mainBalancePath, { signal: {} as AbortSignal });
    await client.close();
    expect(error?.field).toBe('signal');
  });

  it('after the clock steps back an hour, a window-mode call ends at its deadline', async () => {
    let offset = 0;
    const client = createPrivateClient(
      options({
        apiKey: 'clock-step-key',
        nonceWindow: true,
        clock: () => Date.now() - offset,
      }),
    );
    // The client's default limit for the call that must succeed (a loaded machine can take longer
    // than a short one to answer it); the short limit only for the call that must end at it.
    expect((await client.POST(mainBalancePath)).error).toBeUndefined();
    offset = 3_600_000;
    const before = server.received.length;
    const { error } = await client.POST(mainBalancePath, { timeoutMs: 300 });
    await client.close();
    expect(error?.kind).toBe('timeout');
    expect(server.received.length).toBe(before);
  });
});
