// Caller input never throws and is never sent unless it is plain JSON data: what is validated is
// exactly what is signed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrivateClient } from '../../src/index.ts';
import { json, type LocalServer, sentBody, startLocalServer } from './local-server.ts';
import { cancelAllPath, summaryPath } from './paths.ts';

let server: LocalServer;
let client: ReturnType<typeof createPrivateClient>;
beforeAll(async () => {
  server = await startLocalServer((_, response) => json(response, 200, []));
  client = createPrivateClient({
    apiKey: 'input-key',
    apiSecret: 'input-secret',
    baseUrl: server.url,
    rateLimit: false,
  });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const circular: Record<string, unknown> = { ticker: 'BTC' };
circular.self = circular;
let getterReads = 0;
const withGetter = {
  get ticker() {
    getterReads++;
    return getterReads === 1 ? 'BTC' : 'not a ticker!';
  },
};

const cases: [name: string, body: unknown, field: string][] = [
  ['a BigInt', { ticker: 'BTC', extra: 10n }, 'extra'],
  ['a circular value', circular, 'self'],
  ['a symbol', { ticker: Symbol('BTC') }, 'ticker'],
  ['a function', { ticker: () => 'BTC' }, 'ticker'],
  ['its own toJSON', { ticker: 'BTC', toJSON: () => ({ request: '/elsewhere', nonce: '1' }) }, 'toJSON'],
  ['a getter', withGetter, 'ticker'],
  ['a Date', { ticker: 'BTC', at: new Date(0) }, 'at'],
  ['a NaN', { ticker: 'BTC', amount: Number.NaN }, 'amount'],
  ['a nested BigInt', { market: 'BTC_USDT', type: ['spot', 1n] }, 'type.1'],
];

describe('caller input', () => {
  it.each(cases)(
    '%s resolves to an invalid-request naming the field, nothing sent',
    async (_, body, field) => {
      const before = server.received.length;
      const path = field.startsWith('type') ? cancelAllPath : summaryPath;
      const { error } = await client.POST(path as typeof summaryPath, { body: body as { ticker: string } });
      expect(error?.kind).toBe('invalid-request');
      expect(error?.field).toBe(field);
      expect(server.received.length).toBe(before);
    },
  );

  it('a getter is never read (so it cannot pass validation and then change)', () => {
    expect(getterReads).toBe(0);
  });

  it('an inherited field is an invalid request naming it', async () => {
    const before = server.received.length;
    const body = Object.assign(Object.create({ market: 'NOT A MARKET' }), { type: ['spot'] });
    const { error } = await client.POST(cancelAllPath, { body });
    expect(error?.kind).toBe('invalid-request');
    expect(error?.field).toBe('market');
    expect(server.received.length).toBe(before);
  });

  it('plain data is sent as it is', async () => {
    const { error } = await client.POST(cancelAllPath, { body: { market: 'BTC_USDT', type: ['spot'] } });
    expect(error).toBeUndefined();
    const sent = sentBody(server.received.at(-1) as (typeof server.received)[number]);
    expect(sent).toMatchObject({ market: 'BTC_USDT', type: ['spot'] });
  });
});
