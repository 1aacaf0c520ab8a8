// Every error example the document names for invest is an answer the sandbox really gives: each
// recipe (a body and key worked out from the default fixture) is sent signed, and the answer
// must be the example, status and body. Only notEnoughBalance carries the real figures.
import { describe, expect, it } from 'vitest';
import { at } from '../../model/json.ts';
import { documentModel } from '../../model/model.ts';
import { fillTemplate } from '../../sandbox/document.ts';
import { exampleRecipes } from '../../sandbox/example-recipes.ts';
import { call, defaultFixture, documentOf, strictSandbox } from './helpers.ts';

/** Named error examples of invest, by name: status and value. */
const documented = new Map<string, { status: number; value: unknown }>();
for (const status of [400, 422]) {
  for (const example of documentModel().operation('createFixedInvestment').responses.get(status)?.examples ??
    []) {
    documented.set(example.name, { status, value: example.value });
  }
}

const recipes = exampleRecipes(defaultFixture());
const suite = strictSandbox();

describe('invest: every documented refusal', () => {
  it('the default fixture has a recipe for each of the 400 and 422 examples', () => {
    expect(documented.size).toBe(15);
    expect(recipes.map((recipe) => recipe.example).sort()).toEqual([...documented.keys()].sort());
  });

  it.each(recipes.map((recipe) => [recipe.example, recipe] as const))('%s', async (name, recipe) => {
    const expected = documented.get(name);
    const reply = await call(suite.sandbox.url, recipe.key, 'createFixedInvestment', {
      fields: recipe.fields,
    });
    expect(reply.status).toBe(expected?.status);
    if (name !== 'notEnoughBalance') {
      expect(reply.body).toEqual(expected?.value);
      return;
    }
    const balance = defaultFixture().accounts.find((account) => account.id === recipe.key.account)
      ?.mainBalances?.USDT;
    expect(reply.body).toMatchObject({
      code: at(expected?.value, 'code'),
      message: at(expected?.value, 'message'),
    });
    expect(reply.body.errors.amount).toEqual([
      fillTemplate(documentOf('createFixedInvestment').message('notEnoughBalance'), {
        available: String(balance),
        amount: String(recipe.fields.amount),
      }),
    ]);
  });

  it('an accepted invest debits the balance and shrinks what the plan has left', async () => {
    const before = suite.sandbox.state.snapshot();
    const limited = defaultFixture().plans.find((plan) => plan.available !== undefined);
    expect(limited?.available).toBe('50');
    const partner = recipes[0]?.key;
    if (!partner || !limited) throw new Error('fixture changed');
    const ok = await call(suite.sandbox.url, partner, 'createFixedInvestment', {
      fields: { planId: limited.id, amount: '45' },
    });
    expect(ok.status).toBe(201);
    const again = await call(suite.sandbox.url, partner, 'createFixedInvestment', {
      fields: { planId: limited.id, amount: '10' },
    });
    expect(again.body).toEqual(documented.get('amountExceedsPlan')?.value);
    const after = suite.sandbox.state.snapshot();
    const usdt = (snapshot: typeof before) =>
      snapshot.accounts.find((account) => account.id === partner.account)?.mainBalances.USDT;
    expect(usdt(after)).not.toBe(usdt(before));
  });

  it('an integer nonce is taken for invest too (the operator CLI sends one)', async () => {
    const partner = recipes[0]?.key;
    const plan = defaultFixture().plans[0];
    if (!partner || !plan) throw new Error('fixture changed');
    const reply = await call(suite.sandbox.url, partner, 'createFixedInvestment', {
      fields: { planId: plan.id, amount: plan.minAmount, nonce: Date.now() * 1000 + 999_999 },
    });
    expect(reply.status).toBe(201);
  });
});
