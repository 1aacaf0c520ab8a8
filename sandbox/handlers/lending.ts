// Crypto lending's transitions, fixed and flex: the plans, the investments and their payments
// as lists, and investing, withdrawing and closing on the sandbox's one ledger (sandbox/lending.ts
// has the money rules). Every refusal is the operation's named example for it.
import type { Answer } from '../answer.ts';
import { type CallContext, caller, ok, refuse, refuseWith } from '../context.ts';
import { add, compare, isZero, multiply, normalize, subtract } from '../decimal.ts';
import { fillTemplate } from '../document.ts';
import type { FieldErrors } from '../errors.ts';
import type { FixtureFlexPlan, FixturePlan } from '../fixture.ts';
import {
  actionTypesOf,
  activeFlexInvestment,
  closeFlex,
  endFixedInvestment,
  enumValuesOf,
  investFlex,
  withdrawFlex,
} from '../lending.ts';
import { type AccountState, durationOf, type FlexInvestment, type Investment } from '../state.ts';
import { listInvestmentHistory } from './main-account.ts';

const seconds = (context: CallContext) => Math.floor(context.now / 1000);
const types = (context: CallContext) => actionTypesOf(context.operation.documents);
/** The states of plans and investments as the document writes them (FixedPlanStatus and the rest). */
const fixedPlanStates = (context: CallContext) =>
  enumValuesOf(context.operation.documents, 'FixedPlanStatus', [
    'ACTIVE',
    'NO_COINS_LEFT',
    'INACTIVE',
    'PAUSED',
  ] as const);
const fixedInvestmentStates = (context: CallContext) =>
  enumValuesOf(context.operation.documents, 'FixedInvestmentStatus', ['ACTIVE', 'CLOSED'] as const);
const flexInvestmentStates = (context: CallContext) =>
  enumValuesOf(context.operation.documents, 'FlexInvestmentStatus', ['ACTIVE', 'CLOSED'] as const);

/** A page of `rows` by the body's limit and offset, or the operation's defaults. */
function page<Row>(context: CallContext, rows: Row[], body: { limit?: number; offset?: number }) {
  const limit = body.limit ?? (context.operation.requestDefault('limit') as number);
  const offset = body.offset ?? (context.operation.requestDefault('offset') as number);
  // Bounds the document does not give are not refused: nothing below 0 pages anything.
  const from = Math.max(0, offset);
  return { rows: rows.slice(from, from + Math.max(0, limit)), limit, offset };
}

/**
 * The example `name`, whose `errors` name several fields, with only those of `failing`: each
 * failing field keeps the example's wording. Undefined when nothing fails.
 */
function refuseFields(context: CallContext, name: string, failing: Record<string, boolean>) {
  const worded = (context.operation.example(name).value as { errors?: FieldErrors }).errors ?? {};
  const errors: FieldErrors = {};
  for (const [field, fails] of Object.entries(failing)) {
    const messages = worded[field];
    if (!messages) throw new Error(`${context.operation.id} example ${name} names no ${field}`);
    if (fails) errors[field] = [messages[0] ?? ''];
  }
  return Object.keys(errors).length > 0 ? refuseWith(context, name, errors) : undefined;
}

const unknownTicker = (context: CallContext, ticker: string | undefined) =>
  ticker !== undefined && !context.state.assets.has(ticker);

/** Newest first; rows of the same second in reverse order of recording. */
const newestFirst = <Row>(rows: readonly Row[], time: (row: Row) => number) =>
  rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => time(b.row) - time(a.row) || b.index - a.index)
    .map(({ row }) => row);

// --- fixed ---------------------------------------------------------------------------------

/** A fixed plan's state in the document's words, by its fixture state. */
const fixedStateNames = {
  active: 'ACTIVE',
  'no-coins-left': 'NO_COINS_LEFT',
  inactive: 'INACTIVE',
  disabled: 'INACTIVE',
  paused: 'PAUSED',
} as const satisfies Record<FixturePlan['status'], string>;

function fixedPlanView(context: CallContext, plan: FixturePlan) {
  const room = plan.available === undefined || compare(plan.available, plan.maxAmount) > 0;
  return {
    id: plan.id,
    ticker: plan.currency,
    status: fixedPlanStates(context)[fixedStateNames[plan.status]],
    percent: normalize(multiply(plan.interestRate ?? '0', '100')),
    duration: durationOf(plan),
    // The sandbox pays interest in the invested asset.
    interestTicker: plan.currency,
    interestRatio: '1',
    minInvestment: plan.minAmount,
    maxInvestment: plan.maxAmount,
    maxPossibleInvestment: room ? plan.maxAmount : (plan.available ?? plan.maxAmount),
  };
}

/** The active plans open to the API, of one asset or all. */
export function readFixedPlans(context: CallContext, body: { ticker?: string }): Answer {
  caller(context);
  if (unknownTicker(context, body.ticker)) return refuse(context, 'invalidTicker');
  const plans = [...context.state.plans.values()].filter(
    (plan) =>
      plan.status === 'active' &&
      !plan.specialOffer &&
      (body.ticker === undefined || plan.currency === body.ticker),
  );
  return ok(plans.map((plan) => fixedPlanView(context, plan)));
}

/** Pays back an active fixed investment before its term: the amount and the interest to date. */
export function closeFixedEarly(context: CallContext, body: { id: string }): Answer {
  const { account } = caller(context);
  const investment = account.investments.find((held) => held.id === body.id);
  if (!investment) return refuse(context, 'investmentNotFound');
  if (investment.status === 'closed') return refuse(context, 'investmentAlreadyClosed');
  endFixedInvestment(context.state, account, investment, seconds(context));
  return ok({});
}

function investmentView(context: CallContext, investment: Investment, plan: FixturePlan) {
  const states = fixedInvestmentStates(context);
  return {
    id: investment.id,
    plan: fixedPlanView(context, plan),
    status: investment.status === 'active' ? states.ACTIVE : states.CLOSED,
    created: investment.createdAt,
    updated: investment.updatedAt,
    paymentTime: investment.paymentTime,
    amount: investment.amount,
    interestPaid: investment.interestPaid,
  };
}

interface FixedInvestmentsQuery {
  id?: string;
  ticker?: string;
  status?: number;
  limit?: number;
  offset?: number;
}

export function readFixedInvestments(context: CallContext, body: FixedInvestmentsQuery): Answer {
  const { account } = caller(context);
  const refused = refuseFields(context, 'invalidInvestmentFilter', {
    id: body.id !== undefined && !account.investments.some((held) => held.id === body.id),
    ticker: unknownTicker(context, body.ticker),
  });
  if (refused) return refused;
  const rows = newestFirst(account.investments, (held) => held.createdAt).flatMap((held) => {
    const plan = context.state.plans.get(held.planId);
    const view = plan && investmentView(context, held, plan);
    const matches =
      view &&
      (body.id === undefined || held.id === body.id) &&
      (body.ticker === undefined || held.currency === body.ticker) &&
      (body.status === undefined || view.status === body.status);
    return matches ? [view] : [];
  });
  const { rows: records, limit, offset } = page(context, rows, body);
  return ok({ offset, limit, records });
}

export function readInterestPayments(
  context: CallContext,
  body: { planId?: string; ticker?: string; limit?: number; offset?: number },
): Answer {
  const { account } = caller(context);
  const refused = refuseFields(context, 'invalidPaymentFilter', {
    planId: body.planId !== undefined && !context.state.plans.has(body.planId),
    ticker: unknownTicker(context, body.ticker),
  });
  if (refused) return refused;
  const rows = newestFirst(account.interestPayments, (row) => row.timestamp)
    .filter(
      (row) =>
        (body.planId === undefined || row.planId === body.planId) &&
        (body.ticker === undefined || row.ticker === body.ticker),
    )
    .map((row) => ({ ...row }));
  const { rows: records, limit, offset } = page(context, rows, body);
  return ok({ offset, limit, records });
}

// --- flex ----------------------------------------------------------------------------------

/** A plan the API knows: an inactive one answers as unknown. */
function knownFlexPlan(context: CallContext, id: string): FixtureFlexPlan | undefined {
  const plan = context.state.flexPlans.get(id);
  return plan && plan.status !== 'inactive' ? plan : undefined;
}

const listed = (plan: FixtureFlexPlan) => (plan.status ?? 'active') === 'active' && !plan.private;

export function readFlexPlans(
  context: CallContext,
  body: { ticker?: string; limit?: number; offset?: number },
): Answer {
  caller(context);
  const refused = refuseFields(context, 'invalidFlexPlansQuery', {
    ticker: unknownTicker(context, body.ticker),
  });
  if (refused) return refused;
  const plans = [...context.state.flexPlans.values()].filter(
    (plan) => listed(plan) && (body.ticker === undefined || plan.currency === body.ticker),
  );
  return ok(
    page(context, plans, body).rows.map((plan) => ({
      id: plan.id,
      ticker: plan.currency,
      minInvestment: plan.minAmount,
      maxInvestment: plan.maxAmount,
      maxRate: plan.maxRate,
    })),
  );
}

const flexView = (context: CallContext, held: FlexInvestment) => ({
  id: held.id,
  planId: held.planId,
  currency: held.currency,
  invested: held.invested,
  withAutoReinvest: held.withAutoReinvest,
  status:
    held.status === 'active' ? flexInvestmentStates(context).ACTIVE : flexInvestmentStates(context).CLOSED,
  createdAt: held.createdAt,
  updatedAt: held.updatedAt,
});

interface FlexInvestmentsQuery {
  ticker?: string;
  plan?: string;
  investment?: string;
  investmentStatus?: number;
  limit?: number;
  offset?: number;
}

export function readFlexInvestments(context: CallContext, body: FlexInvestmentsQuery): Answer {
  const { account } = caller(context);
  const refused = refuseFields(context, 'invalidFlexInvestmentsQuery', {
    ticker: unknownTicker(context, body.ticker),
    plan: body.plan !== undefined && !knownFlexPlan(context, body.plan),
    investment:
      body.investment !== undefined && !account.flexInvestments.some((held) => held.id === body.investment),
  });
  if (refused) return refused;
  const rows = newestFirst(account.flexInvestments, (held) => held.createdAt)
    .map((held) => flexView(context, held))
    .filter(
      (view) =>
        (body.ticker === undefined || view.currency === body.ticker) &&
        (body.plan === undefined || view.planId === body.plan) &&
        (body.investment === undefined || view.id === body.investment) &&
        (body.investmentStatus === undefined || view.status === body.investmentStatus),
    );
  const { rows: data, limit, offset } = page(context, rows, body);
  return ok({ data, limit, offset });
}

/** The flex history's earnings only: the daily earnings, whatever action types are asked. */
export function listFlexEarnings(context: CallContext, body: Parameters<typeof listInvestmentHistory>[1]) {
  return listInvestmentHistory(context, { ...body, actionTypes: [types(context).DAILY_EARNING] });
}

/** The refusal of a plan where the account holds no active investment; undefined if it does. */
function heldIn(
  context: CallContext,
  account: AccountState,
  planId: string,
): { refused: Answer } | { investment: FlexInvestment } {
  if (!knownFlexPlan(context, planId)) return { refused: refuse(context, 'invalidPlan') };
  const investment = activeFlexInvestment(account, planId);
  if (investment) return { investment };
  const closed = account.flexInvestments.some((held) => held.planId === planId);
  return { refused: refuse(context, closed ? 'flexInvestmentClosed' : 'flexInvestmentNotFound') };
}

const created = (transactionId: string): Answer => ({
  status: 201,
  body: { data: { transaction_id: transactionId } },
});

/**
 * Checked in the order the operator lists: the plan (unknown or inactive 400, then unavailable,
 * paused, private), the amount (zero, below the minimum, above the maximum, more than the plan
 * has left or than the investment may hold), then the balance.
 */
export function investInFlexPlan(
  context: CallContext,
  body: { plan: string; amount: string; withReinvest?: boolean },
): Answer {
  const { account } = caller(context);
  const plan = knownFlexPlan(context, body.plan);
  if (!plan) return refuse(context, 'invalidPlan');
  if (plan.status === 'unavailable') return refuse(context, 'flexPlanUnavailable');
  if (plan.status === 'paused') return refuse(context, 'flexPlanPaused');
  if (plan.private) return refuse(context, 'flexPlanPrivate');
  if (isZero(body.amount)) return refuse(context, 'flexAmountNotPositive');
  if (compare(body.amount, plan.minAmount) < 0) return refuse(context, 'flexAmountBelowMinimum');
  if (compare(body.amount, plan.maxAmount) > 0) return refuse(context, 'flexAmountAboveMaximum');
  const holding = activeFlexInvestment(account, plan.id)?.invested ?? '0';
  if (
    (plan.available !== undefined && compare(body.amount, plan.available) > 0) ||
    compare(add(holding, body.amount), plan.maxAmount) > 0
  ) {
    return refuse(context, 'flexInvestmentCapExceeded');
  }
  const balance = context.state.mainBalance(account.id, plan.currency);
  if (compare(balance, body.amount) < 0) {
    const message = context.operation.message('flexNotEnoughBalance');
    return refuseWith(context, 'flexNotEnoughBalance', {
      amount: [fillTemplate(message, { available: balance, amount: body.amount })],
    });
  }
  const withReinvest = body.withReinvest ?? (context.operation.requestDefault('withReinvest') as boolean);
  return created(
    investFlex(context.state, account, plan, body.amount, withReinvest, seconds(context), types(context)),
  );
}

export function withdrawFromFlexPlan(context: CallContext, body: { plan: string; amount: string }) {
  const { account } = caller(context);
  const held = heldIn(context, account, body.plan);
  if ('refused' in held) return held.refused;
  const { investment } = held;
  if (isZero(body.amount)) return refuse(context, 'flexWithdrawalNotPositive');
  if (compare(body.amount, investment.invested) > 0) return refuse(context, 'flexWithdrawalExceedsInvested');
  const left = subtract(investment.invested, body.amount);
  const minimum = context.state.flexPlans.get(investment.planId)?.minAmount ?? '0';
  // Withdrawing everything is taken; the investment stays open, holding nothing.
  if (!isZero(left) && compare(left, minimum) < 0) return refuse(context, 'flexAmountLeftBelowMinimum');
  return created(
    withdrawFlex(context.state, account, investment, body.amount, seconds(context), types(context)),
  );
}

export function closeFlexInPlan(context: CallContext, body: { plan: string }): Answer {
  const { account } = caller(context);
  const held = heldIn(context, account, body.plan);
  if ('refused' in held) return held.refused;
  return created(closeFlex(context.state, account, held.investment, seconds(context), types(context)));
}

export function switchAutoReinvest(context: CallContext, body: { plan: string; enabled?: boolean }) {
  const { account } = caller(context);
  const investment = activeFlexInvestment(account, body.plan);
  if (!investment) return refuse(context, 'flexNoInvestmentInPlan');
  investment.withAutoReinvest = body.enabled ?? (context.operation.requestDefault('enabled') as boolean);
  investment.updatedAt = seconds(context);
  return ok({ data: [] });
}
