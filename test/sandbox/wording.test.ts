// The sandbox words the refusals no named example shows with the documents' templates
// (x-validation-messages, an operation's x-messages) and takes the status, code and message of the
// operation's x-validation-example: a template or example changed in the YAML changes the answer.
import { describe, expect, it } from 'vitest';
import { fillTemplate, projectDocuments } from '../../sandbox/document.ts';
import { call, defaultFixture, documentOf, partnerKey, strictSandbox } from './helpers.ts';

const validationTemplate = (keyword: string, type?: string) =>
  projectDocuments().validationTemplate('private-v4', keyword, type);

const fixture = defaultFixture();
const partner = partnerKey(fixture);
const suite = strictSandbox();
const plan = fixture.plans.find((candidate) => candidate.status === 'active');
const ordinaryMarket = fixture.markets.find((market) => !fixture.perpetualMarkets?.includes(market));

/** What the tests compare of a reply. */
const answer = (reply: { status: number; body: unknown }) => ({ status: reply.status, body: reply.body });

/** The answer the operation's x-validation-example gives, with these field errors. */
function validationAnswer(
  operationId: 'listFlexInvestmentHistory' | 'createFixedInvestment' | 'cancelAllOrders',
  errors: Record<string, string[]>,
) {
  const operation = documentOf(operationId);
  const { status, value } = operation.example(operation.validationExampleName());
  return { status, body: { ...(value as object), errors } };
}

describe('wording from the documents', () => {
  it('a required field that is missing gets the required template', async () => {
    if (!plan) throw new Error('the fixture has no active plan');
    const reply = await call(suite.sandbox.url, partner, 'createFixedInvestment', {
      fields: { planId: plan.id },
    });
    const message = fillTemplate(validationTemplate('required'), { field: 'amount', words: 'amount' });
    expect(answer(reply)).toEqual(validationAnswer('createFixedInvestment', { amount: [message] }));
  });

  it('a field of the wrong type gets the template of its type', async () => {
    const reply = await call(suite.sandbox.url, partner, 'listFlexInvestmentHistory', {
      fields: { limit: '10' },
    });
    const message = fillTemplate(validationTemplate('type', 'integer'), { field: 'limit', words: 'limit' });
    expect(answer(reply)).toEqual(validationAnswer('listFlexInvestmentHistory', { limit: [message] }));
  });

  it('a negative dateTo is the invalidDateTo example', async () => {
    const negative = await call(suite.sandbox.url, partner, 'listFlexInvestmentHistory', {
      fields: { dateTo: -5 },
    });
    const example = documentOf('listFlexInvestmentHistory').example('invalidDateTo');
    expect(answer(negative)).toEqual({ status: example.status, body: example.value });
  });

  it('positionSide on a market that is not perpetual gets the cancel-all wording', async () => {
    if (!ordinaryMarket) throw new Error('the fixture has no ordinary market');
    const reply = await call(suite.sandbox.url, partner, 'cancelAllOrders', {
      fields: { market: ordinaryMarket, positionSide: 'long' },
    });
    expect(answer(reply)).toEqual(
      validationAnswer('cancelAllOrders', {
        positionSide: [documentOf('cancelAllOrders').message('positionSideNotPerpetual')],
      }),
    );
  });
});
