// The derived cases cover what the documents state: every caller field of every operation gets
// invalid inputs, every kind of rule the request schemas use is broken somewhere, and every
// `x-caused-by` names fields of its operation's request. The list of writes (what a real target
// never gets by default) is derived from the operation facts. The operations the fetch transport
// calls hold every wire shape and every declared answer of the documents, and the first transport
// calls every operation.
import { describe, expect, it } from 'vitest';
import { isRecord } from '../model/json.ts';
import { invalidInputs, reproducibleFailures } from './cases.ts';
import { model } from './support/context.ts';
import {
  factsOf,
  isWrite,
  type Model,
  type OperationId,
  operationIds,
  signedFields,
  writeOperations,
} from './support/documents.ts';
import { transportNames } from './support/transport-names.ts';
import { operationsOn } from './support/transport-operations.ts';
import { wireSample, wireShapeOf } from './support/wire-shapes.ts';

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

describe('the operations each transport calls', () => {
  const sample = wireSample(model, operationIds);
  const shapes = operationIds.map((operationId) => wireShapeOf(model, operationId));
  const sampled = [...sample.keys()].map((operationId) => wireShapeOf(model, operationId));

  it('the first transport calls every operation, the others the wire sample', () => {
    expect(operationsOn(transportNames[0], model)).toEqual(operationIds);
    for (const transport of transportNames.slice(1))
      expect(new Set(operationsOn(transport, model))).toEqual(new Set(sample.keys()));
    // A sample is a cut: fewer operations than the documents have.
    expect(sample.size).toBeLessThan(operationIds.length);
  });

  it('the sample holds every request shape and every declared answer of the documents', () => {
    const missing = (all: string[], held: string[]) =>
      [...new Set(all)].filter((shape) => !held.includes(shape));
    expect(
      missing(
        shapes.map((shape) => shape.request),
        sampled.map((shape) => shape.request),
      ),
    ).toEqual([]);
    expect(
      missing(
        shapes.flatMap((shape) => shape.answers),
        sampled.flatMap((shape) => shape.answers),
      ),
    ).toEqual([]);
    expect(Math.max(...sampled.map((shape) => shape.largestAnswer))).toBe(
      Math.max(...shapes.map((shape) => shape.largestAnswer)),
    );
  });

  it('every sampled operation says why it is there, and no two for the same reason', () => {
    const reasons = [...sample.values()].flat();
    for (const [operationId, why] of sample) expect(why.length, operationId).toBeGreaterThan(0);
    expect(new Set(reasons).size).toBe(reasons.length);
  });

  it('an operation added with a shape or an answer the others lack joins the sample', () => {
    // Two operations as the documents could add them: a POST answering 202 with a string, and a
    // copy of the first operation that also declares a 409 with a body.
    const [first] = operationIds as [OperationId];
    const base = model.model(first);
    const newShape = 'addedWithNewShape' as OperationId;
    const newAnswer = 'addedWithNewAnswer' as OperationId;
    const added: Model = {
      ...model,
      model: (operationId) => {
        if (operationId === newShape)
          return {
            ...base,
            responses: new Map([[202, { status: 202, schema: { type: 'string' }, examples: [] }]]),
          };
        if (operationId === newAnswer)
          return {
            ...base,
            responses: new Map([
              ...base.responses,
              [409, { status: 409, schema: { type: 'object' }, examples: [] }],
            ]),
          };
        return model.model(operationId);
      },
    };
    const grown = wireSample(added, [...operationIds, newShape, newAnswer]);
    expect(grown.get(newShape)).toEqual([
      `the first call of its shape: ${wireShapeOf(added, newShape).request}`,
    ]);
    expect(grown.get(newAnswer)).toEqual([
      `the first to declare the answer ${base.facts.api} 409 with a body`,
    ]);
    // An operation of a shape already held does not join.
    const repeat = 'addedWithKnownShape' as OperationId;
    const same: Model = {
      ...model,
      model: (operationId) => model.model(operationId === repeat ? first : operationId),
    };
    expect(wireSample(same, [...operationIds, repeat]).has(repeat)).toBe(false);
  });
});
