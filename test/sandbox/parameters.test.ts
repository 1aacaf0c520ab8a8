// A GET's parameters in the sandbox: a path of the documents with a `{name}` reaches its
// operation with the value decoded, query values are read as their schema types them, and a
// parameter that breaks its schema is refused as the operator's public endpoints refuse one: an
// object keyed by the parameter, worded by the operation's named example where one words it.
import { describe, expect, it } from 'vitest';
import { at } from '../../model/json.ts';
import { documentOf, get, strictSandbox } from './helpers.ts';

const suite = strictSandbox();
const validation = documentOf('getOrderBook').example(
  String(documentOf('getOrderBook').object['x-validation-example']),
);

describe("a GET's parameters", () => {
  it('reach the operation through its path template, with a valid query', async () => {
    const reply = await get(suite.sandbox.url, 'getOrderBook', { market: 'BTC_USDT', limit: 5 });
    expect(reply.status).toBe(200);
  });

  it('refuse a query value of the wrong type with the named example that words it', async () => {
    // The parameter the validation example words, given a value that is not a whole number.
    const [field = ''] = Object.keys(validation.value as object);
    const reply = await get(suite.sandbox.url, 'getOrderBook', { market: 'BTC_USDT', [field]: 'many' });
    expect(reply.status).toBe(validation.status);
    expect(reply.body).toEqual(validation.value);
  });

  it('refuse a value past its bound, keyed by the parameter', async () => {
    const reply = await get(suite.sandbox.url, 'getOrderBook', { market: 'BTC_USDT', limit: 101 });
    expect(reply.status).toBe(validation.status);
    expect(Object.keys(reply.body)).toEqual(['limit']);
    expect(at(reply.body, 'limit', 0)).toMatch(/100/);
  });

  it('answer 404 for a path the templates do not match', async () => {
    const response = await fetch(`${suite.sandbox.url}/api/v4/public/orderbook/BTC_USDT/extra`);
    expect(response.status).toBe(404);
    expect(at(await response.json(), 'success')).toBe(false);
  });
});
