// The spot-trading and market-data operations taken from the operator's own files (./upstream.ts
// transcribes what they state): every one labelled observed upstream, with the operator's rate
// limits, bounds and refusals, decimals as strings, and no order ever placed twice by a client
// on its own.
import { describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.ts';
import { isRecord } from '../../model/json.ts';
import { documentModel } from '../../model/model.ts';
import { at, entries, list, operationAt, record, text } from './documents.ts';
import {
  batchSizes,
  bounds,
  clientOrderIdUsed,
  operatorTiesStatuses,
  orderPlacing,
  quoteConfirming,
  quoteValidSeconds,
  tradingRefusals,
  upstreamOperations,
} from './upstream.ts';

const model = documentModel();
const factsAt = (path: string) => {
  const facts = Object.values(operations).find((candidate) => candidate.path === path);
  if (!facts) throw new Error(`no operation at ${path}`);
  return facts;
};
const operationOf = (path: string) => {
  const facts = factsAt(path);
  return operationAt(facts.api, facts.method, facts.path);
};
const described = (node: unknown) => text(node, 'description').replace(/\s+/g, ' ');
const requestProperties = (path: string) =>
  record(operationOf(path), 'requestBody', 'content', 'application/json', 'schema', 'properties');

describe("the operator's trading and market-data operations", () => {
  it.each(upstreamOperations.map((operation) => [operation.path, operation] as const))(
    '%s says it is not in the specification, and states the rate limit the operator gives',
    (path, upstream) => {
      const { requests } = upstream;
      const windowSeconds = 'windowSeconds' in upstream ? upstream.windowSeconds : 10;
      const operation = operationOf(path);
      expect(described(operation)).toMatch(
        /Not in the specification: every fact of this operation is observed upstream/,
      );
      const rateLimit = record(operation, 'x-rate-limit');
      if (path.startsWith('/api/v4/public/') && requests === 2000) {
        // The specification's limits table covers every public REST endpoint.
        expect(rateLimit).toMatchObject({ requests: 2000, windowSeconds: 10, source: 'specification' });
      } else if (path.startsWith('/api/v4/public/')) {
        // The operator states a lower figure of its own for this endpoint: the document takes it.
        expect(rateLimit).toMatchObject({ requests, windowSeconds: 10, source: 'observed-upstream' });
        expect(described(rateLimit)).toMatch(/below the specification's 2000/);
      } else if (requests === null) {
        // The operator states none for this endpoint: the figure is the document's, and says so.
        expect(rateLimit).toMatchObject({ windowSeconds: 10, source: 'observed-upstream' });
        expect(described(rateLimit)).toMatch(/nor by the operator for this endpoint[^.]*assumes/);
        expect(described(operation)).toMatch(/rate limit of this endpoint is not shown/);
      } else {
        expect(rateLimit).toMatchObject({ requests, windowSeconds, source: 'observed-upstream' });
      }
    },
  );

  it('gives every operation its own txc subcommand', () => {
    const names = Object.values(operations).map((facts) => ('cliName' in facts ? facts.cliName : undefined));
    expect(names).not.toContain(undefined);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(Object.entries(bounds))('%s states the page bounds the operator gives', (path, fields) => {
    const properties = requestProperties(path);
    for (const [field, [minimum, maximum, fallback]] of Object.entries(fields)) {
      expect(at(properties, field, 'minimum'), `${field} minimum`).toBe(minimum);
      expect(at(properties, field, 'maximum'), `${field} maximum`).toBe(maximum);
      expect(at(properties, field, 'default'), `${field} default`).toBe(fallback);
    }
  });

  it.each(Object.entries(batchSizes))('%s takes as many orders as the operator says', (path, [min, max]) => {
    const orders = record(requestProperties(path), 'orders');
    expect([orders.minItems, orders.maxItems]).toEqual([min, max]);
    const validate = model.validator(model.operation(factsAt(path).operationId).requestSchema ?? {});
    const example = model.operation(factsAt(path).operationId).requestExamples[0]?.value;
    if (!isRecord(example)) throw new Error(`${path} has no request example`);
    const [item] = list(example, 'orders');
    expect(validate({ ...example, orders: Array.from({ length: max }, () => item) })).toBe(true);
    expect(validate({ ...example, orders: Array.from({ length: max + 1 }, () => item) })).toBe(false);
    expect(validate({ ...example, orders: [] })).toBe(false);
  });

  it.each(Object.entries(tradingRefusals))(
    '%s documents the refusals the operator shows',
    (path, refusals) => {
      const { operationId } = factsAt(path);
      for (const [name, [status, code, field, message]] of Object.entries(refusals)) {
        const example = model.responseExample(operationId, name);
        expect(example.status, name).toBe(status);
        expect(at(example.value, 'code'), name).toBe(code);
        expect(at(example.value, 'errors', field, 0), name).toBe(message);
      }
    },
  );

  it('files each trading refusal under the status its message names, except where the operator ties them', () => {
    for (const { path } of upstreamOperations.filter((operation) => operation.api === 'private-v4')) {
      if (operatorTiesStatuses.includes(path)) continue;
      const { operationId } = factsAt(path);
      for (const [status, response] of model.operation(operationId).responses) {
        if (status !== 400 && status !== 422) continue;
        for (const example of response.examples) {
          const expected = status === 400 ? 'Inner validation failed' : 'Validation failed';
          expect(at(example.value, 'message'), `${operationId} ${example.name}`).toBe(expected);
        }
      }
    }
  });

  it('writes every amount and price of a request as a decimal string', () => {
    const decimalFields = ['amount', 'price', 'activation_price', 'activationPrice', 'total'];
    let checked = 0;
    for (const { path, api } of upstreamOperations) {
      if (api !== 'private-v4') continue;
      const properties = requestProperties(path);
      const items = at(properties, 'orders', 'items', 'properties');
      for (const fields of [properties, isRecord(items) ? items : {}]) {
        for (const [name, schema] of entries(fields)) {
          if (!decimalFields.includes(name)) continue;
          checked++;
          expect(at(schema, 'type'), `${path} ${name}`).toBe('string');
          const pattern = new RegExp(text(schema, 'pattern'));
          for (const valid of ['0.01', '35000', '2100.5']) expect(pattern.test(valid), valid).toBe(true);
          for (const invalid of ['1e5', '1,5', '', ' 1', '-1'])
            expect(pattern.test(invalid), invalid).toBe(false);
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(15);
  });
});

describe('orders are never placed twice', () => {
  it.each(Object.entries(orderPlacing))('%s: %s', (path, refusal) => {
    const operation = operationOf(path);
    const facts = factsAt(path);
    expect(operation['x-writes']).toBe(true);
    // Never repeated by the client, with or without a clientOrderId: observed upstream, the id is
    // refused only while an order with it is open, so a repeat after a fill places a second order.
    expect(facts.retrySafe).toBe(false);
    expect(operation['x-retry-safe']).toBe(false);
    expect(described(operation)).toMatch(/Never repeated by the client/);
    if (refusal === 'not shown') return;
    expect(requestProperties(path)).toHaveProperty('clientOrderId');
    const text = described(operation).replace(/\s+/g, ' ');
    expect(text).toMatch(/only while an open order of the account on the same market carries it/);
    expect(text).toMatch(/once that order has filled or been cancelled/);
    expect(text).toContain('(`listActiveOrders`)');
    expect(text).toContain('(`listOrderHistory`)');
    // The refusal stays documented: it is still the answer while an order with the id is open.
    const used = model.responseExample(facts.operationId, 'clientOrderIdUsed');
    expect(used).toEqual({ status: 422, value: clientOrderIdUsed });
    if (refusal === 'refusal shown for other order types') {
      expect(text).toMatch(/is shown for its limit and stop-market orders/);
      expect(described(record(operation, 'responses', '422'))).toMatch(
        /`clientOrderIdUsed` is shown by the operator for its limit and stop-market orders/,
      );
    }
  });

  it('the object form is only for confirming a quote or withdrawing, never for placing an order', () => {
    for (const facts of Object.values(operations)) {
      const retrySafe = operationAt(facts.api, facts.method, facts.path)['x-retry-safe'];
      if (typeof retrySafe === 'boolean') continue;
      expect(quoteConfirming, facts.operationId).toHaveProperty([facts.path]);
      expect(orderPlacing, facts.operationId).not.toHaveProperty([facts.path]);
    }
  });
});

describe('a quote is never converted twice, nor a withdrawal sent twice', () => {
  it.each(Object.entries(quoteConfirming))(
    '%s is retry-safe only through the key whose repeat the operator shows refused',
    (path, { key, refusal, status, value }) => {
      const operation = operationOf(path);
      const facts = factsAt(path);
      expect(operation['x-writes']).toBe(true);
      expect(facts.retrySafe).toEqual({ idempotencyKey: key, source: 'observed-upstream' });
      const retrySafe = record(operation, 'x-retry-safe');
      expect(Object.keys(retrySafe).sort()).toEqual(['description', 'idempotencyKey', 'source']);
      expect(described(retrySafe)).toContain(`(the named example ${refusal})`);
      // The key is required: every call carries one, so the client never repeats a call without it.
      expect(
        record(operationOf(path), 'requestBody', 'content', 'application/json', 'schema').required,
      ).toContain(key);
      expect(model.responseExample(facts.operationId, refusal)).toEqual({ status, value });
    },
  );

  it.each(Object.entries(quoteValidSeconds))('%s states how long its quote lasts', (path, seconds) => {
    const operation = operationOf(path);
    expect(operation['x-quote-valid-seconds']).toBe(seconds);
    expect(described(operation)).toMatch(new RegExp(`A quote lasts ${seconds} seconds`));
  });
});
