// Each invalid input the specification names is refused twice: by the client before sending
// (ApiError kind 'invalid-request' naming the field), and by the document itself (Prism) when
// the same body is signed and sent raw past the client's check. Failures a mock cannot detect
// (a plan that does not exist) are requested as their documented example and must arrive typed,
// with `fieldErrors` naming the field.
import { describe, expect, it } from 'vitest';
import { cases } from './cases.ts';
import {
  checkClientRefuses,
  checkServerRejects,
  checkStatus,
  onTarget,
  validBody,
} from './support/checks.ts';
import { callOperation, clientsFor } from './support/clients.ts';
import { context, expectNoProblems, model, tag } from './support/context.ts';
import { isWrite, operationIds } from './support/documents.ts';

for (const operationId of operationIds) {
  const { invalid, documented } = cases[operationId];
  // Raw bodies go to Prism, which refuses them before any upstream; still, on a real target
  // only operations the suite may call get them.
  const mayReachTarget = context.mock || context.allowWrites || !isWrite(operationId);

  if (invalid.length + documented.length === 0) continue;
  describe(operationId, () => {
    const named = (name: string) => `${operationId} › ${name}`;
    const body = (fields: Record<string, unknown>) => ({ ...validBody(model, operationId), ...fields });

    it.skipIf(invalid.length === 0).for(invalid)(
      named('client refuses: $name'),
      async ({ body: fields, field }, { task }) => {
        tag(task, operationId);
        const { problems } = await checkClientRefuses(context, operationId, body(fields), field);
        expectNoProblems(problems);
      },
    );

    it.skipIf(invalid.length === 0 || !mayReachTarget).for(invalid)(
      named('document refuses raw: $name'),
      async ({ body: fields, field }, { task }) => {
        tag(task, operationId);
        expectNoProblems(await checkServerRejects(context, operationId, body(fields), field));
      },
    );

    const statusOf = (example: string) => {
      const status = [...model.model(operationId).responses].find(([, response]) =>
        response.examples.some((candidate) => candidate.name === example),
      )?.[0];
      expect(status, `no declared response has the example ${example}`).toBeDefined();
      return status as number;
    };

    const reproducible = documented.filter((entry) => entry.reproducible);
    it.skipIf(reproducible.length === 0 || context.mock || !mayReachTarget).for(reproducible)(
      named('failure caused for real arrives as documented: $name'),
      async ({ body: fields, example, field }, { task }) => {
        const status = statusOf(example);
        tag(task, operationId, status);
        const outcome = await callOperation(clientsFor(context), operationId, {
          ...onTarget(context, validBody(model, operationId)),
          ...fields,
        });
        expect(outcome.error?.status, JSON.stringify(outcome.error?.body)).toBe(status);
        expect(outcome.error?.kind).toBe('private-error');
        expect(outcome.error?.fieldErrors[field]?.length).toBeGreaterThan(0);
      },
    );

    it.skipIf(documented.length === 0 || !context.mock).for(documented)(
      named('documented failure arrives typed: $name'),
      async ({ body: fields, example, field }, { task }) => {
        const status = statusOf(example);
        tag(task, operationId, status);
        const { problems, outcome } = await checkStatus(
          model,
          context,
          operationId,
          status as number,
          example,
          body(fields),
        );
        expectNoProblems(problems);
        expect(outcome.error?.kind).toBe('private-error');
        expect(outcome.error?.fieldErrors[field]?.length).toBeGreaterThan(0);
      },
    );
  });
}
