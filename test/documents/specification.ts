// The specification's own tables (the operator's published API v4 specification), transcribed as the
// oracle the documents are checked against. Nothing outside test/documents reads this file.

export const specifiedOperations = [
  { method: 'get', path: '/api/v4/public/ping', api: 'public-v4' },
  { method: 'post', path: '/api/v4/main-account/balance', api: 'private-v4' },
  { method: 'post', path: '/api/v4/main-account/smart-flex/investments/history', api: 'private-v4' },
  { method: 'post', path: '/api/v4/main-account/smart/investment', api: 'private-v4' },
  { method: 'post', path: '/api/v4/collateral-account/balance-summary', api: 'private-v4' },
  { method: 'post', path: '/api/v4/order/cancel/all', api: 'private-v4' },
] as const;

/** Limits table: requests per 10 seconds; `null` where the specification says "not shown". */
export const specifiedRateLimits: Record<string, number | null> = {
  '/api/v4/public/ping': 2000,
  '/api/v4/main-account/smart-flex/investments/history': 1000,
  '/api/v4/collateral-account/balance-summary': 12000,
  '/api/v4/order/cancel/all': 10000,
  '/api/v4/main-account/smart/investment': null,
  '/api/v4/main-account/balance': null,
};

export const partnerOnlyPaths = [
  '/api/v4/main-account/smart-flex/investments/history',
  '/api/v4/main-account/smart/investment',
];

export const notCachedPaths = [
  '/api/v4/main-account/smart-flex/investments/history',
  '/api/v4/collateral-account/balance-summary',
  '/api/v4/order/cancel/all',
];

interface Field {
  type: string;
  required?: boolean;
  default?: unknown;
  format?: string;
  items?: { type: string; enum?: unknown[] };
}

/** Request body fields of each private operation, beside `request` and `nonce`. */
export const specifiedRequestFields: Record<string, Record<string, Field>> = {
  '/api/v4/main-account/balance': {},
  '/api/v4/main-account/smart-flex/investments/history': {
    limit: { type: 'integer', default: 50 },
    offset: { type: 'integer', default: 0 },
    plan: { type: 'string', format: 'uuid' },
    investment: { type: 'string' },
    transaction: { type: 'string' },
    dateFrom: { type: 'integer' },
    dateTo: { type: 'integer' },
    actionTypes: { type: 'array', items: { type: 'integer', enum: [1, 2, 3, 4, 5, 6] } },
  },
  '/api/v4/main-account/smart/investment': {
    planId: { type: 'string', required: true, format: 'uuid' },
    amount: { type: 'string', required: true },
  },
  '/api/v4/collateral-account/balance-summary': {
    ticker: { type: 'string' },
  },
  '/api/v4/order/cancel/all': {
    market: { type: 'string' },
    type: { type: 'array', items: { type: 'string', enum: ['spot', 'margin', 'futures'] } },
  },
};

export const actionTypeNames = [
  'INVEST',
  'REINVEST',
  'WITHDRAW_FROM_INVESTMENT',
  'DAILY_EARNING',
  'CLOSE_INVESTMENT',
  'OPEN_INVESTMENT',
];

/** Resource tables: field name to JSON type. */
export const historyRecordFields = {
  createdAt: 'integer',
  planId: 'string',
  investmentId: 'string',
  currency: 'string',
  amount: 'string',
  transaction_id: 'string',
  actionType: 'integer',
};

export const collateralSummaryItemFields = {
  asset: 'string',
  balance: 'string',
  borrow: 'string',
  availableWithoutBorrow: 'string',
  availableWithBorrow: 'string',
};

export const privateErrorFields = { code: 'integer', message: 'string', errors: 'object' };
export const publicErrorFields = { success: 'boolean', message: 'string', params: 'array' };

/** Error codes the specification shows, with where each is used. */
export const specifiedErrorCodes = {
  historyValidation: 0,
  defaultValidation: 30,
  marketValidation: 31,
};
