// Per operation: a schema-valid call through the real client is accepted; every declared
// status (and named example) arrives typed; calls without or with malformed signing headers are
// rejected by Prism (on the first transport: support/transport-names.ts). The first transport
// runs every operation, the others one of each wire shape (support/wire-shapes.ts). Against a real
// target only read-only operations are called, unless CONTRACT_ALLOW_WRITES=1, and the
// Prefer-driven checks (mock only) are skipped.
import { describe, inject, it } from 'vitest';
import { signingHeaders } from '../generated/operations.ts';
import {
  checkAccepted,
  checkMalformedRejected,
  checkStatus,
  checkUnsignedRejected,
  preparedOnTarget,
} from './support/checks.ts';
import { clientsFor, mutations } from './support/clients.ts';
import { context, expectNoProblems, model, tag } from './support/context.ts';
import { callerBody, factsOf, isWrite } from './support/documents.ts';
import { transportNames } from './support/transport-names.ts';
import { operationsOn } from './support/transport-operations.ts';
import { sampledOperations } from './support/wire-shapes.ts';

const schemes = Object.keys(signingHeaders) as (keyof typeof signingHeaders)[];

/** Malformed values of each signing header, by scheme: each breaks the header's declared format. */
const malformed: Record<keyof typeof signingHeaders, [string, (value: string) => string][]> = {
  ApiKey: [['holds a space', (value) => `${value} x`]],
  Payload: [
    ['not base64', (value) => `%${value.slice(1)}`],
    ['without its padding', (value) => (value.endsWith('=') ? value.replace(/=+$/, '') : `${value}A`)],
  ],
  Signature: [
    ['uppercase hex', (value) => value.toUpperCase()],
    ['127 characters', (value) => value.slice(1)],
    ['not hex', (value) => `z${value.slice(1)}`],
  ],
};

// Every operation on the first transport, one of each wire shape on the others.
for (const operationId of operationsOn(inject('transport'), model)) {
  const facts = factsOf(operationId);
  const operation = model.model(operationId);
  const callable = context.allowWrites || !isWrite(operationId);
  const signed = facts.auth === 'signed';

  describe(operationId, () => {
    describe.skipIf(!callable)('a schema-valid call through the real client', () => {
      const bodies: { name: string; body: Record<string, unknown> | undefined }[] =
        operation.requestExamples.length > 0
          ? operation.requestExamples.map((example) => ({
              name: example.name,
              body: callerBody(example.value),
            }))
          : [{ name: 'no parameters', body: undefined }];
      // A deployment may refuse a partner-only call to a key without partner access: that
      // answer is declared (403) and still checked against the document.
      const alsoAccept = !context.mock && facts.partnerOnly ? [403] : [];
      // On a target that keeps state, earlier calls may leave the account in a state the service
      // refuses the example in (x-refused-while): that refusal, exactly as documented, is its
      // correct answer, and the test's name and tag say so.
      const refusedWhile = !context.mock;
      it.for(bodies)(`${operationId} › accepted: request example $name`, async ({ body }, { task }) => {
        tag(task, operationId);
        const clients = clientsFor(context);
        const {
          problems,
          outcome,
          refusedWhile: refused,
        } = await checkAccepted(
          model,
          clients,
          operationId,
          await preparedOnTarget(context, model, clients, operationId, body),
          { alsoAccept, context, refusedWhile },
        );
        expectNoProblems(problems);
        if (refused) {
          (task as { name: string }).name += ` (refused while ${refused.refusedWhile}: ${refused.name})`;
          task.meta.contract = { operationId, status: refused.status, refusedWhile: refused.refusedWhile };
        } else if (outcome.response) tag(task, operationId, outcome.response.status);
      });
    });

    describe.skipIf(!context.mock)('every declared status (Prefer, mock only)', () => {
      const statuses = [...operation.responses].flatMap(([status, { examples }]) =>
        examples.length
          ? examples.map((example) => ({ status, example: example.name as string | undefined }))
          : [{ status, example: undefined as string | undefined }],
      );
      it.for(statuses)(
        `${operationId} › status $status example $example`,
        async ({ status, example }, { task }) => {
          tag(task, operationId, status);
          const { problems } = await checkStatus(model, context, operationId, status, example);
          expectNoProblems(problems);
        },
      );
    });

    // The headers are dropped or broken on the tap, before the transport: what is checked is the
    // target's refusal of such a request, which no transport changes. The first transport's
    // project alone runs it (10 calls an operation, a third of the other project's calls).
    // In front of a real target, Prism's validating proxy (`--errors`) refuses such a request
    // itself, from the same documents the mock run checks every operation against; the target
    // never sees it. There one operation of each wire shape shows the proxy refusing them, which
    // is the same for every operation.
    const repeatsTheMockRun = !context.mock && !sampledOperations(model).has(operationId);
    if (signed && inject('transport') === transportNames[0] && !repeatsTheMockRun)
      describe('signing headers', () => {
        const missing = [
          { name: 'all three', drop: schemes },
          ...schemes.map((scheme) => ({ name: scheme, drop: [scheme] })),
        ];
        it.for(missing)(
          `${operationId} › rejected without signing headers: $name`,
          async ({ drop }, { task }) => {
            tag(task, operationId, 401);
            const { problems } = await checkUnsignedRejected(
              model,
              context,
              operationId,
              mutations.drop(...drop),
            );
            expectNoProblems(problems);
          },
        );

        const broken = schemes.flatMap((scheme) =>
          malformed[scheme].map(([how, change]) => ({ scheme, header: signingHeaders[scheme], how, change })),
        );
        it.for(broken)(
          `${operationId} › rejected with $header $how`,
          async ({ scheme, header, change }, { task }) => {
            tag(task, operationId);
            const { problems, outcome } = await checkMalformedRejected(
              model,
              context,
              operationId,
              header,
              mutations.set(scheme, change),
            );
            expectNoProblems(problems);
            if (outcome.response) tag(task, operationId, outcome.response.status);
          },
        );
      });
  });
}
