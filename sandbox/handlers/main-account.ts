// The main account's transitions: the main balance, the flex investment history, investing in
// a plan and the collateral balance summary, on the sandbox state.
import type { Answer } from '../answer.ts';
import type { AssetMainBalance } from '../api-types.ts';
import { type CallContext, caller, ok, refuse, refuseWith } from '../context.ts';
import { compare, decimalPlaces, isZero, multiply, parseDecimal } from '../decimal.ts';
import { fillTemplate } from '../document.ts';
import type { FieldErrors } from '../errors.ts';
import type { FixturePlan } from '../fixture.ts';

/** The action type value of a name the document gives it (x-enum-varnames). */
function actionType(context: CallContext, name: string): number {
  const { documents, facts } = context.operation;
  for (const [value, varname] of documents.enumNames(facts.api, 'ActionType')) {
    if (varname === name) return value as number;
  }
  throw new Error(`the document names no action type ${name}`);
}

// --- main balance --------------------------------------------------------------------------

export function readMainBalance(context: CallContext, body: { ticker?: string }): Answer {
  const { account } = caller(context);
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

/**
 * The one field and message of a documented error example with a single field error, e.g.
 * history's `invalidInvestment`; the document is the source, so its absence is an error.
 */
function exampleError(context: CallContext, example: string): [string, string] {
  const errors = (context.operation.example(example).value as { errors?: FieldErrors }).errors ?? {};
  const entries = Object.entries(errors);
  const [field, messages] = entries[0] ?? [];
  if (entries.length !== 1 || !field || messages?.length !== 1 || !messages[0]) {
    throw new Error(`${context.operation.id} example ${example} does not name exactly one field error`);
  }
  return [field, messages[0]];
}

/** A documented example's message for its one field. */
const exampleMessage = (context: CallContext, example: string) => exampleError(context, example)[1];

export interface HistoryQuery {
  plan?: string;
  investment?: string;
  transaction?: string;
  dateFrom?: number;
  dateTo?: number;
  actionTypes?: readonly number[];
  limit?: number;
  offset?: number;
}

export function listInvestmentHistory(context: CallContext, body: HistoryQuery): Answer {
  const { account } = caller(context);
  const errors: FieldErrors = {};
  // The answer takes the status, code and message of the example of the first failure.
  let firstExample: string | undefined;
  const fail = (field: string, message: string, example = 'invalidPlan') => {
    firstExample ??= example;
    errors[field] = [...(errors[field] ?? []), message];
  };
  const limit = body.limit ?? (context.operation.requestDefault('limit') as number);
  const offset = body.offset ?? (context.operation.requestDefault('offset') as number);
  const { plans, flexPlans } = context.state;
  if (body.plan !== undefined && !plans.has(body.plan) && !flexPlans.has(body.plan)) {
    fail('plan', exampleMessage(context, 'invalidPlan'), 'invalidPlan');
  }
  const known = (id: string) =>
    account.history.some((row) => row.investmentId === id) ||
    account.flexInvestments.some((held) => held.id === id);
  if (body.investment !== undefined && !known(body.investment)) {
    fail('investment', exampleMessage(context, 'invalidInvestment'), 'invalidInvestment');
  }
  if (
    body.transaction !== undefined &&
    !account.history.some((row) => row.transaction_id === body.transaction)
  ) {
    fail('transaction', exampleMessage(context, 'invalidTransaction'), 'invalidTransaction');
  }
  if (body.dateFrom !== undefined && body.dateFrom < 0) {
    fail('dateFrom', exampleMessage(context, 'invalidDate'), 'invalidDate');
  }
  if (body.dateTo !== undefined && body.dateTo < 0) {
    fail('dateTo', exampleMessage(context, 'invalidDateTo'), 'invalidDateTo');
  }
  // A dateTo before dateFrom is not refused (the document shows no such failure): no row matches.
  if (firstExample) return refuseWith(context, firstExample, errors);

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
function smallestAmount(context: CallContext): string {
  const found = context.operation.requestPropertyExtension('amount', 'x-minimum-amount');
  if (typeof found !== 'string') throw new Error(`${context.operation.id} amount has no x-minimum-amount`);
  return found;
}

/**
 * `notEnoughBalance`: the example's status, code and field, with the operation's
 * `notEnoughBalance` wording of what is available and what was asked.
 */
function notEnoughBalance(context: CallContext, available: string, amount: string): Answer {
  const [field] = exampleError(context, 'notEnoughBalance');
  const worded = fillTemplate(context.operation.message('notEnoughBalance'), { available, amount });
  return refuseWith(context, 'notEnoughBalance', { [field]: [worded] });
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
export function invest(context: CallContext, body: { planId: string; amount: string }): Answer {
  const { key, account } = caller(context);
  if (!parseDecimal(body.amount)) return refuse(context, 'amountNotANumber');
  const plan = context.state.plans.get(body.planId);
  if (!plan) return refuse(context, 'unknownPlan');
  if (plan.status !== 'active') return refuse(context, refusedStatus[plan.status]);
  if (plan.specialOffer) return refuse(context, 'specialOffer');
  if (plan.decimals !== undefined && decimalPlaces(body.amount) > plan.decimals) {
    return refuse(context, 'tooManyDecimals');
  }
  if (compare(body.amount, smallestAmount(context)) < 0) return refuse(context, 'amountTooSmall');
  if (plan.available !== undefined && compare(body.amount, plan.available) > 0) {
    return refuse(context, 'amountExceedsPlan');
  }
  if (key.multipleInvestments === false && account.investments.some((held) => held.planId === plan.id)) {
    return refuse(context, 'investmentExists');
  }
  if (compare(body.amount, plan.minAmount) < 0) return refuse(context, 'amountBelowMinimum');
  if (compare(body.amount, plan.maxAmount) > 0) return refuse(context, 'amountAboveMaximum');
  const balance = context.state.mainBalance(account.id, plan.currency);
  if (compare(balance, body.amount) < 0) return notEnoughBalance(context, balance, body.amount);
  const interest = multiply(body.amount, plan.interestRate ?? '0');
  if (plan.interestFunds !== undefined && compare(interest, plan.interestFunds) > 0) {
    return refuse(context, 'notEnoughForInterest');
  }
  const investment = context.state.invest(
    account.id,
    plan,
    body.amount,
    interest,
    Math.floor(context.now / 1000),
    {
      open: actionType(context, 'OPEN_INVESTMENT'),
      invest: actionType(context, 'INVEST'),
    },
  );
  return { status: 201, body: { id: investment.id } };
}

// --- collateral balance summary ------------------------------------------------------------

export function readCollateralSummary(context: CallContext, body: { ticker?: string }): Answer {
  const { account } = caller(context);
  if (body.ticker !== undefined && !context.state.assets.has(body.ticker)) {
    return refuse(context, 'invalidTicker');
  }
  const items = account.collateral.filter((item) => body.ticker === undefined || item.asset === body.ticker);
  return ok(items.map((item) => ({ ...item })));
}
