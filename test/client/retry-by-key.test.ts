// x-retry-safe in its object form, from a document to the wire. An order placed twice costs money,
// so an order-creating operation is repeated by the client only when its body carries a key whose
// repeat the service refuses (a client order id): the generator writes the key into the route
// facts, and the engine retries a call that has it (on a 503, on a dropped connection), sending the
// same key again, and never one without it. The documents do not use the form yet: a fixture
// document (test/client/fixtures/order-document.yaml) beside the real ones does.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type ApiDocument, loadApiDocuments } from '../../model/document.ts';
import { collectClientRoutes, collectOperationFacts } from '../../scripts/operation-facts.ts';
import { createEngine, type RouteFacts } from '../../src/engine.ts';
import { createRequestSigner } from '../../src/signing.ts';
import { createFetchTransport } from '../../src/transport/fetch.ts';
import { createDefaultTransport } from '../../src/transport/undici.ts';
import { json, sentBody, startLocalServer } from './local-server.ts';
import { transports } from './transports.ts';

const orderPath = '/api/v4/order/new';
const fixture = parse(readFileSync(new URL('./fixtures/order-document.yaml', import.meta.url), 'utf8'));
const withFixture = (document: unknown): ApiDocument[] => [
  ...loadApiDocuments(),
  {
    name: 'orders',
    file: 'test/client/fixtures/order-document.yaml',
    document: document as ApiDocument['document'],
    // The fixture is one self-contained file: as written, it is already resolved.
    dereferenced: document as ApiDocument['document'],
    files: ['test/client/fixtures/order-document.yaml'],
  },
];

describe('x-retry-safe with an idempotency key, in the generated facts', () => {
  const facts = collectOperationFacts(withFixture(fixture));

  it('the operation facts keep the key and where the fact comes from; the route facts the key', () => {
    expect(facts.find((operation) => operation.operationId === 'createLimitOrder')?.retrySafe).toEqual({
      idempotencyKey: 'clientOrderId',
      source: 'observed-upstream',
    });
    const routes = collectClientRoutes(facts);
    expect(routes[`post ${orderPath}`]?.retrySafe).toEqual({ idempotencyKey: 'clientOrderId' });
    // The boolean form is unchanged.
    expect(routes['post /api/v4/main-account/balance']?.retrySafe).toBe(true);
    expect(routes['post /api/v4/main-account/smart/investment']?.retrySafe).toBe(false);
  });

  it.each([
    [{ source: 'observed-upstream', description: 'no key' }],
    [{ idempotencyKey: '', source: 'observed-upstream', description: 'an empty key' }],
    [{ idempotencyKey: 'clientOrderId', source: 'hearsay', description: 'an unknown source' }],
    ['yes'],
  ])('%j is refused by the generator, naming the operation', (value) => {
    const broken = structuredClone(fixture);
    broken.paths[orderPath].post['x-retry-safe'] = value;
    expect(() => collectOperationFacts(withFixture(broken))).toThrow(
      /createLimitOrder: x-retry-safe must be/,
    );
  });
});

const routes = collectClientRoutes(collectOperationFacts(withFixture(fixture))) as Record<string, RouteFacts>;
const order = { market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '50000' };

describe.each(transports)('a call retried only with its key (%s transport)', (_, fetch) => {
  /** A server that fails the first request as asked, then answers 200; the engine, retrying. */
  async function send(failure: '503' | 'drop', body: Record<string, unknown>) {
    const server = await startLocalServer((_request, response, index) => {
      if (index > 0) return json(response, 200, { orderId: 1 });
      if (failure === '503') return response.writeHead(503).end();
      response.socket?.destroy();
    });
    const transport = fetch ? createFetchTransport(fetch) : createDefaultTransport();
    const settings = {
      baseUrl: server.url,
      timeoutMs: 10_000,
      maxResponseBytes: 1024 * 1024,
      retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 },
      rateLimit: false,
      signer: createRequestSigner({ apiKey: 'order-key', apiSecret: 'order-secret' }),
      scope: 'key:order-key',
    };
    const engine = createEngine(settings, transport, routes);
    try {
      const result = await engine.call('post', orderPath, body, undefined);
      return { result, bodies: server.received.map(sentBody) };
    } finally {
      await engine.close();
      await server.close();
    }
  }

  it.each(['503', 'drop'] as const)(
    'with the key, after a %s: sent again with the same key, a fresh nonce',
    async (failure) => {
      const { result, bodies } = await send(failure, { ...order, clientOrderId: 'order-7f3a' });
      expect(result.error).toBeUndefined();
      expect(result.data).toEqual({ orderId: 1 });
      expect(bodies).toHaveLength(2);
      expect(bodies.map((body) => body.clientOrderId)).toEqual(['order-7f3a', 'order-7f3a']);
      expect(bodies[0]?.nonce).not.toBe(bodies[1]?.nonce);
    },
  );

  it.each([
    ['503', 'server-error'],
    ['drop', 'transport'],
  ] as const)('without the key, after a %s: never sent again', async (failure, kind) => {
    const { result, bodies } = await send(failure, order);
    expect(result.error?.kind).toBe(kind);
    expect(result.error?.attempts).toBe(1);
    expect(bodies).toHaveLength(1);
  });

  it('with an empty key: never sent again', async () => {
    const { result, bodies } = await send('503', { ...order, clientOrderId: '' });
    expect(result.error?.kind).toBe('server-error');
    expect(bodies).toHaveLength(1);
  });
});
