// fast-check arbitraries built from the documents: valid caller bodies from each operation's
// request schema, and bodies that break exactly one of the constraints the generated body
// rules carry (type, enum, pattern, format, bounds, array items), objects inside arrays included.
import fc from 'fast-check';
import { arrayAt, isRecord, type JsonRecord, numberAt, recordAt, stringAt } from '../../model/json.ts';
import type { FieldRule } from '../../src/engine.ts';
import { type Facts, signedFields } from './documents.ts';

/** A value valid against a (dereferenced) JSON schema, for the subset the documents use. */
export function arbitraryOf(schema: JsonRecord): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  // A choice of forms, or a list of types (`[integer, 'null']`): a value of any one of them.
  if (Array.isArray(schema.anyOf)) return fc.oneof(...schema.anyOf.filter(isRecord).map(arbitraryOf));
  if (Array.isArray(schema.type))
    return fc.oneof(...schema.type.map((type) => arbitraryOf({ ...schema, type })));
  const minLength = numberAt(schema, 'minLength') ?? 0;
  const maxLength = numberAt(schema, 'maxLength') ?? Number.POSITIVE_INFINITY;
  const pattern = stringAt(schema, 'pattern');
  switch (schema.type) {
    case 'string': {
      if (schema.format === 'uuid') return fc.uuid();
      const base = pattern
        ? fc.stringMatching(new RegExp(pattern, 'u'))
        : fc.string({ minLength, maxLength: 12 });
      return base.filter((value) => value.length >= minLength && value.length <= maxLength);
    }
    case 'integer':
      return fc.integer({
        min: numberAt(schema, 'minimum') ?? -(2 ** 31),
        max: numberAt(schema, 'maximum') ?? 2 ** 31,
      });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minItems = numberAt(schema, 'minItems') ?? 0;
      const maxItems = Math.max(minItems, Math.min(numberAt(schema, 'maxItems') ?? 4, 4));
      return fc.array(isRecord(schema.items) ? arbitraryOf(schema.items) : fc.anything(), {
        minLength: minItems,
        maxLength: maxItems,
      });
    }
    case 'object':
      return objectOf(schema);
    default:
      throw new Error(`no arbitrary for schema ${JSON.stringify(schema)}`);
  }
}

/** Caller bodies (no request, nonce, nonceWindow) valid against the operation's request schema. */
export function validCallerBody(requestSchema: JsonRecord): fc.Arbitrary<Record<string, unknown>> {
  return objectOf(requestSchema, signedFields);
}

/** Objects valid against an object schema, its required fields always there, without `leaveOut`. */
function objectOf(
  objectSchema: JsonRecord,
  leaveOut: ReadonlySet<string> = new Set(),
): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries(recordAt(objectSchema, 'properties')).flatMap(([field, schema]) =>
    isRecord(schema) && !leaveOut.has(field) ? [[field, schema] as const] : [],
  );
  const required = new Set(arrayAt(objectSchema, 'required'));
  return fc.record(Object.fromEntries(properties.map(([field, schema]) => [field, arbitraryOf(schema)])), {
    requiredKeys: properties.map(([field]) => field).filter((field) => required.has(field)),
  }) as fc.Arbitrary<Record<string, unknown>>;
}

const typeMismatch = (type: string): fc.Arbitrary<unknown> => {
  const byType: Record<string, fc.Arbitrary<unknown>> = {
    string: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 })),
    integer: fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.double({ noNaN: true, noDefaultInfinity: true }).filter((value) => !Number.isInteger(value)),
      fc.boolean(),
    ),
    boolean: fc.oneof(fc.integer(), fc.string({ maxLength: 6 })),
    object: fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.array(fc.integer(), { maxLength: 2 })),
    array: fc.oneof(
      fc.integer(),
      fc.string({ maxLength: 6 }),
      fc.dictionary(fc.string({ maxLength: 3 }), fc.integer()),
    ),
  };
  const arbitrary = byType[type];
  if (!arbitrary) throw new Error(`no mismatch for type ${type}`);
  return arbitrary;
};

/** Values that break `rule` in one way it states (with the path below the field they break). */
function breaking(rule: FieldRule): fc.Arbitrary<unknown>[] {
  // A field of several forms (only the nonce, which callers never write) has no one type to miss.
  const out: fc.Arbitrary<unknown>[] = typeof rule.type === 'string' ? [typeMismatch(rule.type)] : [];
  if (rule.enum) {
    const allowed = new Set(rule.enum);
    const sameType: fc.Arbitrary<unknown> =
      rule.type === 'integer' ? fc.integer({ min: -50, max: 50 }) : fc.string({ maxLength: 8 });
    out.push(sameType.filter((value) => !allowed.has(value)));
  }
  if (rule.pattern) {
    const pattern = new RegExp(rule.pattern, 'u');
    out.push(fc.string({ maxLength: 12 }).filter((value) => !pattern.test(value)));
  }
  if (rule.minimum !== undefined && typeof rule.type === 'string' && rule.type !== 'array') {
    out.push(fc.integer({ min: rule.minimum - 1000, max: rule.minimum - 1 }));
  }
  if (rule.maximum !== undefined) out.push(fc.integer({ min: rule.maximum + 1, max: rule.maximum + 1000 }));
  if (rule.format === 'uuid') {
    out.push(
      fc
        .string({ maxLength: 40 })
        .filter((value) => !/^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i.test(value)),
    );
  }
  if (rule.items) {
    // One bad element among good ones is enough to break the array.
    for (const bad of breaking(rule.items)) out.push(fc.tuple(bad).map((items) => items));
  }
  return out;
}

/** A body that breaks one rule of one caller field, with that field's name. */
export function brokenCallerBody(
  facts: Facts & { body: { properties: Record<string, FieldRule> } },
  valid: fc.Arbitrary<Record<string, unknown>>,
): fc.Arbitrary<{ body: Record<string, unknown>; field: string }> {
  const choices = Object.entries(facts.body.properties)
    .filter(([field]) => !signedFields.has(field))
    .flatMap(([field, rule]) => breaking(rule).map((value) => ({ field, value })));
  if (choices.length === 0) throw new Error(`${facts.operationId}: no caller field to break`);
  return fc
    .tuple(valid, fc.oneof(...choices.map(({ field, value }) => value.map((bad) => ({ field, bad })))))
    .map(([body, { field, bad }]) => ({ body: { ...body, [field]: bad }, field }));
}
