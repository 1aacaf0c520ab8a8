// The rules the client checks before sending, as the documents state them: bounds of numbers and
// arrays, nullable fields and type lists, and the fields of objects inside arrays (a bulk order's
// items), each refusal an invalid-request naming the field by its path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.ts';
import { type BodyRules, createPrivateClient } from '../../src/index.ts';
import { checkBody, compileBody } from '../../src/request-checks.ts';
import { json, type LocalServer, sentBody, startLocalServer } from './local-server.ts';

const order = { market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '35000' };
const orders = (count: number) => Array.from({ length: count }, () => ({ ...order }));

describe('generated rules, checked by the client', () => {
  let server: LocalServer;
  let client: ReturnType<typeof createPrivateClient>;
  beforeAll(async () => {
    server = await startLocalServer((_, response) => json(response, 200, []));
    client = createPrivateClient({
      apiKey: 'rules-key',
      apiSecret: 'rules-secret',
      baseUrl: server.url,
      rateLimit: false,
    });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  const bulk = operations.createBulkLimitOrders.path;
  const bulkCancel = operations.cancelOrdersInBulk.path;
  const active = operations.listActiveOrders.path;
  const killSwitch = operations.setKillSwitch.path;

  const refused: [name: string, path: string, body: Record<string, unknown>, field: string, says: string][] =
    [
      [
        'a nested field past its pattern',
        bulk,
        { orders: [...orders(3), { ...order, price: '1e5' }] },
        'orders.3.price',
        'must match',
      ],
      [
        'a nested field of the wrong type',
        bulk,
        { orders: [{ ...order, amount: 0.01 }] },
        'orders.0.amount',
        'must be a string',
      ],
      [
        'a nested required field missing',
        bulk,
        { orders: [order, { ...order, side: undefined }] },
        'orders.1.side',
        'is required',
      ],
      [
        'a nested field outside its enum',
        bulk,
        { orders: [{ ...order, side: 'hold' }] },
        'orders.0.side',
        'must be one of',
      ],
      ['an item that is not an object', bulk, { orders: [order, 7] }, 'orders.1', 'must be an object'],
      ['an array below minItems', bulk, { orders: [] }, 'orders', 'at least 1 item'],
      ['an array past maxItems', bulk, { orders: orders(21) }, 'orders', 'at most 20 items'],
      [
        'an array past maxItems (bulk cancel)',
        bulkCancel,
        { orders: Array.from({ length: 101 }, (_, index) => ({ market: 'BTC_USDT', orderId: index + 1 })) },
        'orders',
        'at most 100 items',
      ],
      ['a number past its maximum', active, { limit: 101 }, 'limit', 'at most 100'],
      ['a number past its maximum (offset)', active, { offset: 10001 }, 'offset', 'at most 10000'],
      [
        'a nullable field of another type',
        killSwitch,
        { market: 'BTC_USDT', timeout: 60 },
        'timeout',
        'timeout must be null',
      ],
      [
        'a nullable array holding a bad kind',
        killSwitch,
        { market: 'BTC_USDT', timeout: '60', types: ['limit'] },
        'types',
        'must be one of',
      ],
    ];

  it.each(refused)('%s: invalid-request naming %4$s, nothing sent', async (_, path, body, field, says) => {
    const before = server.received.length;
    const { error } = await client.POST(path as typeof bulk, { body: body as never });
    expect(error?.kind).toBe('invalid-request');
    expect(error?.field).toBe(field);
    expect(error?.message).toContain(field);
    expect(error?.message).toContain(says);
    expect(error?.fieldErrors).toEqual({ [field]: [error?.message] });
    expect(server.received.length).toBe(before);
  });

  const accepted: [name: string, path: string, body: Record<string, unknown>][] = [
    ['twenty orders', bulk, { orders: orders(20) }],
    ['a limit at its maximum', active, { limit: 100, offset: 10000 }],
    ['null for a nullable field', killSwitch, { market: 'BTC_USDT', timeout: null, types: null }],
  ];

  it.each(accepted)('%s is sent as written', async (_, path, body) => {
    const before = server.received.length;
    const { error } = await client.POST(path as typeof bulk, { body: body as never });
    expect(error).toBeUndefined();
    expect(server.received.length).toBe(before + 1);
    const sent = server.received.at(-1);
    expect(sent && sentBody(sent)).toMatchObject(body);
  });
});

describe('compiled rules', () => {
  const rules: BodyRules = {
    required: ['size'],
    properties: {
      size: { type: ['integer', 'null'], minimum: 1, maximum: 9 },
      tags: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', pattern: '^[a-z]+$' } },
      legs: {
        type: 'array',
        items: { type: 'object', required: ['at'], properties: { at: { type: 'string', format: 'uuid' } } },
      },
    },
  };

  it.each([
    [{ size: 0 }, 'size', 'size must be at least 1, got 0'],
    [{ size: 10 }, 'size', 'size must be at most 9, got 10'],
    [{ size: '3' }, 'size', 'size must be an integer or null, got "3"'],
    [{ size: null, tags: [] }, 'tags', 'tags must have at least 1 item, got 0'],
    [{ size: 1, tags: ['a', 'b', 'c'] }, 'tags', 'tags must have at most 2 items, got 3'],
    [{ size: 1, tags: ['a', 'B'] }, 'tags.1', 'tags.1 must match ^[a-z]+$, got "B"'],
    [{ size: 1, legs: [{}] }, 'legs.0.at', 'legs.0.at is required'],
    [{ size: 1, legs: [{ at: 'x' }] }, 'legs.0.at', 'legs.0.at must be a UUID, got "x"'],
    [{}, 'size', 'size is required'],
  ])('%j: %s', (body, field, message) => {
    expect(checkBody(rules, body)).toEqual({ field, message });
  });

  it('passes what the rules allow, fields they do not name included', () => {
    expect(
      checkBody(rules, {
        size: null,
        tags: ['ab'],
        legs: [{ at: crypto.randomUUID(), extra: 1 }],
        more: 'x',
      }),
    ).toBeUndefined();
  });

  it('compiles each rules object once', () => {
    expect(compileBody(rules)).toBe(compileBody(rules));
    expect(compileBody({ ...rules })).not.toBe(compileBody(rules));
  });
});
