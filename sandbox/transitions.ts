// The sandbox's state changes, by operationId: the one place in sandbox/ that names
// operations. An operation without an entry here is answered from its document (its first
// named success example) once the call has passed the pipeline every call goes through, so a
// stateless operation costs only its YAML. Everything a transition answers besides its state
// (messages, codes, statuses, refusals) is read from the operation's named examples and
// `x-messages`.
import type { OperationId } from '../generated/operations.ts';
import type { BodyOf } from './api-types.ts';
import type { CallContext, Transition } from './context.ts';
import { armKillSwitch, readKillSwitches } from './handlers/kill-switch.ts';
import {
  invest,
  listInvestmentHistory,
  readCollateralSummary,
  readMainBalance,
} from './handlers/main-account.ts';
import { fixtureAssets, tradingMarkets } from './handlers/market-data.ts';
import { cancelAll, cancelBulk, cancelOne, modify, placeBulk, placeOrder } from './handlers/orders.ts';
import {
  listClosedOrders,
  listDeals,
  listDealsOfOrder,
  listOpenOrders,
  readTradeBalance,
} from './handlers/queries.ts';

/** The document of another operation whose rules a transition follows. */
const rulesOf = (context: CallContext, operationId: OperationId) =>
  context.operation.documents.operation(operationId);

export const transitions: { readonly [Op in OperationId]?: Transition<BodyOf<Op>> } = {
  listMarkets: { run: tradingMarkets },
  listAssets: { run: fixtureAssets },
  getMainBalance: { run: readMainBalance },
  listFlexInvestmentHistory: { run: listInvestmentHistory },
  createFixedInvestment: { run: invest },
  getCollateralBalanceSummary: { run: readCollateralSummary },
  createLimitOrder: { run: placeOrder },
  createMarketOrder: { run: placeOrder },
  createStockMarketOrder: { run: placeOrder },
  createStopLimitOrder: { run: placeOrder },
  createStopMarketOrder: { run: placeOrder },
  // Each order of a batch follows the rules, and takes the refusals, of a single limit order.
  createBulkLimitOrders: {
    run: (context, body) => placeBulk(context, body, rulesOf(context, 'createLimitOrder')),
  },
  modifyOrder: { run: modify },
  cancelOrder: { run: cancelOne },
  cancelOrdersInBulk: { run: cancelBulk },
  cancelAllOrders: { run: cancelAll },
  listActiveOrders: { run: listOpenOrders },
  getTradeBalance: { run: readTradeBalance },
  listExecutedDeals: { run: listDeals },
  listOrderDeals: { run: listDealsOfOrder },
  listOrderHistory: { run: listClosedOrders },
  setKillSwitch: { run: armKillSwitch },
  getKillSwitchStatus: { run: readKillSwitches },
};

/** The transition of an operation of any document set (a copy may hold operations with none). */
export function transitionOf(operationId: string): Transition<never> | undefined {
  return (transitions as Readonly<Record<string, Transition<never>>>)[operationId];
}
