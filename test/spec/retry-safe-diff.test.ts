// The spec diff on x-retry-safe's three forms: always (true), never (false), and only when the
// body carries a key whose repeat the service refuses ({ idempotencyKey, source, description }).
// Fewer repeats allowed break callers, more break servers, another key breaks both; its
// description is words and is not compared.
import { describe, expect, it } from 'vitest';
import { diffDocuments } from '../../scripts/spec-diff.ts';
import { createOrder, readFixture } from './fixture-document.ts';

const base = readFixture();
const byKey = (
  idempotencyKey: string,
  source = 'observed-upstream',
  description = 'A repeat is refused.',
) => ({
  idempotencyKey,
  source,
  description,
});

/** The change of createOrder's x-retry-safe from `before` to `after`. */
function retryChange(before: unknown, after: unknown) {
  const documents = [before, after].map((value) => {
    const copy = structuredClone(base);
    createOrder(copy)['x-retry-safe'] = value;
    return copy;
  });
  return diffDocuments('fixture', documents[0], documents[1]);
}

describe('spec diff of x-retry-safe', () => {
  it.each([
    [
      'never -> with a key',
      false,
      byKey('clientOrderId'),
      false,
      true,
      /must now refuse a repeated clientOrderId/,
    ],
    [
      'always -> with a key',
      true,
      byKey('clientOrderId'),
      true,
      false,
      /only when the body has clientOrderId/,
    ],
    ['with a key -> never', byKey('clientOrderId'), false, true, false, /now not safe to repeat/],
    ['with a key -> always', byKey('clientOrderId'), true, false, true, /any repeat must now be harmless/],
    [
      'another key',
      byKey('clientOrderId'),
      byKey('orderRef'),
      true,
      true,
      /only with orderRef, not clientOrderId/,
    ],
    [
      'only the source',
      byKey('clientOrderId'),
      byKey('clientOrderId', 'specification'),
      false,
      false,
      /only where the fact comes from changed/,
    ],
  ])('%s', (_, before, after, caller, server, because) => {
    const changes = retryChange(before, after);
    expect(changes).toHaveLength(1);
    const [change] = changes;
    expect(change).toMatchObject({
      kind: 'vendor-fact-changed',
      field: 'x-retry-safe',
      operationId: 'createOrder',
    });
    expect(change?.caller.breaking).toBe(caller);
    expect(change?.server.breaking).toBe(server);
    expect(`${change?.caller.reason} / ${change?.server.reason}`).toMatch(because);
  });

  it('names the key and its source in the detail', () => {
    const [change] = retryChange(false, byKey('clientOrderId'));
    expect(change?.detail).toBe('x-retry-safe: false -> only with clientOrderId (observed-upstream)');
  });

  it('does not compare the description', () => {
    expect(
      retryChange(byKey('clientOrderId'), byKey('clientOrderId', 'observed-upstream', 'Reworded.')),
    ).toEqual([]);
  });
});
