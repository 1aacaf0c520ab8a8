// What the live service is known to do where the specification is silent (the operator's own
// published files, as the project's upstream notes record them), transcribed as the second
// oracle the documents are checked against. Nothing outside test/documents reads this file.

/** Responses the operator says are not cached, beside the specification's list. */
export const notCachedUpstream = [
  '/api/v4/public/ping',
  '/api/v4/main-account/balance',
  '/api/v4/main-account/smart/investment',
];

/** Operations that change state: kept off a live target by tools. */
export const writingPaths = ['/api/v4/main-account/smart/investment', '/api/v4/order/cancel/all'];

/**
 * The operations added from the operator's own files (`openapi/public/http-v4.yaml`), with the rate
 * limit it states for each (requests per 10 seconds; `null` where it states none).
 */
export const upstreamOperations = [
  { method: 'get', path: '/api/v4/public/markets', api: 'public-v4', requests: 2000 },
  { method: 'get', path: '/api/v4/public/assets', api: 'public-v4', requests: 2000 },
] as const;

export const investOperationId = 'createFixedInvestment';

interface ErrorCase {
  status: number;
  code: number;
  message: string;
  field: string;
  /** The operator's message for the field, where it publishes one. */
  says?: string;
}

const validation = (field: string, says?: string): ErrorCase => ({
  status: 400,
  code: 0,
  message: 'Validation failed',
  field,
  ...(says ? { says } : {}),
});
const rule = (code: number, says: string): ErrorCase => ({
  status: 422,
  code,
  message: 'Inner validation failed',
  field: code === 1 ? 'planId' : 'amount',
  says,
});

/** Invest's published error cases, by the document's example name. */
export const investErrors: Record<string, ErrorCase> = {
  unknownPlan: validation('planId', 'The selected planId is invalid.'),
  amountNotANumber: validation('amount', 'The amount must be a number.'),
  amountTooSmall: validation('amount', 'The amount must be at least 0.000001.'),
  amountExceedsPlan: validation(
    'amount',
    'The amount you are trying to invest is bigger than the amount left in this SMART plan. Please try investing a smaller amount.',
  ),
  planDisabled: validation('planId', 'Plan is disabled'),
  planInactive: validation('planId', 'Plan is inactive'),
  noCoinsLeft: validation('planId', 'There are no coins left in the plan'),
  planPaused: validation('planId', 'Plan is paused'),
  specialOffer: validation('planId'),
  tooManyDecimals: validation('amount', 'Invalid decimal amount'),
  investmentExists: rule(1, 'The investment in this investment plan already exists'),
  amountBelowMinimum: rule(
    2,
    "The amount you're trying to invest is lower than the minimum amount in this investment plan.",
  ),
  amountAboveMaximum: rule(
    3,
    "The amount you're trying to invest exceeds the maximum amount in this investment plan.",
  ),
  notEnoughBalance: rule(4, "Insufficient coins on your balance. 9 available, you're trying to invest 10"),
  notEnoughForInterest: rule(5, 'Insufficient funds for the payment.'),
};

export const partnerRefusal =
  "You don't have permission to use this endpoint. Please contact support for more details";

export const mainBalanceValidation = {
  status: 422,
  code: 0,
  message: 'Validation failed',
  errors: { ticker: ['validation.string'] },
};

/** History's messages by example name. */
export const historyMessages: Record<string, [string, string]> = {
  invalidPlan: ['plan', 'The selected plan is invalid.'],
  invalidInvestment: ['investment', 'The selected investment is invalid.'],
  invalidTransaction: ['transaction', 'The selected transaction is invalid.'],
  invalidDate: ['dateFrom', 'The date from is invalid.'],
  invalidDateTo: ['dateTo', 'The date to is invalid.'],
  actionTypesNotArray: ['actionTypes', 'The action types must be an array.'],
  invalidActionType: ['actionTypes.0', 'The selected action type is invalid.'],
};

/** Cancel all: the third field, and the messages of its failures by example name. */
export const positionSides = ['both', 'long', 'short'];
export const cancelMessages: Record<string, [number, string, string[]]> = {
  marketNotAvailable: [31, 'market', ['Market is not available.']],
  typeNotArray: [30, 'type', ['The type must be an array.']],
  invalidMarket: [30, 'market', ['Market field should be a string.', 'Market field format is invalid.']],
};

export const internalError = { error: ['Internal server error.'] };
export const origins = { global: 'https://whitebit.com', eu: 'https://whitebit.eu' };
