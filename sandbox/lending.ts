// Crypto lending on the sandbox's one ledger. What an investment holds is lent out: it sits in
// the lending house, which stands for the borrowers, and the interest they pay comes out of it,
// so the house holds what is invested less the interest paid or reinvested so far. The
// operator does not say how interest accrues; the sandbox's rules (docs/guides/sandbox.md):
// - A fixed investment lends its amount for the plan's term (`durationMinutes`). At the end of
//   the term the amount comes back to the main balance with the term's interest, amount ×
//   `interestRate`, and the investment is closed. Closed before then, it pays back the amount
//   and the interest of the whole minutes elapsed, pro rata (no penalty).
// - A flex investment earns amount × `maxRate` ÷ 365 for each whole day (86400 s) since it
//   opened, on what it holds when the day ends. With auto-reinvest on, the earning is added to
//   the investment; off, it goes to the main balance. Withdrawing or closing pays back what it
//   holds (the principal and the earnings reinvested); a day not complete earns nothing.
// - Every interest is rounded down to the plan's precision: a fixed plan's `decimals` where it
//   has them, else the asset's `currency_precision`.
// Each payment is dated when it fell due on the sandbox's clock, not when it was applied.
import { randomUUID } from 'node:crypto';
import type { HistoryRecord } from './api-types.ts';
import { add, divide, isZero, multiply, normalize, subtract } from './decimal.ts';
import type { SandboxDocuments } from './document.ts';
import type { FixtureFlexPlan, FixturePlan } from './fixture.ts';
import { house, main, transfer } from './ledger.ts';
import {
  type AccountState,
  durationOf,
  type FlexInvestment,
  type Investment,
  type SandboxState,
} from './state.ts';

export const secondsPerDay = 86_400;
const daysPerYear = '365';

/** The action types of the flex history, by the names the document gives them. */
export type ActionTypes = Record<(typeof actionNames)[number], number>;

const actionNames = [
  'INVEST',
  'REINVEST',
  'WITHDRAW_FROM_INVESTMENT',
  'DAILY_EARNING',
  'CLOSE_INVESTMENT',
  'OPEN_INVESTMENT',
] as const;

/**
 * The values of a private document's integer enum by the names its x-enum-varnames give them: the
 * sandbox writes the names, the document says what each is sent as.
 */
export function enumValuesOf<Name extends string>(
  documents: SandboxDocuments,
  component: string,
  names: readonly Name[],
): Record<Name, number> {
  const byName = new Map([...documents.enumNames('private-v4', component)].map(([v, n]) => [n, v]));
  const values = Object.fromEntries(names.map((name) => [name, byName.get(name)]));
  for (const name of names) {
    if (typeof values[name] !== 'number') throw new Error(`${component} in the document names no ${name}`);
  }
  return values as Record<Name, number>;
}

/** The action types as the private document names them (its `ActionType` x-enum-varnames). */
export const actionTypesOf = (documents: SandboxDocuments): ActionTypes =>
  enumValuesOf(documents, 'ActionType', actionNames);

/** How many decimals an amount of the asset has (its `currency_precision`, else 8). */
export function precisionOf(state: SandboxState, ticker: string): number {
  const precision = state.assets.get(ticker)?.currency_precision;
  return typeof precision === 'number' ? precision : 8;
}

const fixedPrecision = (state: SandboxState, plan: FixturePlan) =>
  plan.decimals ?? precisionOf(state, plan.currency);

/** The interest of a fixed investment for `minutes` of its term, rounded down. */
export function fixedInterest(
  state: SandboxState,
  plan: FixturePlan,
  amount: string,
  minutes: number,
): string {
  const duration = durationOf(plan);
  const whole = multiply(amount, plan.interestRate ?? '0');
  const share = multiply(whole, String(Math.min(Math.max(minutes, 0), duration)));
  return divide(share, String(duration), fixedPrecision(state, plan));
}

/** A flex investment's earning for one day, rounded down. */
export function dailyEarning(state: SandboxState, plan: FixtureFlexPlan, invested: string): string {
  return divide(multiply(invested, plan.maxRate), daysPerYear, precisionOf(state, plan.currency));
}

/**
 * Ends a fixed investment at `at` (Unix seconds): the amount and the interest earned to then
 * come back from the lending house, the interest is recorded as paid, and what the plan reserved
 * for interest it did not pay is the plan's again, as is the room the amount took.
 */
export function endFixedInvestment(
  state: SandboxState,
  account: AccountState,
  investment: Investment,
  at: number,
) {
  const plan = state.plans.get(investment.planId);
  const minutes = Math.floor((Math.min(at, investment.paymentTime) - investment.startsAt) / 60);
  const interest = plan ? fixedInterest(state, plan, investment.amount, minutes) : '0';
  state.ledger.post(
    transfer(house('lending'), main(account), investment.currency, add(investment.amount, interest)),
  );
  if (!isZero(interest)) {
    account.interestPayments.push({
      planId: investment.planId,
      investmentId: investment.id,
      amount: interest,
      ticker: investment.currency,
      timestamp: at,
    });
  }
  if (plan?.interestFunds !== undefined) {
    plan.interestFunds = add(plan.interestFunds, subtract(investment.interest, interest));
  }
  if (plan?.available !== undefined) plan.available = add(plan.available, investment.amount);
  investment.interestPaid = add(investment.interestPaid, interest);
  investment.status = 'closed';
  investment.updatedAt = at;
}

function record(
  account: AccountState,
  investment: FlexInvestment,
  amount: string,
  actionType: number,
  createdAt: number,
): string {
  const row: HistoryRecord = {
    createdAt,
    planId: investment.planId,
    investmentId: investment.id,
    currency: investment.currency,
    amount: normalize(amount),
    transaction_id: randomUUID(),
    actionType: actionType as HistoryRecord['actionType'],
  };
  account.history.push(row);
  return row.transaction_id;
}

/** The account's active flex investment in a plan. */
export const activeFlexInvestment = (account: AccountState, planId: string) =>
  account.flexInvestments.find((held) => held.planId === planId && held.status === 'active');

/**
 * Puts `amount` of the main balance into the account's investment in the plan, opening one when
 * it has none active. The caller has checked the plan, the amount and the balance.
 */
export function investFlex(
  state: SandboxState,
  account: AccountState,
  plan: FixtureFlexPlan,
  amount: string,
  withReinvest: boolean,
  now: number,
  types: ActionTypes,
): string {
  state.ledger.post(transfer(main(account), house('lending'), plan.currency, amount));
  if (plan.available !== undefined) plan.available = subtract(plan.available, amount);
  let investment = activeFlexInvestment(account, plan.id);
  if (!investment) {
    investment = {
      id: randomUUID(),
      planId: plan.id,
      currency: plan.currency,
      invested: '0',
      withAutoReinvest: withReinvest,
      status: 'active',
      createdAt: now,
      updatedAt: now,
      earnedThrough: now,
    };
    account.flexInvestments.push(investment);
    record(account, investment, amount, types.OPEN_INVESTMENT, now);
  }
  investment.invested = add(investment.invested, amount);
  investment.updatedAt = now;
  return record(account, investment, amount, types.INVEST, now);
}

/** Takes `amount` out of an active flex investment back to the main balance. */
export function withdrawFlex(
  state: SandboxState,
  account: AccountState,
  investment: FlexInvestment,
  amount: string,
  now: number,
  types: ActionTypes,
): string {
  state.ledger.post(transfer(house('lending'), main(account), investment.currency, amount));
  const plan = state.flexPlans.get(investment.planId);
  if (plan?.available !== undefined) plan.available = add(plan.available, amount);
  investment.invested = subtract(investment.invested, amount);
  investment.updatedAt = now;
  return record(account, investment, amount, types.WITHDRAW_FROM_INVESTMENT, now);
}

/** Closes an active flex investment: everything it holds goes back to the main balance. */
export function closeFlex(
  state: SandboxState,
  account: AccountState,
  investment: FlexInvestment,
  now: number,
  types: ActionTypes,
): string {
  const held = investment.invested;
  state.ledger.post(transfer(house('lending'), main(account), investment.currency, held));
  const plan = state.flexPlans.get(investment.planId);
  if (plan?.available !== undefined) plan.available = add(plan.available, held);
  investment.invested = '0';
  investment.status = 'closed';
  investment.updatedAt = now;
  return record(account, investment, held, types.CLOSE_INVESTMENT, now);
}

/**
 * Applies what the clock has reached at `now` (ms): fixed investments whose term ended are paid
 * back with their interest, and each whole day of every active flex investment earns.
 */
export function settleLending(state: SandboxState, now: number, types: ActionTypes) {
  const seconds = Math.floor(now / 1000);
  for (const account of state.accounts.values()) {
    for (const investment of account.investments) {
      if (investment.status === 'active' && investment.paymentTime <= seconds)
        endFixedInvestment(state, account, investment, investment.paymentTime);
    }
    for (const investment of account.flexInvestments) {
      const plan = state.flexPlans.get(investment.planId);
      if (!plan) continue;
      while (investment.status === 'active' && investment.earnedThrough + secondsPerDay <= seconds) {
        investment.earnedThrough += secondsPerDay;
        const at = investment.earnedThrough;
        const earning = dailyEarning(state, plan, investment.invested);
        if (isZero(earning)) continue;
        record(account, investment, earning, types.DAILY_EARNING, at);
        if (investment.withAutoReinvest) {
          // Borrowed on: the house owes it to the investment, and nothing moves.
          investment.invested = add(investment.invested, earning);
          record(account, investment, earning, types.REINVEST, at);
        } else {
          state.ledger.post(transfer(house('lending'), main(account), investment.currency, earning));
        }
        investment.updatedAt = at;
      }
    }
  }
}
