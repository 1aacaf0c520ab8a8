// A strict TypeScript consumer of the installed package's declarations.
import createClient from 'openapi-fetch';
import { ActionType, type ApiError, createPrivateClient, type PrivateApi, unwrap } from 'txc-api-v4';
import { type CallerPaths, createSigningMiddleware } from 'txc-api-v4/middleware';
import { operations } from 'txc-api-v4/operations';
import { createStreamClient, type OpenEvent, watchOrderBook } from 'txc-api-v4/streams';

const client = createPrivateClient({ apiKey: 'key', apiSecret: 'secret', baseUrl: 'http://127.0.0.1:1' });
export async function calls(): Promise<string[]> {
  const balances = await unwrap(client.POST('/api/v4/main-account/balance'));
  const history = await client.POST('/api/v4/main-account/smart-flex/investments/history', {
    body: { actionTypes: [ActionType.INVEST], limit: 10 },
  });
  if (history.error) {
    const error: ApiError = history.error;
    return [error.kind];
  }
  // @ts-expect-error the client writes nonce itself
  await client.POST('/api/v4/main-account/balance', { body: { nonce: '1' } });
  const rows: PrivateApi.components['schemas']['ActionType'][] = history.data.data.map(
    (row) => row.actionType,
  );
  return [...Object.keys(balances), ...rows.map(String), operations.getMainBalance.path];
}

const signed = createClient<CallerPaths>({ baseUrl: 'http://127.0.0.1:1' });
signed.use(createSigningMiddleware({ apiKey: 'key', apiSecret: 'secret', nonceWindow: true }));
export const summary = signed.POST('/api/v4/collateral-account/balance-summary', { body: { ticker: 'BTC' } });
// @ts-expect-error an investment without its required planId does not type-check
export const missing = signed.POST('/api/v4/main-account/smart/investment', { body: { amount: '1' } });

// The stream client: each channel's update, a request's result and the book, typed from the documents.
const kinds: OpenEvent['webSocket'][] = [];
const streams = createStreamClient({
  url: 'ws://127.0.0.1:1/ws',
  hooks: { open: [(event) => kinds.push(event.webSocket)] },
});
export async function stream(): Promise<string[]> {
  const time: number = await streams.request('time', []);
  for await (const [market, price] of streams.subscribe('lastprice', ['BTC_USDT'])) {
    // @ts-expect-error a price is a decimal string, never a number
    const asNumber: number = price;
    return [market, price, String(time), String(asNumber), ...kinds];
  }
  for await (const book of watchOrderBook(streams, { market: 'BTC_USDT' })) {
    const best: readonly [string, string] | undefined = book.bids[0];
    return best ? [...best] : [];
  }
  // @ts-expect-error a channel the documents do not have
  streams.subscribe('candles', ['BTC_USDT']);
  return [];
}
