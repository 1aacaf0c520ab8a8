// Every operation of the documents has a contract case, and every case an operation: a new
// operation without contract tests fails the suite here.
import { describe, expect, it } from 'vitest';
import { cases } from './cases.ts';
import { operationIds, writeOperations } from './support/documents.ts';

describe('coverage', () => {
  it('the case table is keyed by exactly the generated operationIds', () => {
    expect(Object.keys(cases).sort()).toEqual([...operationIds].sort());
  });

  it('every write operation is a generated operation and not every operation is a write', () => {
    for (const operationId of writeOperations) expect(operationIds).toContain(operationId);
    expect(writeOperations.length).toBeLessThan(operationIds.length);
  });
});
