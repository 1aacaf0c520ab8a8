// Hooks see each step of a call, on every transport: its start, each attempt's request and answer,
// each retry, each wait for the rate limiter, its error and its end, in that order, with one call
// id. Their events never hold a secret, a key, a signature or a body, however they are shown.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  createPrivateClient,
  type Hooks,
  type PrivateClientOptions,
} from '../../src/index.ts';
import { json, type LocalServer, startLocalServer } from './local-server.ts';
import { investPath, mainBalancePath } from './paths.ts';
import { transportOption, transports } from './transports.ts';

type Event = { name: string } & Record<string, unknown>;

/** Hooks that record every event, in order, under its hook's name. */
function recorder() {
  const events: Event[] = [];
  const record =
    (name: string) =>
    (event: object): void => {
      events.push({ name, ...event });
    };
  const hooks: Required<Hooks> = {
    start: [record('start')],
    request: [record('request')],
    answer: [record('answer')],
    retry: [record('retry')],
    rateLimitWait: [record('rateLimitWait')],
    error: [record('error')],
    end: [record('end')],
  };
  return { hooks, events, names: () => events.map((event) => event.name) };
}

const secret = 'hooks-secret-never-shown';
const apiKey = 'hooks-key';

async function withServer<T>(
  handler: Parameters<typeof startLocalServer>[0],
  run: (server: LocalServer) => Promise<T>,
) {
  const server = await startLocalServer(handler);
  try {
    return await run(server);
  } finally {
    await server.close();
  }
}

describe.each(transports)('hooks (%s transport)', (_, fetch) => {
  const clientOf = (url: string, hooks: Hooks, extra: Partial<PrivateClientOptions> = {}) =>
    createPrivateClient({
      apiKey,
      apiSecret: secret,
      baseUrl: url,
      rateLimit: false,
      hooks,
      ...transportOption(fetch),
      ...extra,
    });

  it('a successful call: start, request, answer, end, with one call id', async () => {
    const { hooks, events, names } = recorder();
    await withServer(
      (_request, response) => json(response, 200, { BTC: { main_balance: '1' } }),
      async (server) => {
        const client = clientOf(server.url, hooks);
        expect((await client.POST(mainBalancePath)).error).toBeUndefined();
        await client.close();
      },
    );
    expect(names()).toEqual(['start', 'request', 'answer', 'end']);
    const [start, request, answer, end] = events;
    expect(new Set(events.map((event) => event.callId)).size).toBe(1);
    expect(start).toMatchObject({ operationId: 'getMainBalance', method: 'POST', path: mainBalancePath });
    expect(request).toMatchObject({ operationId: 'getMainBalance', attempt: 1, nonceHeldMs: 0 });
    expect(request?.connectionWaitMs).toBeGreaterThanOrEqual(0);
    expect(answer).toMatchObject({ attempt: 1, status: 200 });
    expect(answer?.latencyMs).toBeGreaterThanOrEqual(0);
    expect(end).toMatchObject({ ok: true, attempts: 1, status: 200, errorKind: undefined });
    expect(end?.durationMs).toBeGreaterThanOrEqual(answer?.latencyMs as number);
  });

  it('a 503, then a dropped connection, then a 200: each retry with the error that caused it', async () => {
    const { hooks, events, names } = recorder();
    await withServer(
      (_request, response, index) => {
        if (index === 0) response.writeHead(503).end();
        else if (index === 1) response.socket?.destroy();
        else json(response, 200, {});
      },
      async (server) => {
        const client = clientOf(server.url, hooks, { retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 } });
        expect((await client.POST(mainBalancePath)).error).toBeUndefined();
        await client.close();
      },
    );
    expect(names()).toEqual([
      'start',
      'request',
      'answer',
      'retry',
      'request',
      'retry',
      'request',
      'answer',
      'end',
    ]);
    const retries = events.filter((event) => event.name === 'retry');
    expect(retries[0]).toMatchObject({ attempt: 1, errorKind: 'server-error', status: 503 });
    expect(retries[1]).toMatchObject({ attempt: 2, errorKind: 'transport', status: undefined });
    for (const retry of retries) expect(retry.delayMs).toBeGreaterThanOrEqual(1);
    expect(events.filter((event) => event.name === 'request').map((event) => event.attempt)).toEqual([
      1, 2, 3,
    ]);
    expect(events.at(-1)).toMatchObject({ name: 'end', ok: true, attempts: 3, status: 200 });
  });

  it('a refusal: its answer, then the error and the end, never a retry of a write', async () => {
    const { hooks, events, names } = recorder();
    await withServer(
      (_request, response) => json(response, 422, { code: 30, message: 'Validation failed', errors: {} }),
      async (server) => {
        const client = clientOf(server.url, hooks, { retry: true });
        const body = { planId: '7b6e1c1a-3f1d-4c59-9a52-3c2a8f1e0d4b', amount: '100.00' };
        expect((await client.POST(investPath, { body })).error?.kind).toBe('private-error');
        await client.close();
      },
    );
    expect(names()).toEqual(['start', 'request', 'answer', 'error', 'end']);
    expect(events[3]).toMatchObject({
      operationId: 'createFixedInvestment',
      attempts: 1,
      errorKind: 'private-error',
      status: 422,
    });
    expect(events[4]).toMatchObject({ ok: false, attempts: 1, errorKind: 'private-error', status: 422 });
  });

  it('input the client refuses: the error and the end, nothing sent', async () => {
    const { hooks, names, events } = recorder();
    const client = clientOf('http://127.0.0.1:9', hooks);
    const { error } = await client.POST(investPath, { body: { planId: 'x', amount: 1 } as never });
    await client.close();
    expect(error?.kind).toBe('invalid-request');
    expect(names()).toEqual(['start', 'error', 'end']);
    expect(events[1]).toMatchObject({ errorKind: 'invalid-request', status: undefined });
  });

  it('a call the rate limiter holds back reports how long it waited', async () => {
    const { hooks, events } = recorder();
    await withServer(
      (_request, response) => json(response, 200, {}),
      async (server) => {
        const client = clientOf(server.url, hooks, {
          apiKey: `hooks-limited-${fetch ? 'fetch' : 'undici'}`,
          rateLimit: { limits: { getMainBalance: { requests: 1, windowSeconds: 0.05 } } },
        });
        const results = await Promise.all([client.POST(mainBalancePath), client.POST(mainBalancePath)]);
        expect(results.map((result) => result.error)).toEqual([undefined, undefined]);
        await client.close();
      },
    );
    const waits = events.filter((event) => event.name === 'rateLimitWait');
    // One permit: the second call waited until the first was answered and a window had passed.
    expect(waits).toHaveLength(1);
    expect(waits[0]).toMatchObject({ operationId: 'getMainBalance', attempt: 1 });
    expect(waits[0]?.waitedMs).toBeGreaterThanOrEqual(45);
    const waited = waits[0]?.callId;
    expect(events.filter((event) => event.callId === waited).map((event) => event.name)).toEqual([
      'start',
      'rateLimitWait',
      'request',
      'answer',
      'end',
    ]);
  });

  it('a window-mode call held back reports how long its nonce held it', async () => {
    const { hooks, events } = recorder();
    // The clock steps back 1.2 s after the nonce is taken: the nonce is then 200 ms beyond the
    // lead a window allows, and the call waits that long (then the clock is far ahead again).
    const now = Date.now();
    const readings = [now, now - 1200, now - 1200];
    await withServer(
      (_request, response) => json(response, 200, {}),
      async (server) => {
        const client = clientOf(server.url, hooks, {
          apiKey: `hooks-window-${fetch ? 'fetch' : 'undici'}`,
          nonceWindow: true,
          clock: () => readings.shift() ?? now + 60_000,
        });
        expect((await client.POST(mainBalancePath)).error).toBeUndefined();
        await client.close();
      },
    );
    const request = events.find((event) => event.name === 'request');
    expect(request?.nonceHeldMs).toBeGreaterThanOrEqual(190);
  });
});

describe('hook events are secret-free', () => {
  it('no secret, key, signature, payload or body in any event, however it is shown', async () => {
    const { hooks, events } = recorder();
    const sent: string[] = [];
    await withServer(
      (request, response, index) => {
        for (const value of Object.values(request.headers)) if (typeof value === 'string') sent.push(value);
        sent.push(request.body);
        // A server that echoes the secret back in a refusal, and fails once.
        if (index === 0) response.writeHead(503).end(`maintenance ${secret}`);
        else json(response, 422, { code: 30, message: `bad ${secret}`, errors: { ticker: [secret] } });
      },
      async (server) => {
        const client = createPrivateClient({
          apiKey,
          apiSecret: secret,
          baseUrl: server.url,
          retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
          hooks,
        });
        await client.POST(mainBalancePath, { body: { ticker: 'BTC' } });
        await client.POST(investPath, { body: { planId: secret, amount: secret } });
        await client.close();
      },
    );
    expect(new Set(events.map((event) => event.name))).toEqual(
      new Set(['start', 'request', 'answer', 'retry', 'error', 'end']),
    );
    // What was signed and sent: the key, the payload, the signature, the body.
    const signedValues = sent.filter((value) => value.length >= 8 && value !== 'application/json');
    expect(signedValues.length).toBeGreaterThan(4);
    for (const event of events) {
      for (const shown of [
        JSON.stringify(event),
        inspect(event, { depth: Number.POSITIVE_INFINITY, showHidden: true, getters: true }),
        String(Object.values(event)),
        JSON.stringify(structuredClone(event)),
      ]) {
        expect(shown).not.toContain(secret);
        expect(shown).not.toContain(apiKey);
        for (const value of signedValues) expect(shown).not.toContain(value);
      }
      // Names, numbers and kinds only: nothing an event holds can lead to more.
      for (const value of Object.values(event)) {
        expect(['string', 'number', 'boolean', 'undefined']).toContain(typeof value);
      }
    }
  });

  it('events are frozen: one hook cannot change what the next one sees', async () => {
    const seen: unknown[] = [];
    const client = createPrivateClient({
      apiKey,
      apiSecret: secret,
      baseUrl: 'http://127.0.0.1:9',
      hooks: {
        start: [
          (event) => {
            expect(Object.isFrozen(event)).toBe(true);
            expect(() => Object.assign(event, { operationId: 'changed' })).toThrow(TypeError);
          },
          (event) => seen.push(event.operationId),
        ],
      },
    });
    await client.POST(investPath, { body: {} as never });
    await client.close();
    expect(seen).toEqual(['createFixedInvestment']);
  });
});

describe('hooks option', () => {
  it.each([
    [{ onRequest: [() => {}] }, 'hooks.onRequest'],
    [{ start: () => {} }, 'hooks.start'],
    [{ end: [() => {}, 'x'] }, 'hooks.end'],
    ['all', 'hooks'],
  ])('%j is refused at creation, naming the field', (hooks, field) => {
    const make = () =>
      createPrivateClient({
        apiKey,
        apiSecret: secret,
        baseUrl: 'http://127.0.0.1:9',
        hooks: hooks as Hooks,
      });
    expect(make).toThrow(ConfigurationError);
    try {
      make();
    } catch (error) {
      expect((error as ConfigurationError).field).toBe(field);
    }
  });

  it('the hooks in force are copied at creation and shown by name only', async () => {
    const seen: string[] = [];
    const end = [(event: { operationId: string }) => seen.push(event.operationId)];
    const client = createPrivateClient({
      apiKey,
      apiSecret: secret,
      baseUrl: 'http://127.0.0.1:9',
      hooks: { end, start: [] },
    });
    end.length = 0;
    await client.POST(investPath, { body: {} as never });
    await client.close();
    expect(seen).toEqual(['createFixedInvestment']);
    expect(client.options.hooks).toEqual(['end']);
    expect(JSON.stringify(client)).not.toContain('function');
  });
});
