// Which call makes the sandbox answer each named error example of the documents, worked out
// from a fixture's state: the contract suite sends each one through its sandbox target, and the
// sandbox tests check the answer is the example. An example the state cannot produce has no
// recipe (and the suite says which).
import type { OperationId } from '../generated/operations.ts';
import { compare, multiply, add as sum } from './decimal.ts';
import type { Fixture, FixtureKey, FixturePlan } from './fixture.ts';

export interface Recipe {
  operationId: OperationId;
  /** The named example the answer is. */
  example: string;
  /** Body fields beside request and nonce. */
  fields: Record<string, unknown>;
  /** The key to sign with. */
  key: FixtureKey;
}

const unknownPlan = '00000000-0000-4000-8000-000000000000';

/** The recipes the fixture allows, for its keys with partner access. */
export function exampleRecipes(fixture: Fixture): Recipe[] {
  const partnerKeys = fixture.keys.filter((key) => key.partner === true && key.enabled !== false);
  const key = partnerKeys.find((candidate) => candidate.multipleInvestments !== false);
  if (!key) return [];
  const account = fixture.accounts.find((candidate) => candidate.id === key.account);
  const balance = (ticker: string) => account?.mainBalances?.[ticker] ?? '0';
  const recipes: Recipe[] = [];
  const add = (example: string, fields: Record<string, unknown>, signer: FixtureKey = key) =>
    recipes.push({ operationId: 'createFixedInvestment', example, fields, key: signer });
  const open = (plan: FixturePlan) =>
    plan.status === 'active' && !plan.specialOffer && plan.decimals === undefined;
  const plain = fixture.plans.find(
    (plan) =>
      open(plan) &&
      plan.available === undefined &&
      plan.interestFunds === undefined &&
      compare(balance(plan.currency), plan.minAmount) >= 0,
  );
  add('unknownPlan', { planId: unknownPlan, amount: '10' });
  const byStatus: [FixturePlan['status'], string][] = [
    ['paused', 'planPaused'],
    ['inactive', 'planInactive'],
    ['disabled', 'planDisabled'],
    ['no-coins-left', 'noCoinsLeft'],
  ];
  for (const [status, example] of byStatus) {
    const plan = fixture.plans.find((candidate) => candidate.status === status);
    if (plan) add(example, { planId: plan.id, amount: plan.minAmount });
  }
  const special = fixture.plans.find((plan) => plan.status === 'active' && plan.specialOffer);
  if (special) add('specialOffer', { planId: special.id, amount: special.minAmount });
  const precise = fixture.plans.find((plan) => plan.status === 'active' && plan.decimals !== undefined);
  if (precise?.decimals !== undefined) {
    add('tooManyDecimals', {
      planId: precise.id,
      amount: `${precise.minAmount.split('.')[0]}.${'1'.repeat(precise.decimals + 1)}`,
    });
  }
  const limited = fixture.plans.find((plan) => open(plan) && plan.available !== undefined);
  if (limited?.available !== undefined) {
    add('amountExceedsPlan', { planId: limited.id, amount: `${limited.available}1` });
  }
  const funded = fixture.plans.find((plan) => open(plan) && plan.interestFunds !== undefined);
  if (funded?.interestFunds !== undefined && funded.interestRate !== undefined) {
    // The smallest amount the plan takes whose interest is more than the plan can pay.
    let amount = funded.minAmount;
    while (compare(multiply(amount, funded.interestRate), funded.interestFunds) <= 0) {
      amount = multiply(amount, '2');
    }
    if (compare(amount, funded.maxAmount) <= 0 && compare(amount, balance(funded.currency)) <= 0) {
      add('notEnoughForInterest', { planId: funded.id, amount });
    }
  }
  if (plain) {
    add('amountTooSmall', { planId: plain.id, amount: '0.0000001' });
    if (compare(plain.minAmount, '1') > 0) add('amountBelowMinimum', { planId: plain.id, amount: '1' });
    add('amountAboveMaximum', { planId: plain.id, amount: `${plain.maxAmount}1` });
    const more = sum(balance(plain.currency), '1');
    if (compare(more, plain.maxAmount) <= 0) add('notEnoughBalance', { planId: plain.id, amount: more });
  }
  // A key that may hold one investment per plan, and already holds one.
  for (const single of partnerKeys.filter((candidate) => candidate.multipleInvestments === false)) {
    const held = fixture.accounts.find((candidate) => candidate.id === single.account)?.history?.[0];
    const plan = fixture.plans.find((candidate) => candidate.id === held?.planId);
    if (plan && open(plan)) {
      add('investmentExists', { planId: plan.id, amount: plan.minAmount }, single);
      break;
    }
  }
  // The amount is a decimal string by the document's schema; a non-number reaches only the
  // sandbox's own validation (a proxy in front refuses it first).
  if (plain) add('amountNotANumber', { planId: plain.id, amount: 'ten' });
  return recipes;
}
