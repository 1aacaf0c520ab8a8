// Against the sandbox target, every named error example the sandbox can produce from its state
// (sandbox/example-recipes.ts) is requested for real, through the Prism proxy that checks the
// answer against the document: it must arrive with the example's status, code, message and
// fields. Bodies the document itself refuses (an amount that is not a number) stop at the proxy
// and are covered by the sandbox's own tests.
import { describe, expect, it } from 'vitest';
import { rawSignedPost } from './support/clients.ts';
import { context, model, tag } from './support/context.ts';
import type { OperationId } from './support/documents.ts';

const examples = (context.examples ?? []).filter(
  (call) =>
    model.model(call.operationId as OperationId).validateRequest({
      request: model.model(call.operationId as OperationId).facts.path,
      nonce: '1',
      ...call.fields,
    }).length === 0,
);

describe.skipIf(examples.length === 0)('named examples produced by the target', () => {
  it.for(examples.map((call) => ({ ...call, name: `${call.operationId} › ${call.example}` })))(
    '$name',
    async ({ operationId, example, fields, credentials }, { task }) => {
      const operation = model.model(operationId as OperationId);
      const [status, documented] = [...operation.responses].flatMap(([code, response]) =>
        response.examples
          .filter((candidate) => candidate.name === example)
          .map((found) => [code, found] as const),
      )[0] ?? [undefined, undefined];
      expect(documented, `${operationId} has no example ${example}`).toBeDefined();
      tag(task, operationId as OperationId, status);
      const answer = await rawSignedPost({ ...context, credentials }, operationId as OperationId, fields);
      expect(answer.violations, JSON.stringify(answer.body)).toEqual([]);
      expect(answer.status).toBe(status);
      const expected = documented?.value as { code?: number; message?: string; errors?: object };
      expect(answer.body).toMatchObject({ code: expected.code, message: expected.message });
      expect(Object.keys((answer.body as { errors?: object }).errors ?? {})).toEqual(
        Object.keys(expected.errors ?? {}),
      );
    },
  );
});
