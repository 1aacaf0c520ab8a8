import { describe, expect, it } from 'vitest';
import { ActionType } from '../../generated/private-v4.ts';
import { at, documents, list, operationAt, record, requestSchema, text } from './documents.ts';
import {
  actionTypeNames,
  collateralSummaryItemFields,
  historyRecordFields,
  privateErrorFields,
  publicErrorFields,
  specifiedErrorCodes,
  specifiedRequestFields,
} from './specification.ts';

const privateSchemas = record(documents['private-v4'], 'components', 'schemas');

function expectFields(schema: unknown, fields: Record<string, string>) {
  for (const [name, type] of Object.entries(fields)) {
    expect(at(schema, 'properties', name, 'type'), name).toBe(type);
  }
}

describe('request bodies', () => {
  it.each(Object.entries(specifiedRequestFields))('%s', (path, fields) => {
    const schema = requestSchema(path);
    const required = list(schema, 'required');
    expect(required).toEqual(expect.arrayContaining(['request', 'nonce']));
    expect(at(schema, 'properties', 'request', 'const')).toBe(path);
    // The specification's string form is one of the nonce's forms (the other is observed upstream).
    expect(list(schema, 'properties', 'nonce', 'anyOf')).toContainEqual(
      expect.objectContaining({ type: 'string', pattern: '^[0-9]+$' }),
    );
    expect(at(schema, 'properties', 'nonceWindow', 'type')).toBe('boolean');
    for (const [name, field] of Object.entries(fields)) {
      const property = at(schema, 'properties', name);
      expect(at(property, 'type'), name).toBe(field.type);
      expect(required.includes(name), `${name} required`).toBe(field.required ?? false);
      if ('default' in field) expect(at(property, 'default'), `${name} default`).toBe(field.default);
      if (field.format) expect(at(property, 'format'), `${name} format`).toBe(field.format);
      if (field.items) {
        expect(at(property, 'items', 'type'), `${name} items`).toBe(field.items.type);
        expect(at(property, 'items', 'enum'), `${name} items enum`).toEqual(field.items.enum);
      }
    }
  });

  it('writes amounts as decimal strings with a pattern', () => {
    const pattern = new RegExp(
      text(requestSchema('/api/v4/main-account/smart/investment'), 'properties', 'amount', 'pattern'),
    );
    for (const valid of ['1', '100.00', '0.00000001']) expect(pattern.test(valid), valid).toBe(true);
    for (const invalid of ['', '1e5', '1.', '.5', '1,5', ' 1', 'NaN', '-1']) {
      expect(pattern.test(invalid), invalid).toBe(false);
    }
  });

  it('checks the market form <BASE>_<QUOTE>', () => {
    const pattern = new RegExp(
      text(requestSchema('/api/v4/order/cancel/all'), 'properties', 'market', 'pattern'),
    );
    expect(pattern.test('BTC_USDT')).toBe(true);
    for (const invalid of ['BTCUSDT', 'BTC_', '_USDT', 'BTC_USDT_X', 'BTC-USDT']) {
      expect(pattern.test(invalid), invalid).toBe(false);
    }
  });
});

describe('resources', () => {
  it('names the six action types, in generated code too', () => {
    expect(at(privateSchemas, 'ActionType', 'x-enum-varnames')).toEqual(actionTypeNames);
    expect(at(privateSchemas, 'ActionType', 'enum')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(ActionType.INVEST).toBe(1);
    expect(ActionType.OPEN_INVESTMENT).toBe(6);
  });

  it('has every field of the history record, the summary item and the error objects', () => {
    const success = (path: string) =>
      record(
        operationAt('private-v4', 'post', path),
        'responses',
        '200',
        'content',
        'application/json',
        'schema',
      );
    expectFields(
      at(success('/api/v4/main-account/smart-flex/investments/history'), 'properties', 'data', 'items'),
      historyRecordFields,
    );
    expectFields(
      at(success('/api/v4/collateral-account/balance-summary'), 'items'),
      collateralSummaryItemFields,
    );
    expectFields(privateSchemas.PrivateError, privateErrorFields);
    expectFields(at(documents['public-v4'], 'components', 'schemas', 'PublicError'), publicErrorFields);
    expect(at(privateSchemas, 'PrivateError', 'properties', 'errors', 'additionalProperties')).toMatchObject({
      type: 'array',
      items: { type: 'string' },
    });
  });

  it('answers the history with data, limit and offset, and its 400 with code 0', () => {
    const responses = record(
      operationAt('private-v4', 'post', '/api/v4/main-account/smart-flex/investments/history'),
      'responses',
    );
    const schemaOf = (status: string) => record(responses, status, 'content', 'application/json', 'schema');
    expect(at(schemaOf('200'), 'required')).toEqual(['data', 'limit', 'offset']);
    expect(at(schemaOf('400'), 'allOf', 1, 'properties', 'code', 'const')).toBe(
      specifiedErrorCodes.historyValidation,
    );
  });

  it('answers ping with exactly ["pong"]', () => {
    const schema = at(
      operationAt('public-v4', 'get', '/api/v4/public/ping'),
      'responses',
      '200',
      'content',
      'application/json',
      'schema',
    );
    expect(schema).toMatchObject({
      type: 'array',
      items: { const: 'pong' },
      minItems: 1,
      maxItems: 1,
    });
  });
});
