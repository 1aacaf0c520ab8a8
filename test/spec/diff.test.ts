// The spec diff on a small fixture document: each case changes one thing and checks the change
// found, its class for a caller and for a server, and the reason given.
import { describe, expect, it } from 'vitest';
import { diffDocuments, type SpecChange, vendorFacts } from '../../scripts/spec-diff.ts';
import {
  createOrder,
  type FixtureDocument,
  listOrders,
  parameter,
  property,
  rateLimit,
  readFixture,
  response,
} from './fixture-document.ts';

const base = readFixture();

/** The fixture with one edit applied: a fixture document per kind of change. */
function changed(edit: (document: FixtureDocument) => void): FixtureDocument {
  const copy = structuredClone(base);
  edit(copy);
  return copy;
}

const diff = (edit: (document: FixtureDocument) => void): SpecChange[] =>
  diffDocuments('fixture', base, changed(edit));
const create = createOrder;
const list = listOrders;
const schemas = (document: FixtureDocument) => document.components.schemas;
/** The order createOrder answers, made its own copy so that listOrders keeps the shared one. */
const createdOrder = (document: FixtureDocument) => {
  const media = response(create(document), '201').content?.['application/json'];
  if (!media) throw new Error('the fixture has no JSON answer of createOrder');
  const schema = structuredClone(schemas(document).Order);
  media.schema = schema;
  return schema;
};

interface Case {
  name: string;
  edit: (document: FixtureDocument) => void;
  expected: Partial<Omit<SpecChange, 'caller' | 'server'>> & {
    caller: boolean;
    server: boolean;
    because: RegExp;
  };
}

const cases: Case[] = [
  {
    name: 'an operation added',
    edit: (document) => {
      document.paths['/orders/cancel'] = { delete: { operationId: 'cancelOrders', responses: { 204: {} } } };
    },
    expected: {
      kind: 'operation-added',
      operation: 'DELETE /orders/cancel',
      caller: false,
      server: true,
      because: /must now implement/,
    },
  },
  {
    name: 'an operation removed',
    edit: (document) => {
      delete document.paths['/orders/list'];
    },
    expected: {
      kind: 'operation-removed',
      operationId: 'listOrders',
      caller: true,
      server: false,
      because: /will fail/,
    },
  },
  {
    name: 'an operationId renamed',
    edit: (document) => {
      list(document).operationId = 'getOrders';
    },
    expected: {
      kind: 'operation-id-changed',
      operationId: 'getOrders',
      caller: true,
      server: false,
      because: /names the operation/,
    },
  },
  {
    name: 'an optional request field added',
    edit: (document) => {
      schemas(document).OrderRequest.properties.tag = { type: 'string' };
    },
    expected: {
      kind: 'field-added',
      location: 'request',
      field: 'body.tag',
      caller: false,
      server: true,
      because: /accept it/,
    },
  },
  {
    name: 'a required request field added',
    edit: (document) => {
      schemas(document).OrderRequest.properties.expiry = {
        type: 'object',
        properties: { at: { type: 'integer' } },
      };
      schemas(document).OrderRequest.required.push('expiry');
    },
    expected: {
      kind: 'field-added',
      field: 'body.expiry',
      caller: true,
      server: true,
      because: /do not send it/,
    },
  },
  {
    name: 'a request field removed',
    edit: (document) => {
      delete schemas(document).OrderRequest.properties.clientId;
    },
    expected: {
      kind: 'field-removed',
      location: 'request',
      field: 'body.clientId',
      caller: true,
      server: false,
      because: /refused/,
    },
  },
  {
    name: 'a request field newly required',
    edit: (document) => {
      schemas(document).OrderRequest.required.push('side');
    },
    expected: {
      kind: 'field-newly-required',
      location: 'request',
      field: 'body.side',
      caller: true,
      server: false,
      because: /without it will be refused/,
    },
  },
  {
    name: 'a query parameter newly required',
    edit: (document) => {
      parameter(create(document), 0).required = true;
    },
    expected: {
      kind: 'field-newly-required',
      field: 'query.dryRun',
      caller: true,
      server: false,
      because: /refused/,
    },
  },
  {
    name: 'a request field no longer required',
    edit: (document) => {
      schemas(document).OrderRequest.required = ['market'];
    },
    expected: {
      kind: 'field-no-longer-required',
      field: 'body.amount',
      caller: false,
      server: true,
      because: /cope without it/,
    },
  },
  {
    name: 'a request field type changed',
    edit: (document) => {
      property(schemas(document).OrderRequest, 'amount').type = 'number';
    },
    expected: {
      kind: 'type-changed',
      field: 'body.amount',
      caller: true,
      server: true,
      because: /no longer be valid/,
    },
  },
  {
    name: 'a request field type widened',
    edit: (document) => {
      property(schemas(document).OrderRequest, 'amount').type = ['string', 'number'];
    },
    expected: {
      kind: 'type-changed',
      field: 'body.amount',
      caller: false,
      server: true,
      because: /must now handle values of type number\|string/,
    },
  },
  {
    name: 'a request format changed',
    edit: (document) => {
      property(schemas(document).OrderRequest, 'clientId').format = 'email';
    },
    expected: {
      kind: 'format-changed',
      field: 'body.clientId',
      caller: true,
      server: true,
      because: /format email/,
    },
  },
  {
    name: 'a request format dropped',
    edit: (document) => {
      delete property(schemas(document).OrderRequest, 'clientId').format;
    },
    expected: {
      kind: 'format-changed',
      field: 'body.clientId',
      caller: false,
      server: true,
      because: /a server must now handle/,
    },
  },
  {
    name: 'a request pattern changed',
    edit: (document) => {
      property(schemas(document).OrderRequest, 'market').pattern = '^[A-Z]+-[A-Z]+$';
    },
    expected: {
      kind: 'pattern-changed',
      field: 'body.market',
      caller: true,
      server: true,
      because: /pattern/,
    },
  },
  {
    name: 'a request pattern added',
    edit: (document) => {
      property(schemas(document).OrderRequest, 'amount').pattern = '^[0-9]+$';
    },
    expected: {
      kind: 'pattern-changed',
      field: 'body.amount',
      caller: true,
      server: false,
      because: /callers sent before may no longer be valid/,
    },
  },
  {
    name: 'an enum of a request field introduced',
    edit: (document) => {
      property(schemas(document).OrderRequest, 'amount').enum = ['1', '2'];
    },
    expected: {
      kind: 'enum-added',
      field: 'body.amount',
      caller: true,
      server: false,
      because: /no longer be valid/,
    },
  },
  {
    name: 'a response field added, required',
    edit: (document) => {
      const order = createdOrder(document);
      order.properties.createdAt = { type: 'integer' };
      order.required.push('createdAt');
    },
    expected: {
      kind: 'field-added',
      location: 'response',
      status: '201',
      field: 'body.createdAt',
      caller: false,
      server: true,
      because: /must now send it/,
    },
  },
  {
    name: 'a response field added, optional',
    edit: (document) => {
      createdOrder(document).properties.createdAt = { type: 'integer' };
    },
    expected: {
      kind: 'field-added',
      location: 'response',
      field: 'body.createdAt',
      caller: false,
      server: false,
      because: /may ignore/,
    },
  },
  {
    name: 'a response field removed',
    edit: (document) => {
      delete createdOrder(document).properties.note;
    },
    expected: {
      kind: 'field-removed',
      location: 'response',
      field: 'body.note',
      caller: true,
      server: false,
      because: /no longer get it/,
    },
  },
  {
    name: 'a response header removed',
    edit: (document) => {
      delete response(create(document), '201').headers;
    },
    expected: {
      kind: 'field-removed',
      field: 'header.Location',
      caller: true,
      server: false,
      because: /no longer get it/,
    },
  },
  {
    name: 'a response field newly required',
    edit: (document) => {
      createdOrder(document).required.push('note');
    },
    expected: {
      kind: 'field-newly-required',
      location: 'response',
      field: 'body.note',
      caller: false,
      server: true,
      because: /always send it/,
    },
  },
  {
    name: 'a response field no longer required',
    edit: (document) => {
      createdOrder(document).required = ['side'];
    },
    expected: {
      kind: 'field-no-longer-required',
      location: 'response',
      field: 'body.id',
      caller: true,
      server: false,
      because: /cope without it/,
    },
  },
  {
    name: 'a response field type changed',
    edit: (document) => {
      property(createdOrder(document), 'id').type = 'integer';
    },
    expected: {
      kind: 'type-changed',
      location: 'response',
      field: 'body.id',
      caller: true,
      server: true,
      because: /integer/,
    },
  },
  {
    name: 'a response pattern added',
    edit: (document) => {
      property(createdOrder(document), 'id').pattern = '^[0-9]+$';
    },
    expected: {
      kind: 'pattern-changed',
      location: 'response',
      field: 'body.id',
      caller: false,
      server: true,
      because: /a server sent before may no longer be valid/,
    },
  },
  {
    name: 'a success status added',
    edit: (document) => {
      create(document).responses['202'] = { description: 'Accepted.' };
    },
    expected: {
      kind: 'status-added',
      status: '202',
      caller: true,
      server: false,
      because: /success answer of a new status/,
    },
  },
  {
    name: 'a failure status added',
    edit: (document) => {
      create(document).responses['409'] = { description: 'Conflict.' };
    },
    expected: {
      kind: 'status-added',
      status: '409',
      caller: false,
      server: false,
      because: /treat an undocumented failure/,
    },
  },
  {
    name: 'a status removed',
    edit: (document) => {
      delete create(document).responses['400'];
    },
    expected: {
      kind: 'status-removed',
      status: '400',
      caller: false,
      server: true,
      because: /no longer see it/,
    },
  },
  {
    name: 'a rate limit lowered',
    edit: (document) => {
      rateLimit(create(document)).requests = 10;
    },
    expected: {
      kind: 'vendor-fact-changed',
      field: 'x-rate-limit',
      caller: true,
      server: false,
      because: /429/,
    },
  },
  {
    name: 'a rate limit raised',
    edit: (document) => {
      rateLimit(create(document)).windowSeconds = 1;
    },
    expected: {
      kind: 'vendor-fact-changed',
      field: 'x-rate-limit',
      caller: false,
      server: true,
      because: /stay within the limit/,
    },
  },
  {
    name: 'an operation no longer retry-safe',
    edit: (document) => {
      list(document)['x-retry-safe'] = false;
    },
    expected: {
      kind: 'vendor-fact-changed',
      field: 'x-retry-safe',
      caller: true,
      server: false,
      because: /now not safe to repeat/,
    },
  },
  {
    name: 'an operation made retry-safe',
    edit: (document) => {
      create(document)['x-retry-safe'] = true;
    },
    expected: {
      kind: 'vendor-fact-changed',
      field: 'x-retry-safe',
      caller: false,
      server: true,
      because: /lose no guarantee/,
    },
  },
  {
    name: 'an operation made partner-only',
    edit: (document) => {
      list(document)['x-partner-only'] = true;
    },
    expected: {
      kind: 'vendor-fact-changed',
      field: 'x-partner-only',
      caller: true,
      server: false,
      because: /only for B2B partners/,
    },
  },
  {
    name: 'x-writes stated for the first time',
    edit: (document) => {
      create(document)['x-writes'] = true;
    },
    expected: {
      kind: 'vendor-fact-changed',
      field: 'x-writes',
      caller: false,
      server: false,
      because: /newly stated/,
    },
  },
  {
    name: 'a vendor fact no longer stated',
    edit: (document) => {
      delete list(document)['x-no-cache'];
    },
    expected: {
      kind: 'vendor-fact-changed',
      field: 'x-no-cache',
      caller: true,
      server: false,
      because: /no longer rely/,
    },
  },
];

describe('spec diff, one kind of change at a time', () => {
  it.each(cases)('$name', ({ edit, expected }) => {
    const { caller, server, because, ...where } = expected;
    const changes = diff(edit);
    expect(changes).toHaveLength(1);
    const [change] = changes as [SpecChange];
    expect(change).toMatchObject({ api: 'fixture', ...where });
    expect(change.caller.breaking).toBe(caller);
    expect(change.server.breaking).toBe(server);
    expect(`${change.caller.reason} / ${change.server.reason}`).toMatch(because);
  });
});

describe('spec diff, across the document', () => {
  it('finds nothing when only descriptions and examples change', () => {
    expect(
      diff((document) => {
        document.info.description = 'Now described.';
        property(schemas(document).Order, 'id').description = 'The order id.';
        property(schemas(document).Order, 'id').examples = ['abc'];
      }),
    ).toEqual([]);
  });

  it('follows a shared schema through its $refs into every request and response using it', () => {
    const changes = diff((document) => {
      schemas(document).Side.enum.push('short');
    });
    const summary = changes.map((change) => [
      change.operationId,
      change.location,
      change.status,
      change.field,
    ]);
    expect(summary).toEqual([
      ['createOrder', 'request', undefined, 'body.side'],
      ['createOrder', 'response', '201', 'body.side'],
      ['listOrders', 'response', '200', 'body[].side'],
    ]);
    const [request, response] = changes as [SpecChange, SpecChange];
    expect(request).toMatchObject({
      kind: 'enum-value-added',
      caller: { breaking: false },
      server: { breaking: true },
    });
    expect(response).toMatchObject({
      kind: 'enum-value-added',
      caller: { breaking: true },
      server: { breaking: false },
    });
    expect(response.caller.reason).toContain('"short"');
  });

  it('classes an enum value removed the other way round', () => {
    const changes = diff((document) => {
      schemas(document).Side.enum = ['buy'];
    });
    expect(
      changes.map((change) => [change.kind, change.location, change.caller.breaking, change.server.breaking]),
    ).toEqual([
      ['enum-value-removed', 'request', true, false],
      ['enum-value-removed', 'response', false, true],
      ['enum-value-removed', 'response', false, true],
    ]);
  });

  it('compares every vendor fact of its list, x-writes included, whether or not a document has it yet', () => {
    expect(vendorFacts.map((fact) => fact.name)).toEqual(
      expect.arrayContaining(['x-rate-limit', 'x-retry-safe', 'x-writes', 'x-partner-only']),
    );
    const before = changed((document) => {
      create(document)['x-writes'] = true;
    });
    const after = changed((document) => {
      create(document)['x-writes'] = false;
    });
    const [change] = diffDocuments('fixture', before, after);
    expect(change).toMatchObject({
      field: 'x-writes',
      caller: { breaking: false },
      server: { breaking: true },
    });
  });

  it('reports a whole document as added operations when it is new', () => {
    const changes = diffDocuments('fixture', {}, base);
    expect(changes.map((change) => change.kind)).toEqual(['operation-added', 'operation-added']);
  });
});
