// What a test file needs: the target the global setup started, the model of the documents, and
// a way to tag each test with the operation (and status) it checks, for the report.
import { expect, inject } from 'vitest';
import { createModel, type OperationId } from './documents.ts';

declare module 'vitest' {
  interface TaskMeta {
    contract?: { operationId: string; status?: number; refusedWhile?: string };
  }
}

export const context = inject('contract');
export const model = createModel();

/** Marks a test as a check of `operationId` (and of a declared status). */
export function tag(
  task: { meta: { contract?: { operationId: string; status?: number; refusedWhile?: string } } },
  operationId: OperationId,
  status?: number,
): void {
  task.meta.contract = status === undefined ? { operationId } : { operationId, status };
}

/** Fails with the problems themselves as the message, so the report shows what broke where. */
export function expectNoProblems(problems: string[]): void {
  if (problems.length > 0) expect.fail(problems.join('\n'));
}
