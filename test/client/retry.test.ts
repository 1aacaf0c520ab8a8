import { describe, expect, it } from 'vitest';
import { backoff } from '../../generated/operations.ts';
import { createPrivateClient, defaultRetryPolicy } from '../../src/index.ts';
import { retryDelayMs } from '../../src/waits.ts';
import { gate } from './latch.ts';
import { json, sentBody, startLocalServer } from './local-server.ts';
import { investPath, mainBalancePath } from './paths.ts';

const fastRetry = { attempts: 4, baseDelayMs: 5, maxDelayMs: 20 };
const investBody = { planId: '7b6e1c1a-3f1d-4c59-9a52-3c2a8f1e0d4b', amount: '100.00' };

function clientOf(url: string, retry: boolean | typeof fastRetry = fastRetry) {
  return createPrivateClient({
    apiKey: 'retry-key',
    apiSecret: 'secret',
    baseUrl: url,
    rateLimit: false,
    retry,
  });
}

describe('retries', () => {
  it('a 429 then a 200 succeeds, each attempt signed with a fresh nonce', async () => {
    const server = await startLocalServer((_, response, index) =>
      index === 0
        ? json(response, 429, { code: 0, errors: {}, message: 'Too many requests.' })
        : json(response, 200, { BTC: { main_balance: '1' } }),
    );
    const client = clientOf(server.url);
    const { data, error } = await client.POST(mainBalancePath);
    expect(error).toBeUndefined();
    expect(data).toEqual({ BTC: { main_balance: '1' } });
    expect(server.received).toHaveLength(2);
    const [first, second] = server.received.map(sentBody);
    expect(first?.nonce).not.toBe(second?.nonce);
    expect(BigInt(second?.nonce as string) > BigInt(first?.nonce as string)).toBe(true);
    expect(server.received[0]?.headers['x-txc-signature']).not.toBe(
      server.received[1]?.headers['x-txc-signature'],
    );
    await client.close();
    await server.close();
  });

  it("gives up after the policy's attempts and says how many were made", async () => {
    const server = await startLocalServer((_, response) => response.writeHead(503).end());
    const client = clientOf(server.url);
    const { error } = await client.POST(mainBalancePath);
    expect(error?.kind).toBe('server-error');
    expect(error?.attempts).toBe(fastRetry.attempts);
    expect(server.received).toHaveLength(fastRetry.attempts);
    await client.close();
    await server.close();
  });

  it('retries transport failures of retry-safe calls', async () => {
    const server = await startLocalServer((_, response, index) =>
      index === 0 ? response.socket?.destroy() : json(response, 200, {}),
    );
    const client = clientOf(server.url);
    expect((await client.POST(mainBalancePath)).error).toBeUndefined();
    expect(server.received).toHaveLength(2);
    await client.close();
    await server.close();
  });

  it('never retries a validation failure', async () => {
    const server = await startLocalServer((_, response) =>
      json(response, 422, {
        code: 30,
        message: 'Validation failed',
        errors: { ticker: ['ticker is invalid.'] },
      }),
    );
    const client = clientOf(server.url);
    expect((await client.POST(mainBalancePath)).error?.kind).toBe('private-error');
    expect(server.received).toHaveLength(1);
    await client.close();
    await server.close();
  });

  it('is off unless asked for', async () => {
    const server = await startLocalServer((_, response) => response.writeHead(503).end());
    const client = createPrivateClient({
      apiKey: 'retry-key',
      apiSecret: 'secret',
      baseUrl: server.url,
      rateLimit: false,
    });
    await client.POST(mainBalancePath);
    expect(server.received).toHaveLength(1);
    await client.close();
    await server.close();
  });

  it.each([
    [
      '429',
      (response: import('node:http').ServerResponse) =>
        json(response, 429, { code: 0, message: 'Too many requests.' }),
    ],
    ['503', (response: import('node:http').ServerResponse) => response.writeHead(503).end()],
    ['reset', (response: import('node:http').ServerResponse) => response.socket?.destroy()],
  ])(
    'invest is sent exactly once when the server answers %s, whatever the retry policy',
    async (_, answer) => {
      const server = await startLocalServer((__, response) => answer(response));
      const client = clientOf(server.url, { attempts: 10, baseDelayMs: 1, maxDelayMs: 2 });
      const { error } = await client.POST(investPath, { body: investBody });
      expect(error).toBeDefined();
      expect(error?.attempts).toBe(1);
      // Closed, the client can send nothing more: what the server got is all it will ever get.
      await client.close();
      expect(server.received).toHaveLength(1);
      await server.close();
    },
  );

  it('invest times out once and is not sent again', async () => {
    // Answered only once the client has given up, however slow the machine.
    const hold = gate();
    const server = await startLocalServer(async (_, response) => {
      await hold.passed;
      json(response, 201, { id: 'x' });
    });
    const client = createPrivateClient({
      apiKey: 'retry-key',
      apiSecret: 'secret',
      baseUrl: server.url,
      rateLimit: false,
      retry: { attempts: 5, baseDelayMs: 1, maxDelayMs: 1 },
      timeoutMs: 50,
    });
    const { error } = await client.POST(investPath, { body: investBody });
    expect(error?.kind).toBe('timeout');
    // One attempt, whatever the machine's speed: on a loaded one the 50 ms may end before the
    // request reached the server, so the server saw at most that one.
    expect(error?.attempts).toBe(1);
    hold.open();
    await client.close();
    expect(server.received.length).toBeLessThanOrEqual(1);
    await server.close();
  });

  it('honours Retry-After over a shorter backoff', async () => {
    const server = await startLocalServer((_, response, index) =>
      index === 0
        ? json(response, 429, { code: 0, message: 'Too many requests.' }, { 'retry-after': '1' })
        : json(response, 200, {}),
    );
    const client = clientOf(server.url, { ...fastRetry, maxDelayMs: 2000 });
    const started = performance.now();
    await client.POST(mainBalancePath);
    // Behaviour, not performance: without Retry-After the policy waits at most 20 ms.
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    await client.close();
    await server.close();
  });
});

describe('backoff', () => {
  it('doubles from the base, is capped, and adds up to half a step of jitter', () => {
    const policy = defaultRetryPolicy;
    expect(retryDelayMs(policy, 1, undefined, () => 0)).toBe(policy.baseDelayMs);
    expect(retryDelayMs(policy, 1, undefined, () => 1)).toBe(policy.baseDelayMs * 1.5);
    expect(retryDelayMs(policy, 3, undefined, () => 0)).toBe(policy.baseDelayMs * 4);
    expect(retryDelayMs(policy, 30, undefined, () => 0)).toBe(policy.maxDelayMs);
    expect(retryDelayMs(policy, 30, undefined, () => 1)).toBe(policy.maxDelayMs * 1.5);
    expect(retryDelayMs(policy, 1, 7000, () => 1)).toBe(7000);
  });

  it('starts from the backoff the documents give (x-backoff)', () => {
    expect(defaultRetryPolicy.baseDelayMs).toBe(backoff.initialSeconds * 1000);
    expect(defaultRetryPolicy.maxDelayMs).toBe(backoff.maxSeconds * 1000);
  });
});
