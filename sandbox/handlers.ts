// What each operation does once the request is authenticated and its body matches the
// document: the business rules, on the sandbox state.

import type { Answer } from './answer.ts';
import type { AssetMainBalance, RequestBody, SuccessBody } from './api-types.ts';
import { compare, decimalPlaces, isZero, multiply, parseDecimal } from './decimal.ts';
import {
  enumNames,
  fillTemplate,
  operationMessage,
  requestDefault,
  requestPropertyExtension,
  responseExample,
  validationExampleName,
} from './document.ts';
import { documented, type FieldErrors, validation } from './errors.ts';
import type { FixtureKey, FixtureOrder, FixturePlan } from './fixture.ts';
import type { SandboxState } from './state.ts';

export interface HandlerContext {
  state: SandboxState;
  accountId: string;
  /** The key the call was signed with (what it may do). */
  key: FixtureKey;
  /** Milliseconds since the epoch. */
  now: number;
}

const ok = (body: unknown): Answer => ({ status: 200, body });

/** The action type value of a name the document gives it (x-enum-varnames). */
function actionType(name: string): number {
  for (const [value, varname] of enumNames('private-v4', 'ActionType')) {
    if (varname === name) return value as number;
  }
  throw new Error(`the document names no action type ${name}`);
}

// --- main balance --------------------------------------------------------------------------

export function getMainBalance(
  context: HandlerContext,
  body: RequestBody<'/api/v4/main-account/balance'>,
): Answer {
  const account = context.state.account(context.accountId);
  if (body.ticker !== undefined) {
    return ok({ main_balance: account.main.get(body.ticker) ?? '0' });
  }
  const balances: Record<string, AssetMainBalance> = {};
  for (const [ticker, amount] of [...account.main].sort(([a], [b]) => a.localeCompare(b))) {
    if (!isZero(amount)) balances[ticker] = { main_balance: amount };
  }
  return ok(balances);
}

// --- flex investment history ---------------------------------------------------------------

type ExampleOperation = 'listFlexInvestmentHistory' | 'createFixedInvestment';

/**
 * The one field and message of a documented error example with a single field error, e.g.
 * history's `invalidInvestment`; the document is the source, so its absence is an error.
 */
function exampleError(operationId: ExampleOperation, example: string): [string, string] {
  const errors = (responseExample(operationId, example).value as { errors?: FieldErrors }).errors ?? {};
  const entries = Object.entries(errors);
  const [field, messages] = entries[0] ?? [];
  if (entries.length !== 1 || !field || messages?.length !== 1 || !messages[0]) {
    throw new Error(`${operationId} example ${example} does not name exactly one field error`);
  }
  return [field, messages[0]];
}

/** A documented example's message for its one field. */
const exampleMessage = (operationId: ExampleOperation, example: string) =>
  exampleError(operationId, example)[1];

export function listFlexInvestmentHistory(
  context: HandlerContext,
  body: RequestBody<'/api/v4/main-account/smart-flex/investments/history'>,
): Answer {
  const operationId = 'listFlexInvestmentHistory';
  const account = context.state.account(context.accountId);
  const errors: FieldErrors = {};
  // The answer takes the status, code and message of the example of the first failure.
  let firstExample: string | undefined;
  const fail = (field: string, message: string, example = 'invalidPlan') => {
    firstExample ??= example;
    errors[field] = [...(errors[field] ?? []), message];
  };
  const limit = body.limit ?? (requestDefault(operationId, 'limit') as number);
  const offset = body.offset ?? (requestDefault(operationId, 'offset') as number);
  if (body.plan !== undefined && !context.state.plans.has(body.plan)) {
    fail('plan', exampleMessage(operationId, 'invalidPlan'), 'invalidPlan');
  }
  if (body.investment !== undefined && !account.history.some((row) => row.investmentId === body.investment)) {
    fail('investment', exampleMessage(operationId, 'invalidInvestment'), 'invalidInvestment');
  }
  if (
    body.transaction !== undefined &&
    !account.history.some((row) => row.transaction_id === body.transaction)
  ) {
    fail('transaction', exampleMessage(operationId, 'invalidTransaction'), 'invalidTransaction');
  }
  if (body.dateFrom !== undefined && body.dateFrom < 0) {
    fail('dateFrom', exampleMessage(operationId, 'invalidDate'), 'invalidDate');
  }
  if (body.dateTo !== undefined && body.dateTo < 0) {
    fail('dateTo', exampleMessage(operationId, 'invalidDateTo'), 'invalidDateTo');
  }
  // A dateTo before dateFrom is not refused (the document shows no such failure): no row matches.
  if (firstExample) return validation(operationId, firstExample, errors);

  const actionTypes =
    body.actionTypes && body.actionTypes.length > 0 ? new Set<number>(body.actionTypes) : undefined;
  const rows = account.history
    .map((row, index) => ({ row, index }))
    .filter(
      ({ row }) =>
        (body.plan === undefined || row.planId === body.plan) &&
        (body.investment === undefined || row.investmentId === body.investment) &&
        (body.transaction === undefined || row.transaction_id === body.transaction) &&
        (body.dateFrom === undefined || row.createdAt >= body.dateFrom) &&
        (body.dateTo === undefined || row.createdAt <= body.dateTo) &&
        (actionTypes === undefined || actionTypes.has(row.actionType)),
    )
    // Newest first; rows of the same second in reverse order of recording.
    .sort((a, b) => b.row.createdAt - a.row.createdAt || b.index - a.index)
    .map(({ row }) => ({ ...row }));
  // The document bounds neither limit nor offset, so neither is refused: a limit below 1 pages
  // nothing and a negative offset pages from the first row, and both are echoed as sent.
  const from = Math.max(0, offset);
  return ok({ data: rows.slice(from, from + Math.max(0, limit)), limit, offset });
}

// --- invest ----------------------------------------------------------------------------------

/** The smallest amount the service takes: the `x-minimum-amount` of the request's `amount`. */
function smallestAmount(operationId: 'createFixedInvestment'): string {
  const found = requestPropertyExtension(operationId, 'amount', 'x-minimum-amount');
  if (typeof found !== 'string') throw new Error(`${operationId} amount has no x-minimum-amount`);
  return found;
}

/**
 * `notEnoughBalance`: the example's status, code and field, with the operation's
 * `notEnoughBalance` wording of what is available and what was asked.
 */
function notEnoughBalance(operationId: 'createFixedInvestment', available: string, amount: string): Answer {
  const [field] = exampleError(operationId, 'notEnoughBalance');
  const worded = fillTemplate(operationMessage(operationId, 'notEnoughBalance'), { available, amount });
  return validation(operationId, 'notEnoughBalance', { [field]: [worded] });
}

/** The 400 example of a plan that cannot take investments, by its fixture status. */
const refusedStatus: Record<Exclude<FixturePlan['status'], 'active'>, string> = {
  paused: 'planPaused',
  inactive: 'planInactive',
  disabled: 'planDisabled',
  'no-coins-left': 'noCoinsLeft',
};

/**
 * Each refusal is the document's named example for it, status and body, checked in the order
 * the service validates: the request (400 code 0: unknown plan, a plan disabled, inactive,
 * paused, without coins left or a special offer, an amount with too many decimals, too small
 * or more than the plan has left), then the business rules (422: an investment in the plan
 * already exists for a key that may not hold several, below the minimum, above the maximum,
 * not enough balance, not enough money in the plan for the interest).
 */
export function createFixedInvestment(
  context: HandlerContext,
  body: RequestBody<'/api/v4/main-account/smart/investment'>,
): Answer {
  const operationId = 'createFixedInvestment';
  if (!parseDecimal(body.amount)) return documented(operationId, 'amountNotANumber');
  const plan = context.state.plans.get(body.planId);
  if (!plan) return documented(operationId, 'unknownPlan');
  if (plan.status !== 'active') return documented(operationId, refusedStatus[plan.status]);
  if (plan.specialOffer) return documented(operationId, 'specialOffer');
  if (plan.decimals !== undefined && decimalPlaces(body.amount) > plan.decimals) {
    return documented(operationId, 'tooManyDecimals');
  }
  if (compare(body.amount, smallestAmount(operationId)) < 0) return documented(operationId, 'amountTooSmall');
  if (plan.available !== undefined && compare(body.amount, plan.available) > 0) {
    return documented(operationId, 'amountExceedsPlan');
  }
  const account = context.state.account(context.accountId);
  if (
    context.key.multipleInvestments === false &&
    account.investments.some((held) => held.planId === plan.id)
  ) {
    return documented(operationId, 'investmentExists');
  }
  if (compare(body.amount, plan.minAmount) < 0) return documented(operationId, 'amountBelowMinimum');
  if (compare(body.amount, plan.maxAmount) > 0) return documented(operationId, 'amountAboveMaximum');
  const balance = context.state.mainBalance(context.accountId, plan.currency);
  if (compare(balance, body.amount) < 0) return notEnoughBalance(operationId, balance, body.amount);
  const interest = multiply(body.amount, plan.interestRate ?? '0');
  if (plan.interestFunds !== undefined && compare(interest, plan.interestFunds) > 0) {
    return documented(operationId, 'notEnoughForInterest');
  }
  const investment = context.state.invest(
    context.accountId,
    plan,
    body.amount,
    interest,
    Math.floor(context.now / 1000),
    {
      open: actionType('OPEN_INVESTMENT'),
      invest: actionType('INVEST'),
    },
  );
  return {
    status: 201,
    body: { id: investment.id } satisfies SuccessBody<'/api/v4/main-account/smart/investment'>,
  };
}

// --- collateral balance summary ------------------------------------------------------------

export function getCollateralBalanceSummary(
  context: HandlerContext,
  body: RequestBody<'/api/v4/collateral-account/balance-summary'>,
): Answer {
  if (body.ticker !== undefined && !context.state.assets.has(body.ticker)) {
    return documented('getCollateralBalanceSummary', 'invalidTicker');
  }
  const items = context.state
    .account(context.accountId)
    .collateral.filter((item) => body.ticker === undefined || item.asset === body.ticker);
  return ok(items.map((item) => ({ ...item })));
}

// --- cancel all orders -----------------------------------------------------------------------

export function cancelAllOrders(
  context: HandlerContext,
  body: RequestBody<'/api/v4/order/cancel/all'>,
): Answer {
  if (body.market !== undefined && !context.state.markets.has(body.market)) {
    return documented('cancelAllOrders', 'marketNotAvailable');
  }
  // Observed upstream: positionSide only for perpetual futures markets. The refusal's wording
  // is not published; it takes the validation answer (code 30) with the document's wording.
  if (
    body.positionSide !== undefined &&
    (body.market === undefined || !context.state.perpetualMarkets.has(body.market))
  ) {
    return validation('cancelAllOrders', validationExampleName('cancelAllOrders'), {
      positionSide: [operationMessage('cancelAllOrders', 'positionSideNotPerpetual')],
    });
  }
  const kinds = body.type && body.type.length > 0 ? new Set<string>(body.type) : undefined;
  context.state.cancelOrders(
    context.accountId,
    (order: FixtureOrder) =>
      (body.market === undefined || order.market === body.market) &&
      (kinds === undefined || kinds.has(order.type)) &&
      (body.positionSide === undefined ||
        body.positionSide === 'both' ||
        order.positionSide === body.positionSide),
  );
  return ok([]);
}
