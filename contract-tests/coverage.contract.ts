// Every operation of the documents has a contract case, and every case an operation: a new
// operation without contract tests fails the suite here. The list of writes (what a real
// target never gets by default) is derived from the operation facts.
import { describe, expect, it } from 'vitest';
import { cases } from './cases.ts';
import { factsOf, isWrite, operationIds, writeOperations } from './support/documents.ts';

describe('coverage', () => {
  it('the case table is keyed by exactly the generated operationIds', () => {
    expect(Object.keys(cases).sort()).toEqual([...operationIds].sort());
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
