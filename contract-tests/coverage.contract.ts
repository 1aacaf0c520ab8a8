// The derived cases cover what the documents state: every caller field of every operation gets
// invalid inputs, every kind of rule the request schemas use is broken somewhere, and every
// `x-caused-by` names fields of its operation's request. The list of writes (what a real target
// never gets by default) is derived from the operation facts.
import { describe, expect, it } from 'vitest';
import { isRecord } from '../model/json.ts';
import { invalidInputs, reproducibleFailures } from './cases.ts';
import { model } from './support/context.ts';
import { factsOf, isWrite, operationIds, signedFields, writeOperations } from './support/documents.ts';

const callerFields = (operationId: (typeof operationIds)[number]) =>
  Object.keys(model.model(operationId).requestSchema?.properties ?? {}).filter(
    (field) => !signedFields.has(field),
  );

describe('coverage', () => {
  it('every caller field of every operation has invalid inputs', () => {
    const uncovered = operationIds.flatMap((operationId) => {
      const fields = new Set(invalidInputs(model, operationId).map(({ field }) => field.split('.')[0]));
      return callerFields(operationId)
        .filter((field) => !fields.has(field))
        .map((field) => `${operationId}.${field}`);
    });
    expect(uncovered).toEqual([]);
  });

  it('every kind of rule the request schemas use is broken by some case', () => {
    const used = new Set<string>();
    const walk = (schema: unknown): void => {
      if (!isRecord(schema)) return;
      for (const rule of ['enum', 'pattern', 'minLength', 'minimum', 'maximum', 'minItems', 'maxItems']) {
        if (schema[rule] !== undefined) used.add(rule);
      }
      if (schema.format === 'uuid') used.add('format');
      if (Array.isArray(schema.required) && schema.required.length > 0) used.add('required');
      for (const child of [
        schema.items,
        ...Object.values(schema.properties ?? {}),
        ...((schema.anyOf as unknown[]) ?? []),
      ])
        walk(child);
    };
    for (const operationId of operationIds) walk(model.model(operationId).requestSchema);
    const broken = new Set(
      operationIds.flatMap((operationId) => invalidInputs(model, operationId).map(({ rule }) => rule)),
    );
    expect(used.size).toBeGreaterThan(5);
    expect([...used].filter((rule) => !broken.has(rule))).toEqual([]);
  });

  it('a field of an object inside an array is broken by its path', () => {
    const nested = operationIds.flatMap((operationId) =>
      invalidInputs(model, operationId).filter(({ field }) => /^\w+\.\d+\.\w+$/.test(field)),
    );
    expect(nested.length).toBeGreaterThan(0);
  });

  it('each x-caused-by names fields of its request and errors of its example', () => {
    for (const operationId of operationIds) {
      for (const failure of reproducibleFailures(model, operationId)) {
        expect(failure.fields.length, `${operationId} ${failure.example}`).toBeGreaterThan(0);
        const properties = model.model(operationId).requestSchema?.properties ?? {};
        for (const field of Object.keys(failure.body)) expect(properties).toHaveProperty([field]);
        expect(
          model
            .model(operationId)
            .validateRequest({ request: factsOf(operationId).path, nonce: '1', ...failure.body }),
        ).toEqual([]);
      }
    }
  });

  it('every operation that is not retry-safe is a write', () => {
    const notRetrySafe = operationIds.filter((operationId) => !factsOf(operationId).retrySafe);
    expect(notRetrySafe.length).toBeGreaterThan(0);
    for (const operationId of notRetrySafe) expect(writeOperations).toContain(operationId);
  });

  it('an operation that cancels is a write even when it is retry-safe', () => {
    const cancelling = operationIds.filter((operationId) => /^cancel[A-Z]/.test(operationId));
    expect(cancelling.length).toBeGreaterThan(0);
    for (const operationId of cancelling) expect(isWrite(operationId)).toBe(true);
  });

  it('read-only operations remain to be called on a real target', () => {
    const reads = operationIds.filter((operationId) => !isWrite(operationId));
    expect(reads.length).toBeGreaterThan(0);
    for (const operationId of reads) expect(factsOf(operationId).retrySafe).toBe(true);
  });
});
