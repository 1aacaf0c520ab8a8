// The per-operation case table: for each operationId of generated/operations.ts, the invalid
// inputs the specification names and the documented examples for failures a mock cannot
// detect (existence, business rules). Valid bodies, statuses and examples come from the
// documents. coverage.contract.ts fails when an operation has no entry here.
import type { OperationId } from './support/documents.ts';

export interface InvalidInput {
  /** What the specification calls this case. */
  name: string;
  /** Caller fields (merged over a valid body). */
  body: Record<string, unknown>;
  /** The field the rejection must name (`actionTypes` also matches `actionTypes.0`). */
  field: string;
}

export interface DocumentedFailure {
  /** What the specification calls this case. */
  name: string;
  body: Record<string, unknown>;
  /** The named example of a declared error response that answers this case. */
  example: string;
  /** The field its `errors` must name. */
  field: string;
  /**
   * The body causes this failure on any server, not only on a mock told which example to
   * answer: against a real target (the sandbox, or a deployment with writes allowed) the suite
   * sends it as it is and expects the example's status and field.
   */
  reproducible?: true;
}

export interface OperationCase {
  invalid: InvalidInput[];
  documented: DocumentedFailure[];
}

const unknownPlan = '00000000-0000-4000-8000-000000000000';

export const cases: Record<OperationId, OperationCase> = {
  pingApi: { invalid: [], documented: [] },
  getMainBalance: {
    invalid: [
      { name: 'ticker not a string', body: { ticker: 5 }, field: 'ticker' },
      { name: 'ticker empty', body: { ticker: '' }, field: 'ticker' },
    ],
    documented: [],
  },
  listFlexInvestmentHistory: {
    invalid: [
      { name: 'plan invalid (not a UUID)', body: { plan: 'not-a-plan' }, field: 'plan' },
      { name: 'plan invalid (not a string)', body: { plan: 7 }, field: 'plan' },
      { name: 'investment invalid', body: { investment: 42 }, field: 'investment' },
      { name: 'transaction invalid', body: { transaction: { id: 'x' } }, field: 'transaction' },
      { name: 'dateFrom not a date', body: { dateFrom: '2023-11-01' }, field: 'dateFrom' },
      { name: 'dateTo not a date', body: { dateTo: 1701388799.5 }, field: 'dateTo' },
      { name: 'actionTypes not an array', body: { actionTypes: 1 }, field: 'actionTypes' },
      { name: 'actionTypes a string', body: { actionTypes: '1,4' }, field: 'actionTypes' },
      { name: 'actionTypes holds 0', body: { actionTypes: [0] }, field: 'actionTypes' },
      { name: 'actionTypes holds 7', body: { actionTypes: [1, 7] }, field: 'actionTypes' },
      { name: 'actionTypes holds a string', body: { actionTypes: ['1'] }, field: 'actionTypes' },
      { name: 'limit not an integer', body: { limit: '50' }, field: 'limit' },
    ],
    documented: [
      {
        name: 'plan does not exist',
        body: { plan: unknownPlan },
        example: 'invalidPlan',
        field: 'plan',
        reproducible: true,
      },
      {
        name: 'investment does not exist',
        body: { investment: 'no-such-investment' },
        example: 'invalidInvestment',
        field: 'investment',
        reproducible: true,
      },
      {
        name: 'transaction does not exist',
        body: { transaction: 'no-such-transaction' },
        example: 'invalidTransaction',
        field: 'transaction',
        reproducible: true,
      },
      { name: 'date invalid', body: { dateFrom: 1 }, example: 'invalidDate', field: 'dateFrom' },
    ],
  },
  createFixedInvestment: {
    invalid: [
      { name: 'amount a number', body: { amount: 100 }, field: 'amount' },
      { name: 'amount in exponent form', body: { amount: '1e5' }, field: 'amount' },
      { name: 'amount with a comma', body: { amount: '1,5' }, field: 'amount' },
      { name: 'amount negative', body: { amount: '-5' }, field: 'amount' },
      { name: 'amount empty', body: { amount: '' }, field: 'amount' },
      { name: 'planId not a UUID', body: { planId: 'plan-1' }, field: 'planId' },
      { name: 'planId missing', body: { planId: undefined }, field: 'planId' },
    ],
    documented: [
      {
        name: 'plan does not exist',
        body: { planId: unknownPlan },
        example: 'unknownPlan',
        field: 'planId',
        reproducible: true,
      },
      { name: 'plan paused', body: {}, example: 'planPaused', field: 'planId' },
      {
        name: 'amount too small',
        body: { amount: '0.0000001' },
        example: 'amountTooSmall',
        field: 'amount',
        reproducible: true,
      },
      {
        name: 'amount below the plan minimum',
        body: { amount: '0.000001' },
        example: 'amountBelowMinimum',
        field: 'amount',
      },
      {
        name: 'not enough balance',
        body: { amount: '1000000000' },
        example: 'notEnoughBalance',
        field: 'amount',
      },
    ],
  },
  getCollateralBalanceSummary: {
    invalid: [
      { name: 'ticker not a string', body: { ticker: 5 }, field: 'ticker' },
      { name: 'ticker an array', body: { ticker: ['BTC'] }, field: 'ticker' },
      { name: 'ticker empty', body: { ticker: '' }, field: 'ticker' },
    ],
    documented: [
      {
        name: 'ticker unknown',
        body: { ticker: 'NOPE' },
        example: 'invalidTicker',
        field: 'ticker',
        reproducible: true,
      },
    ],
  },
  cancelAllOrders: {
    invalid: [
      { name: 'market not a string', body: { market: 5 }, field: 'market' },
      { name: 'market an array', body: { market: ['BTC_USDT'] }, field: 'market' },
      { name: 'market without separator', body: { market: 'BTCUSDT' }, field: 'market' },
      { name: 'market lowercase', body: { market: 'btc_usdt' }, field: 'market' },
      { name: 'market with a dash', body: { market: 'BTC-USDT' }, field: 'market' },
      { name: 'market without quote', body: { market: 'BTC_' }, field: 'market' },
      { name: 'type not an array', body: { type: 'spot' }, field: 'type' },
      { name: 'type an object', body: { type: { spot: true } }, field: 'type' },
      { name: 'type holds an unknown kind', body: { type: ['limit'] }, field: 'type' },
      { name: 'type holds an uppercase kind', body: { type: ['SPOT'] }, field: 'type' },
      { name: 'positionSide unknown', body: { positionSide: 'up' }, field: 'positionSide' },
      { name: 'positionSide not a string', body: { positionSide: 1 }, field: 'positionSide' },
    ],
    documented: [
      {
        name: 'market not available',
        body: { market: 'NOPE_USDT' },
        example: 'marketNotAvailable',
        field: 'market',
        reproducible: true,
      },
    ],
  },
  listMarkets: { invalid: [], documented: [] },
  listAssets: { invalid: [], documented: [] },
};
