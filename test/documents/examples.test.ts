import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../model/compiled-schema.ts';
import { createSchemaValidator } from '../../model/document.ts';
import { at, entries, mediaTypes, record } from './documents.ts';

const ajv = createSchemaValidator();

const examples = [...mediaTypes()].flatMap(({ where, mediaType }) =>
  entries(mediaType, 'examples').map(([name, example]) => ({
    name: `${where} example ${name}`,
    schema: record(mediaType, 'schema'),
    value: at(example, 'value'),
  })),
);

describe('examples', () => {
  it('every request and response body has named examples', () => {
    for (const { where, mediaType } of mediaTypes()) {
      expect(entries(mediaType, 'examples').length, where).toBeGreaterThan(0);
    }
  });

  it.each(examples)('$name is valid against its schema', ({ schema, value }) => {
    const validate = compileSchema(ajv, schema);
    expect(validate(value), ajv.errorsText(validate.errors)).toBe(true);
  });

  it('the validator rejects an example that breaks its schema', () => {
    const invest = examples.find((example) => example.name.includes('smart/investment request'));
    expect(invest).toBeDefined();
    if (!invest) return;
    const validate = compileSchema(ajv, invest.schema);
    const value = record(invest.value);
    expect(validate({ ...value, amount: 100 })).toBe(false);
    expect(validate({ ...value, nonce: 1700000000000 })).toBe(true);
    expect(validate({ ...value, nonce: -1 })).toBe(false);
    expect(validate({ ...value, nonce: '17e11' })).toBe(false);
    expect(validate({ ...value, planId: 'not-a-uuid' })).toBe(false);
    expect(validate({ ...value, request: '/api/v4/main-account/balance' })).toBe(false);
  });
});
