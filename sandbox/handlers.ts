// What each operation does once the request is authenticated and its body matches the
// document: the business rules, on the sandbox state.
import type { components } from '../generated/private-v4.ts';
import { compare, isZero, parseDecimal } from './decimal.ts';
import { enumNames, requestDefault, responseExample } from './document.ts';
import { documented, type ErrorAnswer, type FieldErrors, validation } from './errors.ts';
import type { FixtureOrder } from './fixture.ts';
import type { SandboxState } from './state.ts';

type Schemas = components['schemas'];

export interface Answer {
  status: number;
  body: unknown;
}

export interface HandlerContext {
  state: SandboxState;
  accountId: string;
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

export function getMainBalance(context: HandlerContext, body: Schemas['MainBalanceRequest']): Answer {
  const account = context.state.account(context.accountId);
  if (body.ticker !== undefined) {
    return ok({ main_balance: account.main.get(body.ticker) ?? '0' });
  }
  const balances: Record<string, Schemas['AssetMainBalance']> = {};
  for (const [ticker, amount] of [...account.main].sort(([a], [b]) => a.localeCompare(b))) {
    if (!isZero(amount)) balances[ticker] = { main_balance: amount };
  }
  return ok(balances);
}

// --- flex investment history ---------------------------------------------------------------

/** The message the document's own example gives for a field, if it gives exactly one. */
function exampleMessage(operationId: 'listFlexInvestmentHistory', example: string, field: string) {
  const errors = (responseExample(operationId, example).value as { errors?: FieldErrors }).errors;
  const messages = errors?.[field];
  return messages?.length === 1 ? messages[0] : undefined;
}

export function listFlexInvestmentHistory(
  context: HandlerContext,
  body: Schemas['FlexInvestmentHistoryRequest'],
): Answer | ErrorAnswer {
  const operationId = 'listFlexInvestmentHistory';
  const account = context.state.account(context.accountId);
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  const limit = body.limit ?? (requestDefault(operationId, 'limit') as number);
  const offset = body.offset ?? (requestDefault(operationId, 'offset') as number);
  if (limit < 1) fail('limit', 'The limit must be at least 1.');
  if (offset < 0) fail('offset', 'The offset must be at least 0.');
  if (body.plan !== undefined && !context.state.plans.has(body.plan)) {
    fail('plan', exampleMessage(operationId, 'invalidPlan', 'plan') ?? 'The selected plan is invalid.');
  }
  if (body.investment !== undefined && !account.history.some((row) => row.investmentId === body.investment)) {
    fail('investment', 'The selected investment is invalid.');
  }
  if (
    body.transaction !== undefined &&
    !account.history.some((row) => row.transaction_id === body.transaction)
  ) {
    fail('transaction', 'The selected transaction is invalid.');
  }
  const invalidDate =
    exampleMessage(operationId, 'invalidDate', 'dateFrom') ?? 'The date from is not a valid date.';
  if (body.dateFrom !== undefined && body.dateFrom < 0) fail('dateFrom', invalidDate);
  if (body.dateTo !== undefined && body.dateTo < 0)
    fail('dateTo', invalidDate.replace('date from', 'date to'));
  if (
    body.dateFrom !== undefined &&
    body.dateTo !== undefined &&
    body.dateFrom >= 0 &&
    body.dateTo >= 0 &&
    body.dateTo < body.dateFrom
  ) {
    fail('dateTo', 'The date to must be a date after or equal to date from.');
  }
  if (Object.keys(errors).length > 0) return validation(operationId, 'invalidPlan', errors);

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
  return ok({ data: rows.slice(offset, offset + limit), limit, offset });
}

// --- invest ----------------------------------------------------------------------------------

export function createFlexInvestment(
  context: HandlerContext,
  body: Schemas['FlexInvestmentRequest'],
): Answer | ErrorAnswer {
  const operationId = 'createFlexInvestment';
  const refuse = (field: string, message: string) =>
    validation(operationId, 'notEnoughBalance', { [field]: [message] });
  const amount = parseDecimal(body.amount);
  if (!amount) return documented(operationId, 'invalidAmount');
  const plan = context.state.plans.get(body.planId);
  if (!plan) return refuse('planId', 'The selected plan id is invalid.');
  if (plan.status !== 'active') return refuse('planId', 'The plan is not active.');
  if (amount.units <= 0n) return refuse('amount', 'The amount must be greater than 0.');
  if (compare(body.amount, plan.minAmount) < 0) {
    return refuse('amount', `The amount must be at least ${plan.minAmount}.`);
  }
  if (compare(body.amount, plan.maxAmount) > 0) {
    return refuse('amount', `The amount may not be greater than ${plan.maxAmount}.`);
  }
  if (compare(context.state.mainBalance(context.accountId, plan.currency), body.amount) < 0) {
    return documented(operationId, 'notEnoughBalance');
  }
  const investment = context.state.invest(
    context.accountId,
    plan,
    body.amount,
    Math.floor(context.now / 1000),
    {
      open: actionType('OPEN_INVESTMENT'),
      invest: actionType('INVEST'),
    },
  );
  return { status: 201, body: { id: investment.id } satisfies Schemas['FlexInvestmentResult'] };
}

// --- collateral balance summary ------------------------------------------------------------

export function getCollateralBalanceSummary(
  context: HandlerContext,
  body: Schemas['CollateralBalanceSummaryRequest'],
): Answer | ErrorAnswer {
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
  body: Schemas['CancelAllOrdersRequest'],
): Answer | ErrorAnswer {
  if (body.market !== undefined && !context.state.markets.has(body.market)) {
    return documented('cancelAllOrders', 'marketNotAvailable');
  }
  const kinds = body.type && body.type.length > 0 ? new Set<string>(body.type) : undefined;
  context.state.cancelOrders(
    context.accountId,
    (order: FixtureOrder) =>
      (body.market === undefined || order.market === body.market) &&
      (kinds === undefined || kinds.has(order.type)),
  );
  return ok([]);
}
