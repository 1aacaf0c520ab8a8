// Deliberate breakage for the tests that prove the suite can fail: a response example with its
// strings turned into numbers (so it breaks a schema of decimal strings), picked from the
// documents rather than named by hand.
import { resolve } from 'node:path';
import { isRecord, type JsonRecord, optionalRecordAt } from '../../model/json.ts';
import type { Model, OperationId } from './documents.ts';
import { isWrite, operationIds } from './documents.ts';

/** The value with every string leaf replaced by a number; the keys of the changed leaves. */
export function stringsToNumbers(value: unknown, keys: string[] = [], key = ''): unknown {
  if (typeof value === 'string') {
    keys.push(key);
    return value.length;
  }
  if (Array.isArray(value)) return value.map((item) => stringsToNumbers(item, keys, key));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, stringsToNumbers(item, keys, name)]),
    );
  }
  return value;
}

export interface Breakage {
  operationId: OperationId;
  status: number;
  example: string;
  /** The example's value, broken. */
  broken: unknown;
  /** A field the broken value gets wrong (the key of a string leaf that became a number). */
  field: string;
}

/**
 * The first read-only operation (of `among`, by default all) with an object-valued success example
 * holding string fields.
 */
export function pickBreakage(model: Model, among: readonly OperationId[] = operationIds): Breakage {
  for (const operationId of among) {
    if (isWrite(operationId)) continue;
    for (const [status, { examples }] of model.model(operationId).responses) {
      if (status < 200 || status >= 300) continue;
      for (const example of examples) {
        const keys: string[] = [];
        const broken = stringsToNumbers(example.value, keys);
        const field = keys.find((key) => key !== '');
        if (field && model.model(operationId).validateResponse(status, broken).length > 0) {
          return { operationId, status, example: example.name, broken, field };
        }
      }
    }
  }
  throw new Error('no success example with string fields to break');
}

/** A copy of the documents with the picked example replaced by its broken value. */
export function documentsWithBrokenExample(
  documents: Readonly<Record<string, JsonRecord>>,
  model: Model,
  breakage: Breakage,
): Record<string, JsonRecord> {
  const copy: Record<string, JsonRecord> = structuredClone(documents);
  const { facts } = model.model(breakage.operationId);
  const example = optionalRecordAt(
    copy[facts.api],
    ...['paths', facts.path, facts.method, 'responses', String(breakage.status), 'content'],
    ...['application/json', 'examples', breakage.example],
  );
  if (!example) throw new Error(`${breakage.operationId}: no example ${breakage.example} to break`);
  // The copy is ours to change: structuredClone made it.
  Object.assign(example, { value: breakage.broken });
  return copy;
}

/** The document with every reference to another file made absolute, so a copy can live elsewhere. */
export function withAbsoluteFileRefs(document: unknown, baseDirectory: string): unknown {
  if (Array.isArray(document)) return document.map((item) => withAbsoluteFileRefs(item, baseDirectory));
  if (!isRecord(document)) return document;
  return Object.fromEntries(
    Object.entries(document).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && !value.startsWith('#') && !/^[a-z]+:/i.test(value)
        ? resolve(baseDirectory, value)
        : withAbsoluteFileRefs(value, baseDirectory),
    ]),
  );
}
