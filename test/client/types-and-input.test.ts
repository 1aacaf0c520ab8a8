import { describe, expect, it } from 'vitest';
import { operations, servers } from '../../generated/operations.ts';
import {
  ConfigurationError,
  createPrivateClient,
  createPublicClient,
  type Outgoing,
  type Transport,
} from '../../src/index.ts';
import { json, sentBody, startLocalServer } from './local-server.ts';
import { cancelAllPath, historyPath, investPath, mainBalancePath, summaryPath } from './paths.ts';

describe('bad input never leaves the client', () => {
  const cases: [string, string, Record<string, unknown>, string][] = [
    [
      'amount as a number',
      investPath,
      { planId: '7b6e1c1a-3f1d-4c59-9a52-3c2a8f1e0d4b', amount: 100 },
      'amount',
    ],
    [
      'amount not decimal',
      investPath,
      { planId: '7b6e1c1a-3f1d-4c59-9a52-3c2a8f1e0d4b', amount: '1e5' },
      'amount',
    ],
    ['amount missing', investPath, { planId: '7b6e1c1a-3f1d-4c59-9a52-3c2a8f1e0d4b' }, 'amount'],
    ['planId not a UUID', investPath, { planId: 'plan-1', amount: '1' }, 'planId'],
    ['actionTypes not an array', historyPath, { actionTypes: 1 }, 'actionTypes'],
    ['actionTypes holding 7', historyPath, { actionTypes: [1, 7] }, 'actionTypes.1'],
    ['dateFrom not an integer', historyPath, { dateFrom: '2024-01-01' }, 'dateFrom'],
    ['plan filter not a UUID', historyPath, { plan: 'nope' }, 'plan'],
    ['market not a string', cancelAllPath, { market: 5 }, 'market'],
    ['market not BASE_QUOTE', cancelAllPath, { market: 'BTCUSDT' }, 'market'],
    ['type not an array', cancelAllPath, { type: 'spot' }, 'type'],
    ['type outside the enum', cancelAllPath, { type: ['options'] }, 'type.0'],
    ['ticker not a string', summaryPath, { ticker: 1 }, 'ticker'],
    ['ticker empty', summaryPath, { ticker: '' }, 'ticker'],
    ['ticker empty on the main balance', mainBalancePath, { ticker: '' }, 'ticker'],
  ];

  it.each(cases)('%s: invalid-request naming %4$s, nothing sent', async (_, path, body, field) => {
    const server = await startLocalServer((__, response) => json(response, 200, {}));
    const client = createPrivateClient({ apiKey: 'input-key', apiSecret: 's', baseUrl: server.url });
    const { error } = await client.POST(path as typeof investPath, { body: body as never });
    expect(error?.kind).toBe('invalid-request');
    expect(error?.field).toBe(field);
    expect(error?.message).toContain(field);
    expect(error?.fieldErrors).toEqual({ [field]: [error?.message] });
    expect(server.received).toHaveLength(0);
    await client.close();
    await server.close();
  });

  it('a body that is not an object is refused', async () => {
    const client = createPrivateClient({ apiKey: 'k', apiSecret: 's', baseUrl: 'http://127.0.0.1:9' });
    const { error } = await client.POST(mainBalancePath, { body: 'ticker=BTC' as never });
    expect(error).toMatchObject({ kind: 'invalid-request', field: 'body' });
  });
});

describe('options', () => {
  it.each([
    ['apiKey', { apiKey: '', apiSecret: 's', baseUrl: 'http://127.0.0.1:9' }],
    ['apiKey', { apiKey: 'has space', apiSecret: 's', baseUrl: 'http://127.0.0.1:9' }],
    ['apiKey', { apiKey: 'clé', apiSecret: 's', baseUrl: 'http://127.0.0.1:9' }],
    ['apiSecret', { apiKey: 'k', apiSecret: '', baseUrl: 'http://127.0.0.1:9' }],
    ['userAgent', { apiKey: 'k', apiSecret: 's', baseUrl: 'http://127.0.0.1:9', userAgent: ' padded ' }],
    ['userAgent', { apiKey: 'k', apiSecret: 's', baseUrl: 'http://127.0.0.1:9', userAgent: 'naïve/1' }],
    ['baseUrl', { apiKey: 'k', apiSecret: 's', baseUrl: 'not a url' }],
    ['timeoutMs', { apiKey: 'k', apiSecret: 's', baseUrl: 'http://127.0.0.1:9', timeoutMs: -1 }],
    ['server', { apiKey: 'k', apiSecret: 's', server: 'moon' }],
    [
      'retry.attempts',
      { apiKey: 'k', apiSecret: 's', baseUrl: 'http://127.0.0.1:9', retry: { attempts: 0 } },
    ],
    [
      'retry.attempts',
      { apiKey: 'k', apiSecret: 's', baseUrl: 'http://127.0.0.1:9', retry: { attempts: Number.NaN } },
    ],
    [
      'retry.baseDelayMs',
      { apiKey: 'k', apiSecret: 's', baseUrl: 'http://127.0.0.1:9', retry: { baseDelayMs: -1 } },
    ],
    ['retry', { apiKey: 'k', apiSecret: 's', baseUrl: 'http://127.0.0.1:9', retry: 3 }],
    ['transport', { apiKey: 'k', apiSecret: 's', baseUrl: 'http://127.0.0.1:9', transport: {} }],
    [
      'transport',
      {
        apiKey: 'k',
        apiSecret: 's',
        baseUrl: 'http://127.0.0.1:9',
        transport: { send: async () => ({}), close: async () => {} },
        fetch: async () => new Response(),
      },
    ],
  ])('a wrong %s is named', (field, options) => {
    const create = () => createPrivateClient(options as never);
    expect(create).toThrow(ConfigurationError);
    expect(create).toThrow(new RegExp(`^${field.replace('.', '\\.')}:`));
  });

  it("server: 'eu' without baseUrl targets the documents' EU origin (nothing leaves the process)", async () => {
    const seen: string[] = [];
    const client = createPrivateClient({
      apiKey: 'k',
      apiSecret: 's',
      server: 'eu',
      rateLimit: false,
      // An injected fetch that answers itself: the test never reaches a non-local address.
      fetch: async (request: Request) => {
        seen.push(request.url);
        return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    await client.POST(operations.getMainBalance.path);
    await client.close();
    const eu = servers['private-v4'].find((server) => server.name === 'eu');
    expect(eu?.variables).toBeDefined();
    const origin = Object.values(eu?.variables ?? {})[0] ?? '';
    expect(origin).toMatch(/^https:\/\//);
    expect(seen).toEqual([`${origin}${operations.getMainBalance.path}`]);
  });

  it('a transport given as an option carries every exchange, signed', async () => {
    const sent: (Outgoing & { url: string })[] = [];
    const transport: Transport = {
      lease: (target) => ({
        async send(outgoing) {
          sent.push({ url: target.url, ...outgoing });
          const headers = { get: (name: string) => (name === 'content-type' ? 'application/json' : null) };
          return { response: { status: 200, ok: true, url: target.url, headers }, text: '{"BTC":"1"}' };
        },
        release: () => {},
      }),
      close: async () => {},
    };
    const client = createPrivateClient({
      apiKey: 'transport-key',
      apiSecret: 's',
      baseUrl: 'http://127.0.0.1:9',
      transport,
    });
    const { data } = await client.POST(mainBalancePath);
    expect(data).toEqual({ BTC: '1' });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe(`http://127.0.0.1:9${mainBalancePath}`);
    expect(JSON.parse(sent[0]?.body ?? '{}').request).toBe(mainBalancePath);
    expect(Object.values(sent[0]?.headers ?? {})).toContain('transport-key');
    await client.close();
  });

  it('a baseUrl path prefix goes into the URL but never into `request`', async () => {
    const server = await startLocalServer((_, response) => json(response, 200, {}));
    const client = createPrivateClient({
      apiKey: 'prefix-key',
      apiSecret: 's',
      baseUrl: `${server.url}/gateway/`,
    });
    await client.POST(mainBalancePath);
    expect(server.received[0]?.url).toBe(`/gateway${mainBalancePath}`);
    expect(sentBody(server.received[0] as never).request).toBe(mainBalancePath);
    const publicClient = createPublicClient({ baseUrl: `${server.url}/gateway` });
    await publicClient.GET('/api/v4/public/ping');
    expect(server.received[1]?.url).toBe('/gateway/api/v4/public/ping');
    await Promise.all([client.close(), publicClient.close()]);
    await server.close();
  });

  it('sends the User-Agent it is given', async () => {
    const server = await startLocalServer((_, response) => json(response, 200, {}));
    const client = createPrivateClient({
      apiKey: 'k',
      apiSecret: 's',
      baseUrl: server.url,
      userAgent: 'desk-7/1.2',
    });
    await client.POST(mainBalancePath);
    expect(server.received[0]?.headers['user-agent']).toBe('desk-7/1.2');
    await client.close();
    await server.close();
  });
});
