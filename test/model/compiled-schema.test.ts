// The validators kept on disk (model/compiled-schema.ts) validate as ajv's own compile does, for
// each schema and each ajv as they are now.
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { compiledSchemaFile, compileSchema } from '../../model/compiled-schema.ts';
import { createSchemaValidator } from '../../model/document.ts';
import { createStreamSchemaValidator } from '../../model/streams.ts';

/** A schema no earlier run has met, so that its first compile is a compile. */
const fresh = (schema: object) => ({ description: randomUUID(), ...schema });

const order = {
  type: 'object',
  required: ['amount', 'side', 'time'],
  properties: {
    amount: { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?$', 'x-minimum-amount': '0.1' },
    side: { enum: ['buy', 'sell'], 'x-enum-varnames': ['Buy', 'Sell'] },
    time: { type: 'string', format: 'date-time' },
  },
  additionalProperties: false,
};
const values = [
  { amount: '1.5', side: 'buy', time: '2026-11-27T06:00:00Z' },
  { amount: 1.5, side: 'hold', time: 'yesterday', extra: true },
  { side: 'sell' },
  'not an object',
];

/** What a validator says of each value: whether it passes, and its errors. */
const verdicts = (validate: ReturnType<typeof compileSchema>) =>
  values.map((value) => [validate(value), structuredClone(validate.errors ?? null)]);

describe('compileSchema', () => {
  it('validates, with the same errors, as compile does: compiled first, then loaded without compiling', () => {
    const schema = fresh(order);
    const reference = verdicts(createSchemaValidator().compile(schema));
    expect(reference.map(([valid]) => valid)).toEqual([true, false, false, false]);
    const file = compiledSchemaFile(createSchemaValidator(), schema);
    try {
      expect(verdicts(compileSchema(createSchemaValidator(), schema))).toEqual(reference);
      expect(existsSync(file)).toBe(true);
      const another = createSchemaValidator();
      const compile = vi.spyOn(another, 'compile');
      expect(verdicts(compileSchema(another, schema))).toEqual(reference);
      expect(compile).not.toHaveBeenCalled();
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('keeps an edited schema, or one compiled by another ajv, apart', () => {
    const schema = fresh(order);
    const edited = { ...schema, required: ['side'] };
    const documents = createSchemaValidator();
    const streams = createStreamSchemaValidator();
    const files = [compiledSchemaFile(documents, schema), compiledSchemaFile(documents, edited)];
    files.push(compiledSchemaFile(streams, schema));
    try {
      expect(new Set(files).size).toBe(3);
      expect(compileSchema(documents, schema)({ side: 'buy' })).toBe(false);
      expect(compileSchema(documents, edited)({ side: 'buy' })).toBe(true);
      expect(compileSchema(documents, schema)({ side: 'buy' })).toBe(false);
    } finally {
      for (const file of files) rmSync(file, { force: true });
    }
  });

  it('throws as compile does on a schema ajv refuses, and keeps nothing', () => {
    const schema = fresh({ type: 'object', 'x-unknown-keyword': true });
    const ajv = createSchemaValidator();
    expect(() => ajv.compile(schema)).toThrow(/unknown keyword/);
    expect(() => compileSchema(ajv, schema)).toThrow(/unknown keyword/);
    expect(existsSync(compiledSchemaFile(ajv, schema))).toBe(false);
  });
});
