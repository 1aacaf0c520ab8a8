// The data of a successful call has the generated type of its operation, checked once for every
// path at compile time (tsc, `npm run typecheck`: the types below are never for the client as it
// is) and, at run time, against the schema that type was generated from (ajv), for every
// operation of the documents. No operation is named: a new one is checked as soon as it is
// generated.
import { describe, expect, expectTypeOf, inject, it } from 'vitest';
import type { paths as PrivatePaths } from '../generated/private-v4.ts';
import type { paths as PublicPaths } from '../generated/public-v4.ts';
import type { PrivateClient, PublicClient } from '../src/client.ts';
import { preparedOnTarget, refusedWhileExample, validBody } from './support/checks.ts';
import { callOperation, clientsFor } from './support/clients.ts';
import { context, expectNoProblems, model, tag } from './support/context.ts';
import { isWrite } from './support/documents.ts';
import { operationsOn } from './support/transport-operations.ts';

/** true when A and B are the same type (not merely assignable either way). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

type JsonOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;
type StatusJson<Operation, Prefix extends string> = Operation extends { responses: infer Responses }
  ? {
      [Status in keyof Responses]: `${Status & (number | string)}` extends `${Prefix}${string}`
        ? JsonOf<Responses[Status]>
        : never;
    }[keyof Responses]
  : never;
/** The generated JSON bodies of an operation's 2xx statuses, and of its 4xx, 5xx and default ones. */
type SuccessJson<Operation> = StatusJson<Operation, '2'>;
type FailureJson<Operation> = StatusJson<Operation, '4' | '5' | 'default'>;

// Declared only for its type: the calls below are what the client's methods return for each path.
declare const privateClient: PrivateClient;
declare const publicClient: PublicClient;
type PrivateCall<Path extends keyof PrivatePaths> = Awaited<ReturnType<typeof privateClient.POST<Path>>>;
type PublicCall<Path extends keyof PublicPaths> = Awaited<ReturnType<typeof publicClient.GET<Path>>>;

/** The paths whose `data` or `error.body` is not the generated type: none. */
type PrivateMismatches = {
  // Without the failure's `undefined` only: an operation whose body's shape is not shown has
  // data of type unknown, which NonNullable would turn into {}.
  [Path in keyof PrivatePaths]: Same<
    Exclude<PrivateCall<Path>['data'], undefined>,
    SuccessJson<PrivatePaths[Path]['post']>
  > extends true
    ? Same<
        NonNullable<NonNullable<PrivateCall<Path>['error']>['body']>,
        FailureJson<PrivatePaths[Path]['post']>
      > extends true
      ? never
      : Path
    : Path;
}[keyof PrivatePaths];
type PublicMismatches = {
  [Path in keyof PublicPaths]: Same<
    NonNullable<PublicCall<Path>['data']>,
    SuccessJson<PublicPaths[Path]['get']>
  > extends true
    ? Same<
        NonNullable<NonNullable<PublicCall<Path>['error']>['body']>,
        FailureJson<PublicPaths[Path]['get']>
      > extends true
      ? never
      : Path
    : Path;
}[keyof PublicPaths];

describe('typed data', () => {
  it('every path: data and error.body are the generated types (compile time)', () => {
    expectTypeOf<PrivateMismatches>().toBeNever();
    expectTypeOf<PublicMismatches>().toBeNever();
    // The check can tell types apart: a body of another operation is not the same.
    expectTypeOf<
      Same<
        SuccessJson<PrivatePaths['/api/v4/order/new']['post']>,
        SuccessJson<PrivatePaths['/api/v4/orders']['post']>
      >
    >().toEqualTypeOf<false>();
  });

  // Every operation on the first transport, one of each wire shape on the others.
  for (const operationId of operationsOn(inject('transport'), model)) {
    it.skipIf(!context.mock && !context.allowWrites && isWrite(operationId))(
      `${operationId} › the data has the generated type's schema`,
      async ({ task }) => {
        tag(task, operationId);
        const clients = clientsFor(context);
        const outcome = await callOperation(
          clients,
          operationId,
          await preparedOnTarget(context, model, clients, operationId, validBody(model, operationId)),
        );
        const status = outcome.response?.status ?? 0;
        // A partner-only call may meet a 403 on a real target; that is checked elsewhere.
        if (!context.mock && outcome.error?.status === 403 && model.model(operationId).facts.partnerOnly)
          return;
        // On a target that keeps state, a refusal exactly as an x-refused-while example documents
        // it is the service's answer in the state earlier calls left: there is no data to type.
        const refused = context.mock ? undefined : refusedWhileExample(model, operationId, outcome);
        if (refused) {
          (task as { name: string }).name += ` (refused while ${refused.refusedWhile}: ${refused.name})`;
          task.meta.contract = { operationId, status: refused.status, refusedWhile: refused.refusedWhile };
          return;
        }
        expect(outcome.error?.message).toBeUndefined();
        expectNoProblems(model.model(operationId).validateResponse(status, outcome.data));
      },
    );
  }
});
