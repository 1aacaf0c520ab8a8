import { describe, expect, it } from 'vitest';
import { createPrivateClient, type PrivateClientOptions } from '../../src/index.ts';
import { mainBalancePath } from './paths.ts';

/** A client whose injected fetch records the nonce of every request in the order it is sent. */
function recordingClient(options: Partial<PrivateClientOptions> & { apiKey: string }, sent: string[]) {
  return createPrivateClient({
    apiSecret: 'secret',
    baseUrl: 'http://127.0.0.1:9',
    rateLimit: false,
    ...options,
    fetch: async (request) => {
      sent.push(JSON.parse(await request.clone().text()).nonce);
      return new Response('{}');
    },
  });
}

const expectStrictlyIncreasing = (nonces: string[]) => {
  for (let index = 1; index < nonces.length; index++) {
    expect(BigInt(nonces[index] as string) > BigInt(nonces[index - 1] as string), `nonce ${index}`).toBe(
      true,
    );
  }
};

describe('nonces', () => {
  it('10,000 concurrent calls get unique nonces, strictly increasing in send order', async () => {
    const sent: string[] = [];
    const frozen = Date.now();
    const client = recordingClient({ apiKey: 'concurrent-key', clock: () => frozen }, sent);
    const results = await Promise.all(Array.from({ length: 10_000 }, () => client.POST(mainBalancePath)));
    expect(results.every((result) => result.error === undefined)).toBe(true);
    expect(sent).toHaveLength(10_000);
    expect(new Set(sent).size).toBe(10_000);
    expectStrictlyIncreasing(sent);
    for (const nonce of sent) expect(nonce).toMatch(/^[0-9]+$/);
  });

  it('a clock stepped backwards does not break the sequence', async () => {
    const sent: string[] = [];
    let now = 1_800_000_000_000;
    const client = recordingClient({ apiKey: 'backwards-key', clock: () => now }, sent);
    await client.POST(mainBalancePath);
    now -= 60_000;
    await client.POST(mainBalancePath);
    await client.POST(mainBalancePath);
    now += 120_000;
    await client.POST(mainBalancePath);
    expectStrictlyIncreasing(sent);
    expect(sent[3]).toBe(String(now));
  });

  it('two clients with the same key share one sequence; another key has its own', async () => {
    const sent: string[] = [];
    const frozen = 1_900_000_000_000;
    const first = recordingClient({ apiKey: 'shared-key', clock: () => frozen }, sent);
    const second = recordingClient({ apiKey: 'shared-key', clock: () => frozen }, sent);
    await Promise.all(
      Array.from({ length: 500 }, (_, index) => (index % 2 ? first : second).POST(mainBalancePath)),
    );
    expect(new Set(sent).size).toBe(500);
    expectStrictlyIncreasing(sent);

    const other: string[] = [];
    const third = recordingClient({ apiKey: 'other-key', clock: () => frozen }, other);
    await third.POST(mainBalancePath);
    expect(other[0]).toBe(String(frozen));
  });

  it('with nonceWindow, nonces are millisecond timestamps, unique, and nonceWindow: true is sent', async () => {
    const bodies: Record<string, unknown>[] = [];
    const client = createPrivateClient({
      apiKey: 'window-key',
      apiSecret: 'secret',
      baseUrl: 'http://127.0.0.1:9',
      nonceWindow: true,
      rateLimit: false,
      fetch: async (request) => {
        bodies.push(JSON.parse(await request.text()));
        return new Response('{}');
      },
    });
    const before = Date.now();
    await Promise.all(Array.from({ length: 50 }, () => client.POST(mainBalancePath)));
    const after = Date.now();
    expect(new Set(bodies.map((body) => body.nonce)).size).toBe(50);
    for (const body of bodies) {
      expect(body.nonceWindow).toBe(true);
      const nonce = Number(body.nonce);
      expect(nonce).toBeGreaterThanOrEqual(before);
      expect(nonce).toBeLessThanOrEqual(after + 50);
    }
  });

  it('with nonceWindow, a burst faster than the clock waits rather than running ahead of it', async () => {
    const lead: number[] = [];
    const client = createPrivateClient({
      apiKey: 'window-burst-key',
      apiSecret: 'secret',
      baseUrl: 'http://127.0.0.1:9',
      nonceWindow: true,
      rateLimit: false,
      fetch: async (request) => {
        lead.push(Number(JSON.parse(await request.text()).nonce) - Date.now());
        return new Response('{}');
      },
    });
    // 3,000 calls at once need 3,000 distinct milliseconds: without waiting, the last nonces
    // would be about 3 s ahead of the clock.
    const results = await Promise.all(Array.from({ length: 3000 }, () => client.POST(mainBalancePath)));
    expect(results.every((result) => result.error === undefined)).toBe(true);
    expect(Math.max(...lead)).toBeLessThanOrEqual(1000);
  });

  it('without nonceWindow the field is not sent, even if the caller writes it', async () => {
    let body: Record<string, unknown> = {};
    const client = createPrivateClient({
      apiKey: 'no-window-key',
      apiSecret: 'secret',
      baseUrl: 'http://127.0.0.1:9',
      fetch: async (request) => {
        body = JSON.parse(await request.text());
        return new Response('{}');
      },
    });
    await client.POST(mainBalancePath, {
      body: { nonceWindow: true, nonce: '1', request: '/elsewhere' } as never,
    });
    expect(body).not.toHaveProperty('nonceWindow');
    expect(body.request).toBe(mainBalancePath);
    expect(body.nonce).not.toBe('1');
    expect(Object.keys(body).slice(0, 2)).toEqual(['request', 'nonce']);
  });
});
