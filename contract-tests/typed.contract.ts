// The data of a successful call has the generated type of its operation (checked by tsc through
// expectTypeOf) and, at run time, the schema that type was generated from (ajv). One typed call
// per operation, keyed by operationId: a new operation without one fails typecheck and coverage.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { operations } from '../generated/operations.ts';
import type { paths as PrivatePaths } from '../generated/private-v4.ts';
import type { paths as PublicPaths } from '../generated/public-v4.ts';
import type { CallerBody } from '../src/client.ts';
import type { CallResult } from '../src/engine.ts';
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
  createLimitOrder: operations.createLimitOrder.path,
  createMarketOrder: operations.createMarketOrder.path,
  createStockMarketOrder: operations.createStockMarketOrder.path,
  createStopLimitOrder: operations.createStopLimitOrder.path,
  createStopMarketOrder: operations.createStopMarketOrder.path,
  createBulkLimitOrders: operations.createBulkLimitOrders.path,
  modifyOrder: operations.modifyOrder.path,
  cancelOrder: operations.cancelOrder.path,
  cancelOrdersInBulk: operations.cancelOrdersInBulk.path,
  listActiveOrders: operations.listActiveOrders.path,
  getTradeBalance: operations.getTradeBalance.path,
  listExecutedDeals: operations.listExecutedDeals.path,
  listOrderDeals: operations.listOrderDeals.path,
  listOrderHistory: operations.listOrderHistory.path,
  setKillSwitch: operations.setKillSwitch.path,
  getKillSwitchStatus: operations.getKillSwitchStatus.path,
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
  createLimitOrder: async (clients) => {
    const result = await clients.private.POST(pathsById.createLimitOrder, { body: body('createLimitOrder') });
    expectTypeOf(result.data).toEqualTypeOf<PrivateBody<'/api/v4/order/new', 200> | undefined>();
    return result;
  },
  createMarketOrder: async (clients) => {
    const result = await clients.private.POST(pathsById.createMarketOrder, {
      body: body('createMarketOrder'),
    });
    expectTypeOf(result.data).toEqualTypeOf<PrivateBody<'/api/v4/order/market', 200> | undefined>();
    return result;
  },
  createStockMarketOrder: async (clients) => {
    const result = await clients.private.POST(pathsById.createStockMarketOrder, {
      body: body('createStockMarketOrder'),
    });
    expectTypeOf(result.data).toEqualTypeOf<PrivateBody<'/api/v4/order/stock_market', 200> | undefined>();
    return result;
  },
  createStopLimitOrder: async (clients) => {
    const result = await clients.private.POST(pathsById.createStopLimitOrder, {
      body: body('createStopLimitOrder'),
    });
    expectTypeOf(result.data).toEqualTypeOf<PrivateBody<'/api/v4/order/stop_limit', 200> | undefined>();
    return result;
  },
  createStopMarketOrder: async (clients) => {
    const result = await clients.private.POST(pathsById.createStopMarketOrder, {
      body: body('createStopMarketOrder'),
    });
    expectTypeOf(result.data).toEqualTypeOf<PrivateBody<'/api/v4/order/stop_market', 200> | undefined>();
    return result;
  },
  createBulkLimitOrders: async (clients) => {
    const result = await clients.private.POST(pathsById.createBulkLimitOrders, {
      body: body('createBulkLimitOrders'),
    });
    expectTypeOf(result.data).toEqualTypeOf<PrivateBody<'/api/v4/order/bulk', 200> | undefined>();
    return result;
  },
  modifyOrder: async (clients) => {
    const result = await clients.private.POST(pathsById.modifyOrder, { body: body('modifyOrder') });
    expectTypeOf(result.data).toEqualTypeOf<PrivateBody<'/api/v4/order/modify', 200> | undefined>();
    return result;
  },
  cancelOrder: async (clients) => {
    const result = await clients.private.POST(pathsById.cancelOrder, { body: body('cancelOrder') });
    expectTypeOf(result.data).toEqualTypeOf<PrivateBody<'/api/v4/order/cancel', 200> | undefined>();
    return result;
  },
  cancelOrdersInBulk: async (clients) => {
    const result = await clients.private.POST(pathsById.cancelOrdersInBulk, {
      body: body('cancelOrdersInBulk'),
    });
    expectTypeOf(result.data).toEqualTypeOf<PrivateBody<'/api/v4/order/cancel/bulk', 200> | undefined>();
    return result;
  },
  listActiveOrders: async (clients) => {
    const result = await clients.private.POST(pathsById.listActiveOrders, { body: body('listActiveOrders') });
    expectTypeOf(result.data).toEqualTypeOf<PrivateBody<'/api/v4/orders', 200> | undefined>();
    return result;
  },
  getTradeBalance: async (clients) => {
    const result = await clients.private.POST(pathsById.getTradeBalance, { body: body('getTradeBalance') });
    expectTypeOf(result.data).toEqualTypeOf<PrivateBody<'/api/v4/trade-account/balance', 200> | undefined>();
    return result;
  },
  listExecutedDeals: async (clients) => {
    const result = await clients.private.POST(pathsById.listExecutedDeals, {
      body: body('listExecutedDeals'),
    });
    expectTypeOf(result.data).toEqualTypeOf<
      PrivateBody<'/api/v4/trade-account/executed-history', 200> | undefined
    >();
    return result;
  },
  listOrderDeals: async (clients) => {
    const result = await clients.private.POST(pathsById.listOrderDeals, { body: body('listOrderDeals') });
    expectTypeOf(result.data).toEqualTypeOf<PrivateBody<'/api/v4/trade-account/order', 200> | undefined>();
    return result;
  },
  listOrderHistory: async (clients) => {
    const result = await clients.private.POST(pathsById.listOrderHistory, { body: body('listOrderHistory') });
    expectTypeOf(result.data).toEqualTypeOf<
      PrivateBody<'/api/v4/trade-account/order/history', 200> | undefined
    >();
    return result;
  },
  setKillSwitch: async (clients) => {
    const result = await clients.private.POST(pathsById.setKillSwitch, { body: body('setKillSwitch') });
    expectTypeOf(result.data).toEqualTypeOf<PrivateBody<'/api/v4/order/kill-switch', 200> | undefined>();
    return result;
  },
  getKillSwitchStatus: async (clients) => {
    const result = await clients.private.POST(pathsById.getKillSwitchStatus, {
      body: body('getKillSwitchStatus'),
    });
    expectTypeOf(result.data).toEqualTypeOf<
      PrivateBody<'/api/v4/order/kill-switch/status', 200> | undefined
    >();
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
