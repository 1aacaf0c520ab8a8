// The sandbox's state changes, by the name an operation's `x-sandbox-state` gives: no operation
// is named here, so an operation whose state change is one of these costs only its YAML. An
// operation without the extension is answered from its document (its first named success
// example) once the call has passed the pipeline every call goes through. Everything a state
// change answers besides its state (messages, codes, statuses, refusals) is read from the
// operation's named examples and `x-messages`.
import type { CallContext, Transition } from './context.ts';
import type { OperationDocument } from './document.ts';
import { applyCode, createCode, listCodeHistory, listMyCodes } from './handlers/codes.ts';
import {
  cancelConditional,
  cancelOco,
  cancelOto,
  closePositionAtMarket,
  fundingRateHistory,
  listClosedPositions,
  listConditional,
  listFundingCharges,
  listOco,
  listPositionEvents,
  listPositions,
  placeCollateralBulk,
  placeCollateralOrder,
  placeOco,
  readAdlQuantiles,
  readCollateralAccount,
  readCollateralBalance,
  readPositionMode,
  setLeverage,
  setPositionMode,
} from './handlers/collateral.ts';
import { confirmQuote, listConversions, quoteConversion } from './handlers/convert.ts';
import { issueCardToken, issueGatewayToken } from './handlers/gateway.ts';
import { armKillSwitch, readKillSwitches } from './handlers/kill-switch.ts';
import {
  closeFixedEarly,
  closeFlexInPlan,
  investInFlexPlan,
  listFlexEarnings,
  readFixedInvestments,
  readFixedPlans,
  readFlexInvestments,
  readFlexPlans,
  readInterestPayments,
  switchAutoReinvest,
  withdrawFromFlexPlan,
} from './handlers/lending.ts';
import {
  invest,
  listInvestmentHistory,
  readCollateralSummary,
  readMainBalance,
} from './handlers/main-account.ts';
import { fixtureAssets, readMarketFee, tradingMarkets } from './handlers/market-data.ts';
import {
  createMiningAccount,
  createWatcherLink,
  listMiningAccounts,
  listWatcherLinks,
  readPayoutDestination,
  setPayoutDestination,
} from './handlers/mining.ts';
import { cancelAll, cancelBulk, cancelOne, modify, placeBulk, placeOrder } from './handlers/orders.ts';
import {
  collateralMarketNames,
  readCandles,
  readFuturesMarkets,
  readMarketActivity,
  readOrderBook,
  readRecentTrades,
  readServerTime,
  readTickers,
} from './handlers/public-market.ts';
import {
  listClosedOrders,
  listDeals,
  listDealsOfOrder,
  listDelistedOrders,
  listOpenOrders,
  readTradeBalance,
} from './handlers/queries.ts';
import { issueStreamToken } from './handlers/stream-token.ts';
import {
  addSubAccountApiKeyIpAddress,
  createSubAccountApiKey,
  deleteSubAccountApiKey,
  editSubAccountApiKey,
  listSubAccountApiKeyIpAddresses,
  listSubAccountApiKeys,
  removeSubAccountApiKeyIpAddress,
  resetSubAccountApiKey,
} from './handlers/sub-account-keys.ts';
import {
  blockSubAccount,
  confirmSubAccountWithdrawal,
  createSubAccount,
  deleteSubAccount,
  editSubAccount,
  issueKycLink,
  listSubAccounts,
  listSubAccountTransfers,
  listUnconfirmedWithdrawals,
  moveToSubAccount,
  readSubAccountBalances,
  unblockSubAccount,
} from './handlers/sub-accounts.ts';
import {
  listWalletHistory,
  moveBetweenBalances,
  newDepositAddress,
  readAssetFees,
  readDepositAddress,
  readTransferFees,
  withdrawFeeIncluded,
  withdrawFeeOnTop,
} from './handlers/wallet.ts';

type StateChange = (
  context: CallContext,
  body: never,
  eachAs: string | undefined,
) => ReturnType<Transition<never>['run']>;

/**
 * A batch's state change: each order of the batch follows the rules, and takes the refusals, of
 * the operation x-sandbox-state's `eachAs` names.
 */
function batch(
  name: string,
  place: (context: CallContext, body: never, each: OperationDocument) => ReturnType<StateChange>,
): StateChange {
  return (context, body, eachAs) => {
    if (!eachAs) throw new Error(`${context.operation.id}: ${name} needs x-sandbox-state's eachAs`);
    return place(context, body, context.operation.documents.operation(eachAs));
  };
}

const stateChanges: Readonly<Record<string, StateChange>> = {
  tradingMarkets,
  fixtureAssets,
  readOrderBook,
  readRecentTrades,
  readTickers,
  readCandles,
  readMarketActivity,
  readServerTime,
  collateralMarketNames,
  readFuturesMarkets,
  readMainBalance,
  listInvestmentHistory,
  invest,
  readFixedPlans,
  closeFixedEarly,
  readFixedInvestments,
  readInterestPayments,
  readFlexPlans,
  readFlexInvestments,
  listFlexEarnings,
  investInFlexPlan,
  withdrawFromFlexPlan,
  closeFlexInPlan,
  switchAutoReinvest,
  readCollateralSummary,
  placeOrder,
  placeBulk: batch('placeBulk', placeBulk),
  modify,
  cancelOne,
  cancelBulk,
  cancelAll,
  listOpenOrders,
  readTradeBalance,
  listDeals,
  listDealsOfOrder,
  listClosedOrders,
  listDelistedOrders,
  readMarketFee,
  armKillSwitch,
  readKillSwitches,
  quoteConversion,
  confirmQuote,
  listConversions,
  placeCollateralOrder,
  placeCollateralBulk: batch('placeCollateralBulk', placeCollateralBulk),
  placeOco,
  listOco,
  listConditional,
  cancelOco,
  cancelOto,
  cancelConditional,
  listPositions,
  closePositionAtMarket,
  listPositionEvents,
  listClosedPositions,
  readCollateralBalance,
  readCollateralAccount,
  readAdlQuantiles,
  setLeverage,
  readPositionMode,
  setPositionMode,
  listFundingCharges,
  fundingRateHistory,
  readDepositAddress,
  newDepositAddress,
  withdrawFeeIncluded,
  withdrawFeeOnTop,
  moveBetweenBalances,
  listWalletHistory,
  readTransferFees,
  readAssetFees,
  createCode,
  applyCode,
  listMyCodes,
  listCodeHistory,
  createSubAccount,
  editSubAccount,
  deleteSubAccount,
  listSubAccounts,
  blockSubAccount,
  unblockSubAccount,
  readSubAccountBalances,
  moveToSubAccount,
  listSubAccountTransfers,
  issueKycLink,
  listUnconfirmedWithdrawals,
  confirmSubAccountWithdrawal,
  createSubAccountApiKey,
  editSubAccountApiKey,
  deleteSubAccountApiKey,
  resetSubAccountApiKey,
  listSubAccountApiKeys,
  listSubAccountApiKeyIpAddresses,
  addSubAccountApiKeyIpAddress,
  removeSubAccountApiKeyIpAddress,
  issueStreamToken,
  issueGatewayToken,
  issueCardToken,
  createMiningAccount,
  listMiningAccounts,
  setPayoutDestination,
  readPayoutDestination,
  createWatcherLink,
  listWatcherLinks,
};

/** The names of the state changes the sandbox has, for the check that each is named and used. */
export const stateChangeNames: readonly string[] = Object.keys(stateChanges);

/** The state change `operation`'s document names, or undefined when it names none. */
export function transitionOf(operation: OperationDocument): Transition<never> | undefined {
  const named = operation.stateChange();
  if (!named) return undefined;
  const change = stateChanges[named.change];
  if (!change) throw new Error(`${operation.id}: x-sandbox-state names no state change ${named.change}`);
  return { run: (context, body) => change(context, body, named.eachAs) };
}
