// Paths of the operations the client tests call, looked up by operationId in the generated table.
import { operations } from '../../generated/operations.ts';

export const mainBalancePath = operations.getMainBalance.path;
export const investPath = operations.createFixedInvestment.path;
export const historyPath = operations.listFlexInvestmentHistory.path;
export const cancelAllPath = operations.cancelAllOrders.path;
export const summaryPath = operations.getCollateralBalanceSummary.path;
export const pingPath = operations.pingApi.path;
export const orderBookPath = operations.getOrderBook.path;
