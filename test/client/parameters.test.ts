// A GET's path and query parameters: the client fills the path's `{name}` (encoded), writes the
// query string from the fields given, and refuses, before sending, a value that breaks the
// document's rules, a parameter the operation does not have, or a path parameter left out, each
// naming the parameter. The answer of a public endpoint that refuses a parameter (an object keyed
// by parameter) arrives as a public-error with field errors. On both transports, against a real
// local server that records what arrives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, createPublicClient } from '../../src/index.ts';
import { json, type LocalServer, startLocalServer } from './local-server.ts';
import { orderBookPath } from './paths.ts';
import { transportOption, transports } from './transports.ts';

let server: LocalServer;
let refuse = false;
beforeAll(async () => {
  server = await startLocalServer((_request, response) =>
    refuse
      ? json(response, 422, { market: ['Market is not available.'] })
      : json(response, 200, { ticker_id: 'BTC_USDT', timestamp: 1, asks: [], bids: [] }),
  );
});
afterAll(() => server.close());

/** GET as plain JavaScript calls it: what the types refuse reaches the client's own checks. */
type UntypedGet = (path: string, init: { params: unknown }) => Promise<CallResult<unknown, unknown>>;

describe.each(transports)('parameters, on the %s transport', (_name, fetch) => {
  const client = () =>
    createPublicClient({ baseUrl: server.url, rateLimit: false, ...transportOption(fetch) });

  it('fills the path and writes the query string', async () => {
    const sent = server.received.length;
    const { data, error } = await client().GET(orderBookPath, {
      params: { path: { market: 'BTC_USDT' }, query: { limit: 5, level: 2 } },
    });
    expect(error).toBeUndefined();
    expect(data?.ticker_id).toBe('BTC_USDT');
    expect(server.received[sent]?.url).toBe('/api/v4/public/orderbook/BTC_USDT?limit=5&level=2');
  });

  it('leaves out the query string when no query parameter is given', async () => {
    const sent = server.received.length;
    await client().GET(orderBookPath, { params: { path: { market: 'ETH_BTC' } } });
    expect(server.received[sent]?.url).toBe('/api/v4/public/orderbook/ETH_BTC');
  });

  it.each([
    ['a path parameter left out', { path: {} }, 'market', /market is required/],
    [
      'a value outside its bounds',
      { path: { market: 'BTC_USDT' }, query: { limit: 101 } },
      'limit',
      /at most 100/,
    ],
    [
      'a value of the wrong type',
      { path: { market: 'BTC_USDT' }, query: { limit: '5' } },
      'limit',
      /integer/,
    ],
    ['a value breaking its pattern', { path: { market: 'btc/usdt' } }, 'market', /must match/],
    [
      'a parameter it does not have',
      { path: { market: 'BTC_USDT' }, query: { depth: 5 } },
      'depth',
      /not a query parameter/,
    ],
    [
      'a place other than path and query',
      { path: { market: 'BTC_USDT' }, header: {} },
      'params.header',
      /not path or query/,
    ],
  ])('refuses %s before sending, naming it', async (_case, params, field, message) => {
    const sent = server.received.length;
    // Values the types refuse, as plain JavaScript sends them.
    const { error } = await (client().GET as unknown as UntypedGet)(orderBookPath, { params });
    expect(error?.kind).toBe('invalid-request');
    expect(error?.field).toBe(field);
    expect(error?.message).toMatch(message);
    expect(server.received.length).toBe(sent);
  });

  it('reads a refusal keyed by parameter as a public error with field errors', async () => {
    refuse = true;
    try {
      const { error } = await client().GET(orderBookPath, { params: { path: { market: 'NOPE_USDT' } } });
      expect(error?.kind).toBe('public-error');
      expect(error?.status).toBe(422);
      expect(error?.fieldErrors).toEqual({ market: ['Market is not available.'] });
      expect(error?.message).toContain('market: Market is not available.');
    } finally {
      refuse = false;
    }
  });
});
