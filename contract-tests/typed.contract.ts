// The data of a successful call has the generated type of its operation (checked by tsc through
// expectTypeOf) and, at run time, the schema that type was generated from (ajv). One typed call
// per operation, keyed by operationId: a new operation without one fails typecheck and coverage.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { operations } from '../generated/operations.ts';
import type { paths as PrivatePaths } from '../generated/private-v4.ts';
import type { paths as PublicPaths } from '../generated/public-v4.ts';
import type { CallerBody, CallResult } from '../src/call-types.ts';
import { onTarget, validBody } from './support/checks.ts';
import { type Clients, clientsFor } from './support/clients.ts';
import { context, expectNoProblems, model, tag } from './support/context.ts';
import { isWrite, type OperationId, operationIds } from './support/documents.ts';

/** The generated JSON body of one documented status of an operation (its schemas are inline, by path). */
type JsonAt<Responses, Status extends keyof Responses> = Responses[Status] extends {
  content: { 'application/json': infer Body };
}
  ? Body
  : never;
type PrivateBody<
  Path extends keyof PrivatePaths,
  Status extends keyof PrivatePaths[Path]['post']['responses'],
> = JsonAt<PrivatePaths[Path]['post']['responses'], Status>;
const body = <Path extends keyof typeof pathsById>(operationId: Path) =>
  onTarget(context, validBody(model, operationId)) as CallerBody<(typeof pathsById)[Path]>;
const pathsById = {
  getMainBalance: operations.getMainBalance.path,
  listFlexInvestmentHistory: operations.listFlexInvestmentHistory.path,
  createFixedInvestment: operations.createFixedInvestment.path,
  getCollateralBalanceSummary: operations.getCollateralBalanceSummary.path,
  cancelAllOrders: operations.cancelAllOrders.path,
} as const;

const typedCalls: Record<OperationId, (clients: Clients) => Promise<CallResult<unknown, unknown>>> = {
  pingApi: async (clients) => {
    const result = await clients.public.GET(operations.pingApi.path);
    expectTypeOf(result.data).toEqualTypeOf<
      JsonAt<PublicPaths['/api/v4/public/ping']['get']['responses'], 200> | undefined
    >();
    return result;
  },
  getMainBalance: async (clients) => {
    const result = await clients.private.POST(pathsById.getMainBalance, { body: body('getMainBalance') });
    expectTypeOf(result.data).toEqualTypeOf<PrivateBody<'/api/v4/main-account/balance', 200> | undefined>();
    return result;
  },
  listFlexInvestmentHistory: async (clients) => {
    const result = await clients.private.POST(pathsById.listFlexInvestmentHistory, {
      body: body('listFlexInvestmentHistory'),
    });
    expectTypeOf(result.data).toEqualTypeOf<
      PrivateBody<'/api/v4/main-account/smart-flex/investments/history', 200> | undefined
    >();
    return result;
  },
  createFixedInvestment: async (clients) => {
    const result = await clients.private.POST(pathsById.createFixedInvestment, {
      body: body('createFixedInvestment'),
    });
    expectTypeOf(result.data).toEqualTypeOf<
      PrivateBody<'/api/v4/main-account/smart/investment', 201> | undefined
    >();
    return result;
  },
  getCollateralBalanceSummary: async (clients) => {
    const result = await clients.private.POST(pathsById.getCollateralBalanceSummary, {
      body: body('getCollateralBalanceSummary'),
    });
    expectTypeOf(result.data).toEqualTypeOf<
      PrivateBody<'/api/v4/collateral-account/balance-summary', 200> | undefined
    >();
    return result;
  },
  cancelAllOrders: async (clients) => {
    const result = await clients.private.POST(pathsById.cancelAllOrders, { body: body('cancelAllOrders') });
    expectTypeOf(result.data).toEqualTypeOf<PrivateBody<'/api/v4/order/cancel/all', 200> | undefined>();
    return result;
  },
  listMarkets: async (clients) => {
    const result = await clients.public.GET(operations.listMarkets.path);
    expectTypeOf(result.data).toEqualTypeOf<
      JsonAt<PublicPaths['/api/v4/public/markets']['get']['responses'], 200> | undefined
    >();
    return result;
  },
  listAssets: async (clients) => {
    const result = await clients.public.GET(operations.listAssets.path);
    expectTypeOf(result.data).toEqualTypeOf<
      JsonAt<PublicPaths['/api/v4/public/assets']['get']['responses'], 200> | undefined
    >();
    return result;
  },
};

describe('typed data', () => {
  it('every operation has a typed call, and only operations do', () => {
    expect(Object.keys(typedCalls).sort()).toEqual([...operationIds].sort());
  });

  for (const operationId of operationIds) {
    it.skipIf(!context.mock && !context.allowWrites && isWrite(operationId))(
      `${operationId} › the data has the generated type's schema`,
      async ({ task }) => {
        tag(task, operationId);
        const result = await typedCalls[operationId](clientsFor(context));
        const status = result.response?.status ?? 0;
        // A partner-only call may meet a 403 on a real target; that is checked elsewhere.
        if (!context.mock && result.error?.status === 403 && model.model(operationId).facts.partnerOnly)
          return;
        expect(result.error?.message).toBeUndefined();
        expectNoProblems(model.model(operationId).validateResponse(status, result.data));
      },
    );
  }
});
