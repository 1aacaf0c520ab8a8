// Property tests, seeded (CONTRACT_SEED or a fresh seed, printed; fast-check repeats it in any
// failure report): bodies generated from each request schema are all accepted by Prism through
// the real client, and bodies that break one constraint of the generated body rules are all
// refused by the client and, signed and sent raw, by the document (Prism).
import fc from 'fast-check';
import { describe, inject, it } from 'vitest';
import { contractVariables } from '../model/environment.ts';
import { brokenCallerBody, validCallerBody } from './support/arbitraries.ts';
import { checkAccepted, checkClientRefuses, checkServerRejects } from './support/checks.ts';
import { clientsFor } from './support/clients.ts';
import { context, expectNoProblems, model, tag } from './support/context.ts';
import { factsOf, signedFields } from './support/documents.ts';
import { transportNames } from './support/transport-names.ts';
import { operationsOn } from './support/transport-operations.ts';

const seedValue = process.env[contractVariables.seed];
const seed = seedValue ? Number(seedValue) : Date.now() % 2 ** 31;
if (!Number.isSafeInteger(seed))
  throw new Error(`${contractVariables.seed} must be an integer, got ${seedValue}`);
console.log(`property tests: seed ${seed} (rerun with ${contractVariables.seed}=${seed})`);
const numRuns = Number(process.env[contractVariables.runs]) || 12;

// Every operation on the first transport, one of each wire shape on the others.
const withBody = operationsOn(inject('transport'), model).flatMap((operationId) => {
  const facts = factsOf(operationId);
  const schema = model.model(operationId).requestSchema;
  if (!('body' in facts) || !schema) return [];
  // A body of only the signed fields (request, nonce, nonceWindow) gives a caller nothing to break.
  const callerFields = Object.keys(facts.body.properties).filter((field) => !signedFields.has(field));
  return [{ operationId, facts, schema, callerFields }];
});

// Properties send many calls: the mock only, never a real deployment.
describe.skipIf(!context.mock)('properties', () => {
  for (const { operationId, facts, schema, callerFields } of withBody) {
    describe(operationId, () => {
      const valid = validCallerBody(schema);

      it(`${operationId} › generated valid bodies are accepted through the client`, async ({ task }) => {
        tag(task, operationId);
        await fc.assert(
          fc.asyncProperty(valid, async (body) => {
            const { problems } = await checkAccepted(model, clientsFor(context), operationId, body);
            expectNoProblems(problems);
          }),
          { seed, numRuns },
        );
      });

      // The client refuses before any transport is reached, and the raw call goes out through the
      // runtime's own fetch: the same check on every transport, so it runs on the first one.
      it.skipIf(inject('transport') !== transportNames[0])(
        `${operationId} › generated bodies breaking one rule are refused by client and document`,
        async ({ task, skip }) => {
          tag(task, operationId);
          if (callerFields.length === 0) {
            task.meta.skipReason = 'its body has no field beside the signed ones to break';
            skip(task.meta.skipReason);
            return;
          }
          await fc.assert(
            fc.asyncProperty(brokenCallerBody(facts, valid), async ({ body, field }) => {
              const refused = await checkClientRefuses(context, operationId, body, field);
              expectNoProblems(refused.problems);
              expectNoProblems(await checkServerRejects(context, operationId, body, field));
            }),
            { seed, numRuns },
          );
        },
      );
    });
  }
});
