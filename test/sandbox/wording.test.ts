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
const ordinaryMarket = fixture.markets.find((market) => market.type === 'spot')?.name;

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

describe('schema failures the operator words with a named example of their own', () => {
  const limitOrder = { market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '34000' };
  // Each body breaks one rule of the request schema: the answer is the named example, whole.
  it.each([
    ['createLimitOrder', { ...limitOrder, side: 'hold' }, 'sideInvalid'],
    ['createLimitOrder', { ...limitOrder, amount: 'ten' }, 'amountNotNumeric'],
    ['createLimitOrder', { ...limitOrder, price: '1e3' }, 'priceNotNumeric'],
    ['createLimitOrder', { ...limitOrder, market: '' }, 'marketEmpty'],
    ['createLimitOrder', { ...limitOrder, market: 'btc-usdt' }, 'marketNotAvailable'],
    ['createLimitOrder', { ...limitOrder, clientOrderId: 'a b' }, 'clientOrderIdInvalid'],
    ['createLimitOrder', { ...limitOrder, clientOrderId: 7 }, 'clientOrderIdNotString'],
    ['createLimitOrder', {}, 'missingFields'],
    ['cancelOrder', { market: 'BTC_USDT', orderId: '4180284841' }, 'orderIdNotInteger'],
    ['cancelOrder', { market: 'btc_usdt', orderId: 1 }, 'invalidMarket'],
    ['listActiveOrders', { limit: 101, offset: 10001 }, 'pageTooLarge'],
    ['listExecutedDeals', { limit: '5', offset: '0' }, 'pageNotInteger'],
    ['getTradeBalance', { ticker: 5 }, 'tickerNotString'],
    ['cancelAllOrders', { type: 'spot' }, 'typeNotArray'],
    ['cancelOrdersInBulk', {}, 'ordersMissing'],
    ['createBulkLimitOrders', { orders: 'all of them' }, 'ordersNotArray'],
    ['listOrderDeals', {}, 'orderIdMissing'],
  ] as const)('%s %j is its example %s', async (operationId, fields, example) => {
    const reply = await call(suite.sandbox.url, partner, operationId, { fields });
    const expected = documentOf(operationId).example(example);
    expect(answer(reply)).toEqual({ status: expected.status, body: expected.value });
  });

  it('a part of the fields an example names gets that example with those fields only', async () => {
    const reply = await call(suite.sandbox.url, partner, 'createLimitOrder', {
      fields: { market: 'BTC_USDT', side: 'buy' },
    });
    const { status, value } = documentOf('createLimitOrder').example('missingFields');
    const { amount, price } = (value as { errors: Record<string, string[]> }).errors;
    expect(answer(reply)).toEqual({ status, body: { ...(value as object), errors: { amount, price } } });
  });

  it('failures of different examples take the x-validation-example, each field worded by its own', async () => {
    const reply = await call(suite.sandbox.url, partner, 'createLimitOrder', {
      fields: { ...limitOrder, side: 'hold', amount: 'ten' },
    });
    const operation = documentOf('createLimitOrder');
    const errorsOf = (name: string) => (operation.example(name).value as { errors: object }).errors;
    const { status, value } = operation.example(operation.validationExampleName());
    expect(answer(reply)).toEqual({
      status,
      body: { ...(value as object), errors: { ...errorsOf('sideInvalid'), ...errorsOf('amountNotNumeric') } },
    });
  });
});
