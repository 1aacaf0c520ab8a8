// What the live service is known to do where the specification is silent (the operator's own
// published files, as the project's upstream notes record them), transcribed as the second
// oracle the documents are checked against. Nothing outside test/documents reads this file.

/** Responses the operator says are not cached, beside the specification's list. */
export const notCachedUpstream = [
  '/api/v4/public/ping',
  '/api/v4/public/time',
  '/api/v4/public/funding-history/{market}',
  '/api/v4/main-account/balance',
  '/api/v4/main-account/smart/investment',
  '/api/v4/main-account/smart/plans',
  '/api/v4/main-account/smart/investment/close',
  '/api/v4/main-account/smart/investments',
  '/api/v4/main-account/smart/interest-payment-history',
  '/api/v4/main-account/smart-flex/plans',
  '/api/v4/main-account/smart-flex/investments',
  '/api/v4/main-account/smart-flex/investments/payment-history',
  '/api/v4/main-account/smart-flex/investments/invest',
  '/api/v4/main-account/smart-flex/investments/withdraw',
  '/api/v4/main-account/smart-flex/investments/close',
  '/api/v4/main-account/smart-flex/investments/auto-invest',
  '/api/v4/collateral-account/balance',
  '/api/v4/main-account/address',
  '/api/v4/main-account/create-new-address',
  '/api/v4/main-account/withdraw',
  '/api/v4/main-account/withdraw-pay',
  '/api/v4/main-account/transfer',
  '/api/v4/main-account/history',
  '/api/v4/main-account/fee',
  '/api/v4/profile/websocket_token',
  '/api/v4/main-account/codes',
  '/api/v4/main-account/codes/apply',
  '/api/v4/main-account/codes/my',
  '/api/v4/main-account/codes/history',
  '/api/v4/sub-account/create',
  '/api/v4/sub-account/edit',
  '/api/v4/sub-account/delete',
  '/api/v4/sub-account/list',
  '/api/v4/sub-account/block',
  '/api/v4/sub-account/unblock',
  '/api/v4/sub-account/balances',
  '/api/v4/sub-account/transfer',
  '/api/v4/sub-account/transfer/history',
  '/api/v4/mining/rewards',
  '/api/v4/mining/hashrate',
  '/api/v4/credit-line/loans/info',
  '/api/v4/main-account/fiat-deposit-url',
  '/api/v4/main-account/refund-deposit',
  '/api/v4/jwt',
  '/api/card-token',
  '/api/v4/travel-rule/deposit/verification',
  '/api/v4/sub-account/kyc-url',
  '/api/v4/sub-account/api-key/create',
  '/api/v4/sub-account/api-key/edit',
  '/api/v4/sub-account/api-key/delete',
  '/api/v4/sub-account/api-key/list',
  '/api/v4/sub-account/api-key/reset',
  '/api/v4/sub-account/api-key/ip-address/list',
  '/api/v4/sub-account/api-key/ip-address/create',
  '/api/v4/sub-account/api-key/ip-address/delete',
];

/** B2B partner operations the operator names beside the specification's: express withdrawal, its crypto lending. */
export const partnerOnlyUpstream = [
  '/api/v4/main-account/express-withdraw/token',
  '/api/v4/main-account/smart/plans',
  '/api/v4/main-account/smart/investment/close',
  '/api/v4/main-account/smart/investments',
  '/api/v4/main-account/smart/interest-payment-history',
  '/api/v4/main-account/smart-flex/plans',
  '/api/v4/main-account/smart-flex/investments',
  '/api/v4/main-account/smart-flex/investments/payment-history',
  '/api/v4/main-account/smart-flex/investments/invest',
  '/api/v4/main-account/smart-flex/investments/withdraw',
  '/api/v4/main-account/smart-flex/investments/close',
  '/api/v4/main-account/smart-flex/investments/auto-invest',
];

/** Operations that change state: kept off a live target by tools. */
export const writingPaths = [
  '/api/card-token',
  '/api/v4/main-account/smart/investment',
  '/api/v4/main-account/smart/investment/close',
  '/api/v4/main-account/smart-flex/investments/invest',
  '/api/v4/main-account/smart-flex/investments/withdraw',
  '/api/v4/main-account/smart-flex/investments/close',
  '/api/v4/main-account/smart-flex/investments/auto-invest',
  '/api/v4/order/cancel/all',
  '/api/v4/order/new',
  '/api/v4/order/market',
  '/api/v4/order/stock_market',
  '/api/v4/order/stop_limit',
  '/api/v4/order/stop_market',
  '/api/v4/order/bulk',
  '/api/v4/order/modify',
  '/api/v4/order/cancel',
  '/api/v4/order/cancel/bulk',
  '/api/v4/order/kill-switch',
  '/api/v4/collateral-account/position/close',
  '/api/v4/collateral-account/leverage',
  '/api/v4/collateral-account/hedge-mode/update',
  '/api/v4/order/collateral/limit',
  '/api/v4/order/collateral/bulk',
  '/api/v4/order/collateral/market',
  '/api/v4/order/collateral/stop-limit',
  '/api/v4/order/collateral/trigger-market',
  '/api/v4/order/collateral/oco',
  '/api/v4/order/conditional-cancel',
  '/api/v4/order/oco-cancel',
  '/api/v4/order/oto-cancel',
  '/api/v4/convert/estimate',
  '/api/v4/convert/confirm',
  '/api/v4/main-account/create-new-address',
  '/api/v4/main-account/withdraw',
  '/api/v4/main-account/withdraw-pay',
  '/api/v4/main-account/transfer',
  '/api/v4/main-account/codes',
  '/api/v4/main-account/codes/apply',
  '/api/v4/sub-account/create',
  '/api/v4/sub-account/edit',
  '/api/v4/sub-account/delete',
  '/api/v4/sub-account/block',
  '/api/v4/sub-account/unblock',
  '/api/v4/sub-account/transfer',
  '/api/v4/mining/payout-destination/edit',
  '/api/v4/mining/watcher-links/create',
  '/api/v4/mining/accounts/create',
  '/api/v4/main-account/fiat-deposit-url',
  '/api/v4/main-account/refund-deposit',
  '/api/v4/main-account/express-withdraw/token',
  '/api/v4/travel-rule/deposit/verification',
  '/api/v4/sub-account/withdraw/confirm',
  '/api/v4/sub-account/api-key/create',
  '/api/v4/sub-account/api-key/edit',
  '/api/v4/sub-account/api-key/delete',
  '/api/v4/sub-account/api-key/reset',
  '/api/v4/sub-account/api-key/ip-address/create',
  '/api/v4/sub-account/api-key/ip-address/delete',
];

/**
 * The operations added from the operator's own files (`openapi/private/http-trade-v4.yaml`, its
 * spot group, `openapi/public/http-v4.yaml`, and the candles of `openapi/public/http-v1.yaml`),
 * with the rate limit it states for each (requests per 10 seconds, or per `windowSeconds` where it
 * states another window; `null` where it states none; for a public v4 endpoint with no figure of
 * its own, the public 2000), and of its collateral, convert and market fee groups; and of its
 * account file (`openapi/private/main_api_v4.yaml`), the wallet: deposit addresses, withdrawals,
 * transfers between balances, the deposit and withdrawal history and the fees, the codes, the
 * sub-accounts, the WebSocket token, the mining pool and the credit line.
 * sub-accounts, the WebSocket token, and its crypto lending, fixed and flex.
 */
export const upstreamOperations = [
  { method: 'get', path: '/api/v4/public/markets', api: 'public-v4', requests: 2000 },
  { method: 'get', path: '/api/v4/public/assets', api: 'public-v4', requests: 2000 },
  { method: 'get', path: '/api/v4/public/platform/status', api: 'public-v4', requests: 2000 },
  { method: 'get', path: '/api/v4/public/ticker', api: 'public-v4', requests: 2000 },
  { method: 'get', path: '/api/v4/public/orderbook/{market}', api: 'public-v4', requests: 600 },
  { method: 'get', path: '/api/v4/public/orderbook/depth/{market}', api: 'public-v4', requests: 2000 },
  { method: 'get', path: '/api/v4/public/trades/{market}', api: 'public-v4', requests: 2000 },
  { method: 'get', path: '/api/v4/public/fee', api: 'public-v4', requests: 2000 },
  { method: 'get', path: '/api/v4/public/time', api: 'public-v4', requests: 2000 },
  { method: 'get', path: '/api/v4/public/collateral/markets', api: 'public-v4', requests: 2000 },
  { method: 'get', path: '/api/v4/public/futures', api: 'public-v4', requests: 2000 },
  { method: 'get', path: '/api/v4/public/funding-history/{market}', api: 'public-v4', requests: 2000 },
  { method: 'get', path: '/api/v4/public/mining-pool', api: 'public-v4', requests: 1000 },
  { method: 'get', path: '/api/v1/public/ticker', api: 'public-v4', requests: 1000 },
  { method: 'get', path: '/api/v1/public/kline', api: 'public-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/order/new', api: 'private-v4', requests: 10000 },
  { method: 'post', path: '/api/v4/order/market', api: 'private-v4', requests: 10000 },
  { method: 'post', path: '/api/v4/order/stock_market', api: 'private-v4', requests: 10000 },
  { method: 'post', path: '/api/v4/order/stop_limit', api: 'private-v4', requests: 10000 },
  { method: 'post', path: '/api/v4/order/stop_market', api: 'private-v4', requests: 10000 },
  { method: 'post', path: '/api/v4/order/bulk', api: 'private-v4', requests: null },
  { method: 'post', path: '/api/v4/order/modify', api: 'private-v4', requests: 10000 },
  { method: 'post', path: '/api/v4/order/cancel', api: 'private-v4', requests: 10000 },
  { method: 'post', path: '/api/v4/order/cancel/bulk', api: 'private-v4', requests: 10000 },
  { method: 'post', path: '/api/v4/orders', api: 'private-v4', requests: 12000 },
  { method: 'post', path: '/api/v4/trade-account/balance', api: 'private-v4', requests: 12000 },
  { method: 'post', path: '/api/v4/trade-account/executed-history', api: 'private-v4', requests: 12000 },
  { method: 'post', path: '/api/v4/trade-account/order', api: 'private-v4', requests: 12000 },
  { method: 'post', path: '/api/v4/trade-account/order/history', api: 'private-v4', requests: 12000 },
  { method: 'post', path: '/api/v4/order/kill-switch', api: 'private-v4', requests: 10000 },
  { method: 'post', path: '/api/v4/order/kill-switch/status', api: 'private-v4', requests: 10000 },
  { method: 'post', path: '/api/v4/collateral-account/balance', api: 'private-v4', requests: 12000 },
  { method: 'post', path: '/api/v4/collateral-account/summary', api: 'private-v4', requests: 12000 },
  { method: 'post', path: '/api/v4/collateral-account/positions/open', api: 'private-v4', requests: 12000 },
  { method: 'post', path: '/api/v4/collateral-account/position/close', api: 'private-v4', requests: 10000 },
  {
    method: 'post',
    path: '/api/v4/collateral-account/positions/history',
    api: 'private-v4',
    requests: 12000,
  },
  {
    method: 'post',
    path: '/api/v4/collateral-account/positions/closed-pnl',
    api: 'private-v4',
    requests: 12000,
  },
  { method: 'post', path: '/api/v4/collateral-account/funding-history', api: 'private-v4', requests: 12000 },
  { method: 'post', path: '/api/v4/collateral-account/leverage', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/collateral-account/hedge-mode', api: 'private-v4', requests: 12000 },
  { method: 'post', path: '/api/v4/collateral-account/hedge-mode/update', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/collateral-account/adl-quantile', api: 'private-v4', requests: 12000 },
  // Its collateral group: the orders, the conditional and OCO lists, and their cancels.
  { method: 'post', path: '/api/v4/order/collateral/limit', api: 'private-v4', requests: 10000 },
  { method: 'post', path: '/api/v4/order/collateral/bulk', api: 'private-v4', requests: 10000 },
  { method: 'post', path: '/api/v4/order/collateral/market', api: 'private-v4', requests: 10000 },
  { method: 'post', path: '/api/v4/order/collateral/stop-limit', api: 'private-v4', requests: 10000 },
  { method: 'post', path: '/api/v4/order/collateral/trigger-market', api: 'private-v4', requests: 10000 },
  { method: 'post', path: '/api/v4/order/collateral/oco', api: 'private-v4', requests: 10000 },
  { method: 'post', path: '/api/v4/conditional-orders', api: 'private-v4', requests: 12000 },
  { method: 'post', path: '/api/v4/oco-orders', api: 'private-v4', requests: 12000 },
  { method: 'post', path: '/api/v4/order/conditional-cancel', api: 'private-v4', requests: 10000 },
  { method: 'post', path: '/api/v4/order/oco-cancel', api: 'private-v4', requests: 10000 },
  { method: 'post', path: '/api/v4/order/oto-cancel', api: 'private-v4', requests: 10000 },
  {
    method: 'post',
    path: '/api/v4/trade-account/order/history/query',
    api: 'private-v4',
    requests: 10000,
  },
  { method: 'post', path: '/api/v4/market/fee', api: 'private-v4', requests: null },
  { method: 'post', path: '/api/v4/convert/estimate', api: 'private-v4', requests: 10000 },
  { method: 'post', path: '/api/v4/convert/confirm', api: 'private-v4', requests: 10000 },
  { method: 'post', path: '/api/v4/convert/history', api: 'private-v4', requests: 10000 },
  { method: 'post', path: '/api/v4/main-account/address', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/main-account/create-new-address', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/main-account/withdraw', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/main-account/withdraw-pay', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/main-account/transfer', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/main-account/history', api: 'private-v4', requests: 200 },
  { method: 'post', path: '/api/v4/main-account/fee', api: 'private-v4', requests: 1000 },
  // Its codes: made, applied (a limit per second), and the two lists.
  { method: 'post', path: '/api/v4/main-account/codes', api: 'private-v4', requests: 1000 },
  {
    method: 'post',
    path: '/api/v4/main-account/codes/apply',
    api: 'private-v4',
    requests: 60,
    windowSeconds: 1,
  },
  { method: 'post', path: '/api/v4/main-account/codes/my', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/main-account/codes/history', api: 'private-v4', requests: 1000 },
  // Its sub-accounts: 1000 per 10 s each.
  { method: 'post', path: '/api/v4/sub-account/create', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/sub-account/edit', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/sub-account/delete', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/sub-account/list', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/sub-account/block', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/sub-account/unblock', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/sub-account/balances', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/sub-account/transfer', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/sub-account/transfer/history', api: 'private-v4', requests: 1000 },
  // Its other wallet calls: a fiat deposit's link, a refund, the express-withdraw token (the
  // main-account scope's 1000), the fiat gateway's token (none stated), the Travel Rule's.
  { method: 'post', path: '/api/v4/main-account/fiat-deposit-url', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/main-account/refund-deposit', api: 'private-v4', requests: 1000 },
  {
    method: 'post',
    path: '/api/v4/main-account/express-withdraw/token',
    api: 'private-v4',
    requests: 1000,
  },
  { method: 'post', path: '/api/v4/jwt', api: 'private-v4', requests: null },
  // The fiat gateway's card token, on the gateway's own origin: 1000 per 10 s.
  { method: 'post', path: '/api/card-token', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/travel-rule/vasps', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/travel-rule/deposit/verification', api: 'private-v4', requests: 1000 },
  // A sub-account's verification link (1000), and its withdrawals waiting for confirmation (none).
  { method: 'post', path: '/api/v4/sub-account/kyc-url', api: 'private-v4', requests: 1000 },
  {
    method: 'post',
    path: '/api/v4/sub-account/withdraw/unconfirmed-list',
    api: 'private-v4',
    requests: null,
  },
  { method: 'post', path: '/api/v4/sub-account/withdraw/confirm', api: 'private-v4', requests: null },
  // Its crypto lending, fixed and flex: 1000 per 10 s each.
  { method: 'post', path: '/api/v4/main-account/smart/plans', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/main-account/smart/investment/close', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/main-account/smart/investments', api: 'private-v4', requests: 1000 },
  {
    method: 'post',
    path: '/api/v4/main-account/smart/interest-payment-history',
    api: 'private-v4',
    requests: 1000,
  },
  { method: 'post', path: '/api/v4/main-account/smart-flex/plans', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/main-account/smart-flex/investments', api: 'private-v4', requests: 1000 },
  {
    method: 'post',
    path: '/api/v4/main-account/smart-flex/investments/payment-history',
    api: 'private-v4',
    requests: 1000,
  },
  {
    method: 'post',
    path: '/api/v4/main-account/smart-flex/investments/invest',
    api: 'private-v4',
    requests: 1000,
  },
  {
    method: 'post',
    path: '/api/v4/main-account/smart-flex/investments/withdraw',
    api: 'private-v4',
    requests: 1000,
  },
  {
    method: 'post',
    path: '/api/v4/main-account/smart-flex/investments/close',
    api: 'private-v4',
    requests: 1000,
  },
  {
    method: 'post',
    path: '/api/v4/main-account/smart-flex/investments/auto-invest',
    api: 'private-v4',
    requests: 1000,
  },
  // The token of the WebSocket streams, of its account group: its limit is per minute.
  {
    method: 'post',
    path: '/api/v4/profile/websocket_token',
    api: 'private-v4',
    requests: 10,
    windowSeconds: 60,
  },
  // The mining pool's private side and the credit line: 1000 per 10 s each.
  { method: 'post', path: '/api/v4/mining/rewards', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/mining/hashrate', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/mining/payout-destination', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/mining/payout-destination/edit', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/mining/miners/info', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/mining/workers/names', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/mining/workers/hashrate', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/mining/watcher-links/create', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/mining/watcher-links/list', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/mining/accounts/create', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/mining/accounts', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/credit-line/loans/info', api: 'private-v4', requests: 1000 },
  // Its sub-accounts' API keys: 1000 per 10 s each.
  { method: 'post', path: '/api/v4/sub-account/api-key/create', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/sub-account/api-key/edit', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/sub-account/api-key/delete', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/sub-account/api-key/list', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/sub-account/api-key/reset', api: 'private-v4', requests: 1000 },
  { method: 'post', path: '/api/v4/sub-account/api-key/ip-address/list', api: 'private-v4', requests: 1000 },
  {
    method: 'post',
    path: '/api/v4/sub-account/api-key/ip-address/create',
    api: 'private-v4',
    requests: 1000,
  },
  {
    method: 'post',
    path: '/api/v4/sub-account/api-key/ip-address/delete',
    api: 'private-v4',
    requests: 1000,
  },
] as const;

/** Private operations of the operator's files whose caching it does not state: marked not cached, saying so. */
export const notCachedByDocument = upstreamOperations
  .filter((operation) => operation.api === 'private-v4')
  .map((operation) => operation.path as string)
  .filter((path) => !notCachedUpstream.includes(path));

/**
 * The operations that place orders, none of them ever repeated by a client, and whether the
 * operator shows the refusal of a clientOrderId in use for that order type. Observed upstream, a
 * clientOrderId is refused only while an open order of the account on the same market carries
 * it: once that order has filled or been cancelled it is taken again, so a repeat after a fill
 * would place a second order.
 */
export const orderPlacing: Record<
  string,
  'refusal shown' | 'refusal shown for other order types' | 'not shown'
> = {
  '/api/v4/order/new': 'refusal shown',
  '/api/v4/order/stop_market': 'refusal shown',
  '/api/v4/order/market': 'refusal shown for other order types',
  '/api/v4/order/stock_market': 'refusal shown for other order types',
  '/api/v4/order/stop_limit': 'refusal shown for other order types',
  '/api/v4/order/bulk': 'not shown',
  '/api/v4/order/modify': 'not shown',
  '/api/v4/order/collateral/limit': 'not shown',
  '/api/v4/order/collateral/bulk': 'not shown',
  '/api/v4/order/collateral/market': 'not shown',
  '/api/v4/order/collateral/stop-limit': 'not shown',
  '/api/v4/order/collateral/trigger-market': 'not shown',
  '/api/v4/order/collateral/oco': 'not shown',
};

/** The refusal of a clientOrderId an open order of the account on the market carries, as the operator shows it. */
export const clientOrderIdUsed = {
  code: 36,
  message: 'Validation failed',
  errors: { clientOrderId: ['This client order id is already used by the current account.'] },
};

/** Bounds the operator states, by path and request field: [minimum, maximum, default]. */
export const bounds: Record<string, Record<string, [number | undefined, number | undefined, unknown]>> = {
  '/api/v4/orders': { limit: [1, 100, 50], offset: [0, 10000, 0] },
  '/api/v4/trade-account/executed-history': { limit: [1, 500, 50], offset: [0, undefined, 0] },
  '/api/v4/trade-account/order': { limit: [1, undefined, 50], offset: [0, undefined, 0] },
  '/api/v4/trade-account/order/history': { limit: [1, 500, 50], offset: [0, undefined, 0] },
  '/api/v4/collateral-account/positions/closed-pnl': { limit: [1, 100, 50], offset: [0, undefined, 0] },
  '/api/v4/collateral-account/funding-history': { limit: [1, 100, 100], offset: [0, undefined, 0] },
  '/api/v4/conditional-orders': { limit: [1, 100, 100], offset: [0, 4294967295, 0] },
  '/api/v4/oco-orders': { limit: [1, 100, 50], offset: [0, 4294967295, 0] },
  '/api/v4/trade-account/order/history/query': { limit: [1, 500, 500], offset: [0, 9999, 0] },
  '/api/v4/convert/history': { limit: [1, 100, 100], offset: [0, undefined, 0] },
  '/api/v4/main-account/history': { limit: [1, 500, 50], offset: [0, 10000, 0] },
  '/api/v4/main-account/codes/my': { limit: [1, 100, 30], offset: [0, 10000, 0] },
  '/api/v4/main-account/codes/history': { limit: [1, 100, 30], offset: [0, 10000, 0] },
  '/api/v4/sub-account/list': { limit: [1, 100, 30], offset: [0, 10000, 0] },
  '/api/v4/sub-account/transfer/history': { limit: [1, 100, 100], offset: [0, 10000, 0] },
  '/api/v4/mining/rewards': { limit: [1, 100, 30], offset: [0, 10000, 0] },
  '/api/v4/mining/workers/names': { limit: [1, 100, 100], offset: [0, 10000, 0] },
  '/api/v4/mining/accounts': { limit: [1, undefined, 30], offset: [0, undefined, 0] },
  '/api/v4/sub-account/withdraw/unconfirmed-list': { limit: [1, 100, 100], offset: [0, 10000, 0] },
  '/api/v4/main-account/smart/investments': { limit: [1, 100, 100], offset: [0, 10000, 0] },
  '/api/v4/main-account/smart/interest-payment-history': { limit: [1, 100, 100], offset: [0, 10000, 0] },
  '/api/v4/main-account/smart-flex/plans': { limit: [undefined, 100, 100], offset: [0, undefined, 0] },
  '/api/v4/sub-account/api-key/list': { limit: [1, 100, 100], offset: [0, 10000, 0] },
};

/** How many orders one call takes: [minItems, maxItems] of `orders`. */
export const batchSizes: Record<string, [number, number]> = {
  '/api/v4/order/bulk': [1, 20],
  '/api/v4/order/cancel/bulk': [1, 100],
};

type Refusal = [status: number, code: number, field: string, message: string];

/** What the operator shows both withdrawals (to an address, and by payment) refuse alike. */
const withdrawalRefusals: Record<string, Refusal> = {
  duplicateUniqueId: [400, 0, 'uniqueId', 'The unique id has already been taken.'],
  invalidAddress: [422, 2, 'address', 'The address is invalid'],
  notEnoughBalance: [422, 5, 'amount', 'Not enough money, Ethereum balance = 1'],
};

/** Refusals the operator shows, by path and example name: [status, code, field, first message]. */
export const tradingRefusals: Record<string, Record<string, Refusal>> = {
  '/api/v4/order/new': {
    sideInvalid: [422, 30, 'side', "Side field should contain only 'buy' or 'sell' values."],
    marketNotAvailable: [422, 31, 'market', 'Market is not available.'],
    amountBelowMinimum: [422, 32, 'amount', 'Given amount is less than min amount 0.001'],
    priceNotPositive: [422, 33, 'price', 'Price should be greater than 0.'],
    makerFeeInvalid: [422, 35, 'maker_fee', 'Incorrect maker fee'],
    iocWithPostOnly: [422, 37, 'ioc', 'Either IOC or PostOnly flag in true state is allowed.'],
    totalBelowMinimum: [422, 30, 'total', 'Total (amount * price) is less than 5.05'],
  },
  '/api/v4/order/market': { notEnoughBalance: [422, 32, 'amount', 'Not enough balance.'] },
  '/api/v4/order/stop_market': { amountNotPositive: [422, 32, 'amount', 'Amount should be greater than 0.'] },
  '/api/v4/order/modify': {
    orderNotFound: [400, 2, 'orderId', 'Unexecuted order was not found.'],
    notEnoughBalance: [422, 10, 'amount', 'Not enough balance.'],
  },
  '/api/v4/order/cancel': {
    orderNotFound: [400, 2, 'orderId', 'Unexecuted order was not found.'],
    orderIdNotInteger: [422, 30, 'orderId', 'OrderId field should be an integer.'],
  },
  '/api/v4/order/cancel/bulk': { tooManyOrders: [422, 30, 'orders', 'validation.between'] },
  '/api/v4/orders': { pageTooLarge: [422, 30, 'limit', 'The limit may not be greater than 100.'] },
  '/api/v4/trade-account/balance': {
    unknownTicker: [422, 30, 'ticker', 'Currency was not found.'],
    invalidArgument: [400, 1, 'amount', 'Invalid argument.'],
  },
  '/api/v4/trade-account/executed-history': {
    invalidMarket: [422, 31, 'market', 'Market field format is invalid.'],
  },
  '/api/v4/order/kill-switch': { timeoutTooShort: [422, 30, 'timeout', 'Timeout should be at least 5.'] },
  '/api/v4/order/kill-switch/status': { marketNotAvailable: [422, 31, 'market', 'Market is not available.'] },
  '/api/v4/collateral-account/balance': { invalidTicker: [422, 30, 'ticker', 'ticker is invalid.'] },
  '/api/v4/order/conditional-cancel': {
    conditionalOrderNotFound: [400, 2, 'id', 'Unexecuted order was not found.'],
  },
  '/api/v4/order/oco-cancel': { ocoOrderNotFound: [400, 2, 'orderId', 'Unexecuted order was not found.'] },
  '/api/v4/order/oto-cancel': { otoOrderNotFound: [400, 2, 'otoId', 'Unexecuted order was not found.'] },
  '/api/v4/convert/estimate': {
    amountTooBig: [400, 32, 'amount', 'frontendServerSide.converter.amountIsTooBig'],
    insufficientBalance: [400, 37, 'amount', 'validation.balance'],
    termsNotAccepted: [422, 0, 'user', 'Terms of exchange are not accepted'],
    directionInvalid: [422, 30, 'direction', 'Direction field does not exist in [from,to].'],
    marketsNotAvailable: [422, 0, 'from', 'Conversion markets not available'],
    amountConvertsToZero: [422, 0, 'amount', 'validation.amount_too_small'],
    missingRequiredField: [422, 30, 'amount', 'validation.required'],
  },
  '/api/v4/convert/confirm': {
    quoteExpired: [400, 20, 'quoteId', 'api.converter.quoteExpired'],
    insufficientBalance: [400, 37, 'amount', 'validation.balance'],
    quoteNotFound: [422, 0, 'quoteId', 'Quote could not be found'],
    quoteAlreadyUsed: [422, 0, 'quoteId', 'frontendServerSide.converter.quoteInvalid'],
    quoteIdNonNumeric: [422, 30, 'quoteId', 'validation.numeric_integer'],
    quoteIdTooLong: [422, 30, 'quoteId', 'validation.numeric_field_length'],
  },
  '/api/v4/convert/history': {
    fromTickerInvalid: [422, 30, 'fromTicker', 'fromTicker is invalid.'],
    toTickerInvalid: [422, 30, 'toTicker', 'toTicker is invalid.'],
    dateRangeExceeded: [422, 30, 'from', 'api.validation.dateTime.maxRange'],
    dateNonInteger: [422, 30, 'from', 'validation.numeric_integer'],
    dateOutOfRange: [422, 30, 'from', 'validation.numeric_field_length'],
    limitOutOfRange: [422, 30, 'limit', 'validation.numeric_field_length'],
    offsetNegative: [422, 30, 'offset', 'validation.length_min'],
  },
  '/api/v4/main-account/address': {
    unknownTicker: [400, 0, 'ticker', 'The selected ticker is invalid.'],
    unknownNetwork: [400, 0, 'network', 'The selected network is invalid.'],
    notDepositable: [422, 1, 'ticker', 'Currency is not depositable'],
  },
  '/api/v4/main-account/create-new-address': {
    unknownNetwork: [400, 0, 'network', 'Unsupported network'],
    noDefaultNetwork: [400, 0, 'network', 'Cannot extract default network'],
    notDepositable: [422, 0, 'ticker', 'Currency is not depositable'],
    addressLimitReached: [422, 0, 'message', 'Address limit reached'],
  },
  '/api/v4/main-account/withdraw': {
    ...withdrawalRefusals,
    memoRequired: [400, 0, 'memo', 'The memo field is required.'],
  },
  '/api/v4/main-account/withdraw-pay': withdrawalRefusals,
  '/api/v4/main-account/fiat-deposit-url': {
    uniqueIdTaken: [400, 0, 'uniqueId', 'The unique id has already been taken.'],
    amountTooSmall: [400, 0, 'amount', 'Amount is too little for deposit'],
    providerWithoutAsset: [400, 0, 'provider', 'Cannot find currency for specified provider'],
    notDepositable: [400, 0, 'ticker', 'Currency is not depositable via API'],
    userNotVerified: [400, 0, 'user', 'User not verified'],
    dailyLimitReached: [400, 0, 'amount', 'Daily limit reached'],
  },
  '/api/v4/main-account/refund-deposit': {
    missingFields: [400, 0, 'transactionId', 'The transaction id field is required.'],
  },
  '/api/v4/travel-rule/deposit/verification': {
    vaspDataMissing: [400, 0, 'vaspData', 'Either vaspId or vaspName is required for hosted wallets'],
    depositNotFound: [422, 0, 'uniqueId', 'Transaction not found'],
    notADeposit: [422, 0, 'uniqueId', 'Transaction must be a deposit'],
    depositNotWaiting: [422, 0, 'uniqueId', 'Transaction is not ready for verification'],
  },
  '/api/v4/sub-account/kyc-url': {
    unknownSubAccount: [400, 0, 'id', 'validation.exists'],
  },
  '/api/v4/sub-account/withdraw/confirm': {
    unknownWithdrawal: [400, 0, 'id', 'validation.exists'],
  },
  '/api/v4/main-account/transfer': {
    sameFromTo: [400, 0, 'to', 'The to and from must be different.'],
    amountTooSmall: [400, 0, 'amount', 'The amount must be at least 0.00000001.'],
    notEnoughBalance: [
      422,
      3,
      'amount',
      "You don't have such amount for transfer (available 34.68, in amount: 1000000)",
    ],
    currencyWithdrawDisabled: [422, 1, 'currency', 'Withdraw from this currency is disabled'],
  },
  '/api/v4/main-account/history': {
    invalidTransactionMethod: [400, 0, 'transactionMethod', 'The selected transaction method is invalid.'],
    pageTooLarge: [400, 0, 'limit', 'The limit may not be greater than 500.'],
  },
  '/api/v4/main-account/codes': {
    invalidPassphrase: [422, 0, 'passphrase', 'The passphrase format is invalid.'],
  },
  '/api/v4/main-account/codes/apply': {
    codeNotApplied: [400, 0, 'code', 'Code not applied'],
    codeAlreadyApplied: [400, 0, 'code', 'Code already applied'],
    ownCode: [400, 0, 'code', 'This code was created by you'],
  },
  '/api/v4/sub-account/create': {
    emailRequired: [400, 0, 'email', 'The email field is required.'],
    aliasOrEmailInvalid: [400, 0, 'alias', 'Alias already exists.'],
  },
  '/api/v4/mining/rewards': {
    pageTooLarge: [400, 0, 'limit', 'validation.max.integer'],
    pageNotInteger: [400, 0, 'limit', 'validation.integer'],
  },
  '/api/v4/mining/hashrate': { accountNotFound: [400, 0, 'account', 'Account not found'] },
  '/api/v4/mining/payout-destination': { accountNotFound: [400, 0, 'user', 'Mining account not found.'] },
  '/api/v4/mining/payout-destination/edit': {
    accountNotFound: [400, 0, 'user', 'Mining account not found.'],
    invalidBtcAddress: [400, 0, 'address', 'miningPool.validation.payoutDestination.invalidBtcAddress'],
    btcAddressRequired: [400, 0, 'address', 'miningPool.validation.payoutDestination.btcAddressRequired'],
    customCurrencyConflict: [
      400,
      0,
      'destination',
      'miningPool.validation.payoutDestination.customCurrencyConflict',
    ],
  },
  '/api/v4/mining/miners/info': {
    accountNotFound: [400, 0, 'user', "Mining pool account 'unknown_miner' not found"],
  },
  '/api/v4/mining/workers/names': {
    accountNotFound: [400, 0, 'user', "Mining pool account 'unknown_miner' not found"],
  },
  '/api/v4/mining/workers/hashrate': {
    accountNotFound: [400, 0, 'user', "Mining pool account 'unknown_miner' not found"],
  },
  '/api/v4/mining/watcher-links/create': { limitExceeded: [400, 0, 'user', 'Limit exceeded'] },
  '/api/v4/mining/watcher-links/list': {
    accountNotFound: [400, 0, 'user', "Mining pool account 'unknown_miner' not found"],
  },
  '/api/v4/mining/accounts/create': {
    nameTaken: [400, 0, 'name', 'The name has already been taken.'],
    maxAccounts: [400, 0, 'error', 'miningPool.validation.maxAccounts'],
  },
  '/api/v4/mining/accounts': { nameInvalid: [400, 0, 'name', 'Some error'] },
  '/api/card-token': {
    invalidCardNumber: [422, 1, 'cardNumber', 'The cardNumber field is invalid.'],
  },
};

/**
 * The operations whose refusals the operator files under statuses of its own, rather than
 * listing 400 and 422 without tying an example to either: their examples stay where it puts them
 * (`tradingRefusals` gives each one's status). The wallet's follow the main account's rule, 400
 * for request validation and 422 for business rules.
 */
export const operatorTiesStatuses = [
  '/api/v4/order/modify',
  '/api/v4/convert/estimate',
  '/api/v4/convert/confirm',
  '/api/v4/main-account/address',
  '/api/v4/main-account/create-new-address',
  '/api/v4/main-account/withdraw',
  '/api/v4/main-account/withdraw-pay',
  '/api/v4/main-account/transfer',
  '/api/v4/main-account/history',
  '/api/v4/main-account/fee',
  '/api/v4/main-account/codes',
  '/api/v4/main-account/codes/apply',
  '/api/v4/main-account/codes/my',
  '/api/v4/main-account/codes/history',
  '/api/v4/sub-account/create',
  '/api/v4/sub-account/edit',
  '/api/v4/sub-account/delete',
  '/api/v4/sub-account/list',
  '/api/v4/sub-account/block',
  '/api/v4/sub-account/unblock',
  '/api/v4/sub-account/balances',
  '/api/v4/sub-account/transfer',
  '/api/v4/sub-account/transfer/history',
  '/api/v4/mining/rewards',
  '/api/v4/mining/hashrate',
  '/api/v4/mining/payout-destination',
  '/api/v4/mining/payout-destination/edit',
  '/api/v4/mining/miners/info',
  '/api/v4/mining/workers/names',
  '/api/v4/mining/workers/hashrate',
  '/api/v4/mining/watcher-links/create',
  '/api/v4/mining/watcher-links/list',
  '/api/v4/mining/accounts/create',
  '/api/v4/mining/accounts',
  '/api/v4/credit-line/loans/info',
  '/api/v4/main-account/fiat-deposit-url',
  '/api/v4/main-account/refund-deposit',
  '/api/v4/main-account/express-withdraw/token',
  '/api/v4/jwt',
  '/api/card-token',
  '/api/v4/travel-rule/vasps',
  '/api/v4/travel-rule/deposit/verification',
  '/api/v4/sub-account/kyc-url',
  '/api/v4/sub-account/withdraw/unconfirmed-list',
  '/api/v4/sub-account/withdraw/confirm',
  '/api/v4/main-account/smart/plans',
  '/api/v4/main-account/smart/investment/close',
  '/api/v4/main-account/smart/investments',
  '/api/v4/main-account/smart/interest-payment-history',
  '/api/v4/main-account/smart-flex/plans',
  '/api/v4/main-account/smart-flex/investments',
  '/api/v4/main-account/smart-flex/investments/payment-history',
  '/api/v4/main-account/smart-flex/investments/invest',
  '/api/v4/main-account/smart-flex/investments/withdraw',
  '/api/v4/main-account/smart-flex/investments/close',
  '/api/v4/main-account/smart-flex/investments/auto-invest',
  '/api/v4/sub-account/api-key/create',
  '/api/v4/sub-account/api-key/edit',
  '/api/v4/sub-account/api-key/delete',
  '/api/v4/sub-account/api-key/list',
  '/api/v4/sub-account/api-key/reset',
  '/api/v4/sub-account/api-key/ip-address/list',
  '/api/v4/sub-account/api-key/ip-address/create',
  '/api/v4/sub-account/api-key/ip-address/delete',
];

/**
 * The refusal of a repeated `key` (the named example `refusal` of `path` in `tradingRefusals`), as
 * the operator shows its whole body: a validation failure naming the key's field.
 */
function repeatRefused(path: string, key: string, refusal: string) {
  const shown = tradingRefusals[path]?.[refusal];
  if (!shown) throw new Error(`tradingRefusals has no ${refusal} for ${path}`);
  const [status, code, field, message] = shown;
  return {
    key,
    refusal,
    status,
    value: { code, message: 'Validation failed', errors: { [field]: [message] } },
  };
}

/**
 * The writes the service refuses to carry out twice with the same value of a body field: the
 * field, and the named example of the refusal with its status. No order placement is among them
 * (`orderPlacing`).
 */
export const quoteConfirming: Record<
  string,
  { key: string; refusal: string; status: number; value: unknown }
> = {
  '/api/v4/convert/confirm': repeatRefused('/api/v4/convert/confirm', 'quoteId', 'quoteAlreadyUsed'),
  '/api/v4/main-account/withdraw': repeatRefused(
    '/api/v4/main-account/withdraw',
    'uniqueId',
    'duplicateUniqueId',
  ),
  '/api/v4/main-account/withdraw-pay': repeatRefused(
    '/api/v4/main-account/withdraw-pay',
    'uniqueId',
    'duplicateUniqueId',
  ),
  '/api/v4/main-account/fiat-deposit-url': repeatRefused(
    '/api/v4/main-account/fiat-deposit-url',
    'uniqueId',
    'uniqueIdTaken',
  ),
  // Observed upstream, a repeat with the same externalId answers the same token; a paid one is
  // refused with its code alone (the operator shows no body: the message is the document's).
  '/api/v4/main-account/express-withdraw/token': {
    key: 'externalId',
    refusal: 'externalIdPaid',
    status: 422,
    value: { code: 19, message: 'Inner validation failed' },
  },
};

/** How long a quote stays valid after it is made, in seconds, by the path that makes it. */
export const quoteValidSeconds: Record<string, number> = { '/api/v4/convert/estimate': 10 };

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
