// x-retry-safe in its object form, from a document to the wire, and the order placements that do
// not have it. Confirming a quote is repeated by the client only when its body carries the quote's
// id, which the service refuses to confirm twice: the generator writes the key into the route
// facts, and the engine retries a call that has it (on a 503, on a dropped connection), sending the
// same key again, and never one without it. An order placement is never repeated, with a
// clientOrderId or without: observed upstream, the service refuses a clientOrderId only while an
// open order of the account on the same market carries it, so a repeat after the first attempt
// filled and its answer was lost would place a second order.
import { describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.ts';
import { clientRoutes } from '../../generated/routes.ts';
import { type ApiDocument, loadApiDocuments } from '../../model/document.ts';
import { documentModel } from '../../model/model.ts';
import { collectClientRoutes, collectOperationFacts } from '../../scripts/operation-facts.ts';
import { callByPath } from '../../src/client.ts';
import { createEngine, type RouteFacts } from '../../src/engine.ts';
import { createPrivateClient } from '../../src/index.ts';
import { createRequestSigner } from '../../src/signing.ts';
import { createFetchTransport } from '../../src/transport/fetch.ts';
import { createDefaultTransport } from '../../src/transport/undici.ts';
import { json, sentBody, startLocalServer } from './local-server.ts';
import { transportOption, transports } from './transports.ts';

const confirmPath = operations.confirmConversion.path;
const fastRetry = { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 };
/** The spot order placements that were once retried by their clientOrderId. */
const orderPlacing = [
  'createLimitOrder',
  'createMarketOrder',
  'createStockMarketOrder',
  'createStopLimitOrder',
  'createStopMarketOrder',
] as const;

describe('x-retry-safe with an idempotency key, in the generated facts', () => {
  const documents = loadApiDocuments();
  const facts = collectOperationFacts(documents);
  const routes = collectClientRoutes(facts);

  it('the operation facts keep the key and where the fact comes from; the route facts the key', () => {
    expect(facts.find((operation) => operation.operationId === 'confirmConversion')?.retrySafe).toEqual({
      idempotencyKey: 'quoteId',
      source: 'observed-upstream',
    });
    expect(routes[`post ${confirmPath}`]?.retrySafe).toEqual({ idempotencyKey: 'quoteId' });
    // The boolean form is unchanged.
    expect(routes['post /api/v4/main-account/balance']?.retrySafe).toBe(true);
    expect(routes['post /api/v4/main-account/smart/investment']?.retrySafe).toBe(false);
  });

  it.each(orderPlacing)('%s has no key: never repeated, clientOrderId or not', (operationId) => {
    expect(facts.find((operation) => operation.operationId === operationId)?.retrySafe).toBe(false);
    expect(routes[`post ${operations[operationId].path}`]?.retrySafe).toBe(false);
  });

  it.each([
    [{ source: 'observed-upstream', description: 'no key' }],
    [{ idempotencyKey: '', source: 'observed-upstream', description: 'an empty key' }],
    [{ idempotencyKey: 'quoteId', source: 'hearsay', description: 'an unknown source' }],
    ['yes'],
  ])('%j is refused by the generator, naming the operation', (value) => {
    const broken: ApiDocument[] = structuredClone(documents);
    for (const api of broken) {
      const confirm = (api.dereferenced.paths as Record<string, Record<string, Record<string, unknown>>>)?.[
        confirmPath
      ]?.post;
      if (confirm) confirm['x-retry-safe'] = value;
    }
    expect(() => collectOperationFacts(broken)).toThrow(/confirmConversion: x-retry-safe must be/);
  });
});

const confirmRoute = clientRoutes[`post ${confirmPath}`] as RouteFacts;

describe.each(transports)('a call retried only with its key (%s transport)', (_, fetch) => {
  /** A server that fails the first request as asked, then answers 200; the engine, retrying. */
  async function send(failure: '503' | 'drop', body: Record<string, unknown>, route = confirmRoute) {
    const server = await startLocalServer((_request, response, index) => {
      if (index > 0) return json(response, 200, { id: 1 });
      if (failure === '503') return response.writeHead(503).end();
      response.socket?.destroy();
    });
    const transport = fetch ? createFetchTransport(fetch) : createDefaultTransport();
    const settings = {
      baseUrl: server.url,
      timeoutMs: 10_000,
      maxResponseBytes: 1024 * 1024,
      retry: fastRetry,
      rateLimit: false,
      signer: createRequestSigner({ apiKey: 'quote-key', apiSecret: 'quote-secret' }),
      scope: 'key:quote-key',
    };
    const engine = createEngine(settings, transport, { [`post ${confirmPath}`]: route });
    try {
      const result = await engine.call('post', confirmPath, body, undefined);
      return { result, bodies: server.received.map(sentBody) };
    } finally {
      await engine.close();
      await server.close();
    }
  }

  it.each(['503', 'drop'] as const)(
    'with the key, after a %s: sent again with the same key, a fresh nonce',
    async (failure) => {
      const { result, bodies } = await send(failure, { quoteId: '4123' });
      expect(result.error).toBeUndefined();
      expect(result.data).toEqual({ id: 1 });
      expect(bodies).toHaveLength(2);
      expect(bodies.map((body) => body.quoteId)).toEqual(['4123', '4123']);
      expect(bodies[0]?.nonce).not.toBe(bodies[1]?.nonce);
    },
  );

  // The documents require the key; a route without body rules shows what the engine does alone.
  const { body: _rules, ...unchecked } = confirmRoute;
  it.each([
    ['503', 'server-error'],
    ['drop', 'transport'],
  ] as const)('without the key, after a %s: never sent again', async (failure, kind) => {
    const { result, bodies } = await send(failure, {}, unchecked);
    expect(result.error?.kind).toBe(kind);
    expect(result.error?.attempts).toBe(1);
    expect(bodies).toHaveLength(1);
  });

  it('with an empty key: never sent again', async () => {
    const { result, bodies } = await send('503', { quoteId: '' }, unchecked);
    expect(result.error?.kind).toBe('server-error');
    expect(bodies).toHaveLength(1);
  });
});

describe.each(transports)('an order placement is never repeated by the client (%s transport)', (_, fetch) => {
  const model = documentModel();
  /** The operation's first request example, with a clientOrderId and without the signed fields. */
  const bodyOf = (operationId: (typeof orderPlacing)[number]) => {
    const example = model.operation(operationId).requestExamples[0];
    if (!example) throw new Error(`${operationId} has no request example`);
    const { request: _request, nonce: _nonce, ...fields } = example.value as Record<string, unknown>;
    return { ...fields, clientOrderId: `lost-answer-${operationId}` };
  };

  it.each(orderPlacing)(
    '%s with a clientOrderId and retry on: the answer is dropped after placing, the order arrives once',
    async (operationId) => {
      // The exchange places every order it receives (a clientOrderId whose order filled is taken
      // again), then drops the connection before answering.
      const placed: Record<string, unknown>[] = [];
      const server = await startLocalServer((request, response) => {
        placed.push(sentBody(request));
        response.socket?.destroy();
      });
      const client = createPrivateClient({
        apiKey: 'order-key',
        apiSecret: 'order-secret',
        baseUrl: server.url,
        rateLimit: false,
        retry: fastRetry,
        ...transportOption(fetch),
      });
      try {
        const body = bodyOf(operationId);
        // The path is one of five, each with its own body type: called as txc calls a path.
        const { data, error } = await callByPath(client, operations[operationId].path, body);
        expect(data).toBeUndefined();
        expect(error?.kind).toBe('transport');
        expect(error?.attempts).toBe(1);
        expect(placed).toHaveLength(1);
        expect(placed[0]?.clientOrderId).toBe(body.clientOrderId);
      } finally {
        await client.close();
        await server.close();
      }
    },
  );

  it('createMarketOrder with a clientOrderId, answered 503: never sent again', async () => {
    const server = await startLocalServer((_request, response) => response.writeHead(503).end());
    const client = createPrivateClient({
      apiKey: 'order-key',
      apiSecret: 'order-secret',
      baseUrl: server.url,
      rateLimit: false,
      retry: fastRetry,
      ...transportOption(fetch),
    });
    try {
      const { error } = await client.POST(operations.createMarketOrder.path, {
        body: bodyOf('createMarketOrder') as never,
      });
      expect(error?.kind).toBe('server-error');
      expect(error?.attempts).toBe(1);
      expect(server.received).toHaveLength(1);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
