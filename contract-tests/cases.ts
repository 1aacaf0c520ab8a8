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
  createLimitOrder: {
    invalid: [
      { name: 'side neither buy nor sell', body: { side: 'hold' }, field: 'side' },
      { name: 'amount a number', body: { amount: 0.01 }, field: 'amount' },
      { name: 'amount negative', body: { amount: '-1' }, field: 'amount' },
      { name: 'price a number', body: { price: 35000 }, field: 'price' },
      { name: 'price missing', body: { price: undefined }, field: 'price' },
      { name: 'market empty', body: { market: '' }, field: 'market' },
      { name: 'clientOrderId not a string', body: { clientOrderId: 7 }, field: 'clientOrderId' },
      { name: 'clientOrderId with a space', body: { clientOrderId: 'my order' }, field: 'clientOrderId' },
      { name: 'stp unknown', body: { stp: 'cancel_all' }, field: 'stp' },
    ],
    documented: [
      {
        name: 'market not available',
        body: { market: 'NOPE_USDT' },
        example: 'marketNotAvailable',
        field: 'market',
      },
      { name: 'clientOrderId used before', body: {}, example: 'clientOrderIdUsed', field: 'clientOrderId' },
      {
        name: 'not enough balance',
        body: { amount: '1000000' },
        example: 'notEnoughBalance',
        field: 'amount',
      },
    ],
  },
  createMarketOrder: {
    invalid: [
      { name: 'side neither buy nor sell', body: { side: 'hold' }, field: 'side' },
      { name: 'amount a number', body: { amount: 100 }, field: 'amount' },
      { name: 'amount missing', body: { amount: undefined }, field: 'amount' },
      { name: 'clientOrderId not a string', body: { clientOrderId: 7 }, field: 'clientOrderId' },
    ],
    documented: [
      {
        name: 'market not available',
        body: { market: 'NOPE_USDT' },
        example: 'marketNotAvailable',
        field: 'market',
      },
      {
        name: 'not enough balance',
        body: { amount: '1000000000' },
        example: 'notEnoughBalance',
        field: 'amount',
      },
    ],
  },
  createStockMarketOrder: {
    invalid: [
      { name: 'side neither buy nor sell', body: { side: 'hold' }, field: 'side' },
      { name: 'amount a number', body: { amount: 0.01 }, field: 'amount' },
    ],
    documented: [
      {
        name: 'market not available',
        body: { market: 'NOPE_USDT' },
        example: 'marketNotAvailable',
        field: 'market',
      },
    ],
  },
  createStopLimitOrder: {
    invalid: [
      { name: 'activation_price missing', body: { activation_price: undefined }, field: 'activation_price' },
      { name: 'activation_price a number', body: { activation_price: 34000 }, field: 'activation_price' },
      { name: 'price in exponent form', body: { price: '3.39e4' }, field: 'price' },
    ],
    documented: [
      {
        name: 'market not available',
        body: { market: 'NOPE_USDT' },
        example: 'marketNotAvailable',
        field: 'market',
      },
    ],
  },
  createStopMarketOrder: {
    invalid: [
      { name: 'activation_price missing', body: { activation_price: undefined }, field: 'activation_price' },
      { name: 'amount with a comma', body: { amount: '1,5' }, field: 'amount' },
    ],
    documented: [
      { name: 'amount is 0', body: { amount: '0' }, example: 'amountNotPositive', field: 'amount' },
    ],
  },
  createBulkLimitOrders: {
    invalid: [
      { name: 'orders not an array', body: { orders: { market: 'BTC_USDT' } }, field: 'orders' },
      { name: 'orders holds a number', body: { orders: [1] }, field: 'orders' },
      { name: 'stopOnFail not a boolean', body: { stopOnFail: 'yes' }, field: 'stopOnFail' },
    ],
    documented: [],
  },
  modifyOrder: {
    invalid: [
      { name: 'orderId a string', body: { orderId: '4180284841' }, field: 'orderId' },
      { name: 'price a number', body: { price: 34800 }, field: 'price' },
    ],
    documented: [
      { name: 'order not found', body: { orderId: 1 }, example: 'orderNotFound', field: 'orderId' },
    ],
  },
  cancelOrder: {
    invalid: [
      { name: 'orderId a string', body: { orderId: 'abc' }, field: 'orderId' },
      { name: 'market missing', body: { market: undefined }, field: 'market' },
    ],
    documented: [
      { name: 'order not found', body: { orderId: 1 }, example: 'orderNotFound', field: 'orderId' },
    ],
  },
  cancelOrdersInBulk: {
    invalid: [{ name: 'orders not an array', body: { orders: 'all' }, field: 'orders' }],
    documented: [],
  },
  listActiveOrders: {
    invalid: [
      { name: 'limit below 1', body: { limit: 0 }, field: 'limit' },
      { name: 'offset negative', body: { offset: -1 }, field: 'offset' },
      { name: 'limit not an integer', body: { limit: '50' }, field: 'limit' },
    ],
    documented: [
      {
        name: 'market not available',
        body: { market: 'NOPE_USDT' },
        example: 'marketNotAvailable',
        field: 'market',
      },
    ],
  },
  getTradeBalance: {
    invalid: [{ name: 'ticker not a string', body: { ticker: 5 }, field: 'ticker' }],
    documented: [
      { name: 'ticker unknown', body: { ticker: 'NOPE' }, example: 'unknownTicker', field: 'ticker' },
    ],
  },
  listExecutedDeals: {
    invalid: [
      { name: 'limit not an integer', body: { limit: '50' }, field: 'limit' },
      { name: 'offset negative', body: { offset: -1 }, field: 'offset' },
    ],
    documented: [],
  },
  listOrderDeals: {
    invalid: [
      { name: 'orderId missing', body: { orderId: undefined }, field: 'orderId' },
      { name: 'limit below 1', body: { limit: 0 }, field: 'limit' },
    ],
    documented: [],
  },
  listOrderHistory: {
    invalid: [
      { name: 'limit below 1', body: { limit: 0 }, field: 'limit' },
      { name: 'startDate not an integer', body: { startDate: '2023-11-08' }, field: 'startDate' },
    ],
    documented: [],
  },
  setKillSwitch: {
    invalid: [{ name: 'types holds an unknown kind', body: { types: ['limit'] }, field: 'types' }],
    documented: [
      {
        name: 'market not available',
        body: { market: 'NOPE_USDT' },
        example: 'marketNotAvailable',
        field: 'market',
      },
    ],
  },
  getKillSwitchStatus: {
    invalid: [{ name: 'market without separator', body: { market: 'BTCUSDT' }, field: 'market' }],
    documented: [
      {
        name: 'market not available',
        body: { market: 'NOPE_USDT' },
        example: 'marketNotAvailable',
        field: 'market',
      },
    ],
  },
};
