// Each invalid input derived from an operation's request schema (contract-tests/cases.ts) is
// refused twice: by the client before sending (ApiError kind 'invalid-request' naming the field)
// and by the document itself (Prism) when the same body is signed and sent raw past the client's
// check. Each failure a named example says any server gives (`x-caused-by`) is caused for real
// on a real target, and on the mock its body passes the client and the example arrives typed.
// Against a real target, the client's refusals and the document's are what the mock run already
// checked: the client sends nothing, and Prism's validating proxy refuses the raw body itself, from
// the same documents, before the target; the client's are left out there, and the document's run
// on one operation of each wire shape, to show the proxy refusing them.
import { describe, expect, it } from 'vitest';
import { invalidInputs, reproducibleFailures } from './cases.ts';
import {
  checkClientRefuses,
  checkServerRejects,
  checkStatus,
  expectedKind,
  onTarget,
  validBody,
} from './support/checks.ts';
import { callOperation, clientsFor, type Outcome } from './support/clients.ts';
import { context, expectNoProblems, model, tag } from './support/context.ts';
import { factsOf, isWrite, operationIds } from './support/documents.ts';
import { sampledOperations } from './support/wire-shapes.ts';

/**
 * The outcome is the refusal: an ApiError of its status and kind naming each field, or, for a
 * refusal answered with a success status (the v1 candles: `success` false, messages by parameter
 * in `message`), data that says so.
 */
function expectRefusal(outcome: Outcome, status: number, kind: string, fields: readonly string[]) {
  if (status >= 200 && status < 300) {
    expect(outcome.response?.status, JSON.stringify(outcome.error?.body)).toBe(status);
    const data = outcome.data as { success?: unknown; message?: Record<string, unknown> } | undefined;
    expect(data?.success, JSON.stringify(data)).toBe(false);
    for (const field of fields) expect(data?.message?.[field]).toBeDefined();
    return;
  }
  expect(outcome.error?.status, JSON.stringify(outcome.error?.body)).toBe(status);
  expect(outcome.error?.kind).toBe(kind);
  for (const field of fields) expect(outcome.error?.fieldErrors[field]?.length).toBeGreaterThan(0);
}

for (const operationId of operationIds) {
  const invalid = invalidInputs(model, operationId);
  // Of a GET, only a value that stays invalid as text in the URL can reach the document raw.
  const invalidRaw = invalid.filter((input) => input.raw);
  const kind = (status: number) => expectedKind(factsOf(operationId).api, status);
  const reproducible = reproducibleFailures(model, operationId);
  // Raw bodies go to Prism, which refuses them before any upstream; still, on a real target
  // only operations the suite may call get them.
  const mayReachTarget = context.mock || context.allowWrites || !isWrite(operationId);
  // Refusals a real target never sees, answered as in the mock run (see the top of the file).
  const repeatsTheMockRun = !context.mock;
  const rawRepeatsTheMockRun = !context.mock && !sampledOperations(model).has(operationId);

  if (invalid.length + reproducible.length === 0) continue;
  describe(operationId, () => {
    const named = (name: string) => `${operationId} › ${name}`;

    it.skipIf(invalid.length === 0 || repeatsTheMockRun).for(invalid)(
      named('client refuses: $name'),
      async ({ body, field }, { task }) => {
        tag(task, operationId);
        const { problems } = await checkClientRefuses(context, operationId, body, field);
        expectNoProblems(problems);
      },
    );

    it.skipIf(invalidRaw.length === 0 || !mayReachTarget || rawRepeatsTheMockRun).for(invalidRaw)(
      named('document refuses raw: $name'),
      async ({ body, field }, { task }) => {
        tag(task, operationId);
        expectNoProblems(await checkServerRejects(context, operationId, body, field));
      },
    );

    it.skipIf(reproducible.length === 0 || context.mock || !mayReachTarget).for(reproducible)(
      named('failure caused for real arrives as documented: $example'),
      async ({ causes, status, fields }, { task }) => {
        tag(task, operationId, status);
        // The target's own values (a plan it knows) in place of the example's, then the cause.
        const outcome = await callOperation(clientsFor(context), operationId, {
          ...onTarget(context, validBody(model, operationId)),
          ...causes,
        });
        expectRefusal(outcome, status, kind(status), fields);
      },
    );

    it.skipIf(reproducible.length === 0 || !context.mock).for(reproducible)(
      named('the body that causes it is sent and the failure arrives typed: $example'),
      async ({ body, status, example, fields }, { task }) => {
        tag(task, operationId, status);
        const { problems, outcome } = await checkStatus(model, context, operationId, status, example, body);
        expectNoProblems(problems);
        expectRefusal(outcome, status, kind(status), fields);
      },
    );
  });
}
