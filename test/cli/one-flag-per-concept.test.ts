// One concept, one flag: wherever two operations' body fields name one thing (the operator's wire
// names differ: `plan` and `planId`), txc gives them one flag. Which fields name one thing comes
// from the documents as written, before dereferencing: fields that $ref one component that is a
// concept (never two fields of one body, unlike a decimal or a time), and fields whose names are
// variants of each other (`plan`/`planId`, `type`/`types`, `activation_price`/`activationPrice`).
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadApiDocuments, pathItemFile, readDocument } from '../../model/document.ts';
import { arrayAt, at, isRecord, optionalRecordAt, stringAt } from '../../model/json.ts';
import { fieldFlags } from '../../src/cli/flags.ts';
import { cliOperations } from '../../src/cli/operations.ts';

interface CallerField {
  operationId: string;
  field: string;
  flag: string;
  /** The components the field's schema $refs: itself, its items, its forms (anyOf). */
  components: string[];
}

/** The component names a schema as written refers to, directly or through items and anyOf. */
function componentsOf(schema: unknown): string[] {
  if (!isRecord(schema)) return [];
  const own = typeof schema.$ref === 'string' ? [posix.basename(schema.$ref).replace(/\.ya?ml$/, '')] : [];
  const forms = Array.isArray(schema.anyOf) ? schema.anyOf.flatMap(componentsOf) : [];
  return [...own, ...componentsOf(schema.items), ...forms];
}

const methods = ['get', 'put', 'post', 'delete', 'patch'];

/** Every field a caller writes, with its txc flag and the components its schema $refs as written. */
function callerFields(): CallerField[] {
  const fields: CallerField[] = [];
  for (const api of loadApiDocuments()) {
    for (const path of Object.keys(api.document.paths as object)) {
      const item = readDocument(pathItemFile(api, path));
      for (const method of methods) {
        const operation = optionalRecordAt(item, method);
        if (!operation) continue;
        const operationId = stringAt(operation, 'operationId');
        const cli = cliOperations.find((candidate) => candidate.facts.operationId === operationId);
        if (!cli) throw new Error(`${operationId} has no subcommand`);
        // A GET's fields are its parameters, each with its schema as written.
        const parameters = Object.fromEntries(
          arrayAt(operation, 'parameters').map((parameter) => [
            stringAt(parameter, 'name'),
            at(parameter, 'schema'),
          ]),
        );
        const written =
          optionalRecordAt(operation, 'requestBody', 'content', 'application/json', 'schema', 'properties') ??
          parameters;
        for (const flag of fieldFlags(cli.body)) {
          fields.push({
            operationId: cli.facts.operationId,
            field: flag.field,
            flag: flag.flag,
            components: componentsOf(written[flag.field]),
          });
        }
      }
    }
  }
  return fields;
}

/** A component two fields of one body refer to is a value type (a decimal, a time), not a concept. */
function concepts(fields: readonly CallerField[]): Map<string, CallerField[]> {
  const byComponent = new Map<string, CallerField[]>();
  for (const field of fields) {
    for (const component of field.components) {
      byComponent.set(component, [...(byComponent.get(component) ?? []), field]);
    }
  }
  for (const [component, users] of byComponent) {
    const operations = users.map((user) => user.operationId);
    if (new Set(operations).size < operations.length) byComponent.delete(component);
  }
  return byComponent;
}

/** Whether two field names are spellings of one name: case and `_`, a trailing `Id` or plural `s`. */
function variants(a: string, b: string): boolean {
  const plain = (name: string) => name.replaceAll('_', '').toLowerCase();
  const [x, y] = [plain(a), plain(b)];
  return x === y || [`${x}id`, `${x}s`].includes(y) || [`${y}id`, `${y}s`].includes(x);
}

const fields = callerFields();
const describeField = (field: CallerField) => `${field.operationId}.${field.field} ${field.flag}`;

describe('one flag per concept', () => {
  it('reads the fields of every operation, and finds the concepts the rule needs', () => {
    expect(new Set(fields.map((field) => field.operationId)).size).toBe(
      cliOperations.filter((operation) => Object.keys(operation.body.properties).length > 0).length,
    );
    const found = concepts(fields);
    // Shared by several operations: each is a concept, and the rule is not vacuous.
    for (const component of ['PlanId', 'Market', 'OrderId', 'ClientOrderId', 'OrderKind']) {
      expect(found.get(component)?.length, component).toBeGreaterThan(1);
    }
    // Two fields of one body: a value type, whose fields may have flags of their own.
    expect(found.has('PositiveDecimal')).toBe(false);
    expect(found.has('UnixTime')).toBe(false);
  });

  it('tells spellings of one name from other names', () => {
    expect(variants('plan', 'planId')).toBe(true);
    expect(variants('types', 'type')).toBe(true);
    expect(variants('activation_price', 'activationPrice')).toBe(true);
    expect(variants('orders', 'orderId')).toBe(false);
    expect(variants('market', 'amount')).toBe(false);
  });

  it('gives every field of one concept component one flag', () => {
    for (const [component, users] of concepts(fields)) {
      const flags = new Set(users.map((user) => user.flag));
      expect(flags.size, `${component}: ${users.map(describeField).join(', ')}`).toBe(1);
    }
  });

  it('gives fields whose names are spellings of one name one flag, unless they are two concepts', () => {
    const known = concepts(fields);
    const concept = (field: CallerField) => field.components.find((component) => known.has(component));
    // Two fields that refer to two different concepts (a trade's side and an order's kind, both
    // called `type` on the wire) are two concepts, each with its own flag.
    const twoConcepts = (a: CallerField, b: CallerField) =>
      concept(a) !== undefined && concept(b) !== undefined && concept(a) !== concept(b);
    const differing = fields.flatMap((a) =>
      fields
        .filter(
          (b) =>
            a.operationId < b.operationId &&
            variants(a.field, b.field) &&
            a.flag !== b.flag &&
            !twoConcepts(a, b),
        )
        .map((b) => `${describeField(a)} / ${describeField(b)}`),
    );
    expect(differing).toEqual([]);
  });
});
