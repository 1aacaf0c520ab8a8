// Type-level tests, run by vitest's typecheck mode (npm run test:unit): each assertion, and each
// expected compile error, fails the run when the types change (test/typecheck/ proves it can).
import { describe, expectTypeOf, it } from 'vitest';
import {
  ActionType,
  type CallerBody,
  createPrivateClient,
  createPublicClient,
  type PrivateResult,
} from '../../src/index.ts';
import {
  type cancelAllPath,
  historyPath,
  investPath,
  mainBalancePath,
  orderBookPath,
  pingPath,
} from './paths.ts';

describe('types', () => {
  it('a fiat-gateway call takes the gateway token, required, beside its body', () => {
    const client = createPrivateClient({ apiKey: 'k', apiSecret: 's', baseUrl: 'http://127.0.0.1:1' });
    void client.POST('/api/card-token', { body: { cardNumber: '4111111111111111' }, gatewayToken: 't' });
    // @ts-expect-error the gateway token is required
    void client.POST('/api/card-token', { body: { cardNumber: '4111111111111111' } });
    // @ts-expect-error the card number is required
    void client.POST('/api/card-token', { body: {}, gatewayToken: 't' });
    // @ts-expect-error a signed call takes no gateway token
    void client.POST(mainBalancePath, { body: {}, gatewayToken: 't' });
  });

  it("a GET's parameters are required where its path has one, typed, and absent where it has none", () => {
    const client = createPublicClient({ baseUrl: 'http://127.0.0.1:1' });
    void client.GET(orderBookPath, { params: { path: { market: 'BTC_USDT' }, query: { limit: 5 } } });
    // @ts-expect-error the path's market is required
    void client.GET(orderBookPath);
    // @ts-expect-error limit is a number
    void client.GET(orderBookPath, { params: { path: { market: 'BTC_USDT' }, query: { limit: '5' } } });
    // @ts-expect-error no such query parameter
    void client.GET(orderBookPath, { params: { path: { market: 'BTC_USDT' }, query: { depth: 5 } } });
    void client.GET(pingPath);
    // @ts-expect-error ping takes no parameters
    void client.GET(pingPath, { params: { query: { limit: 5 } } });
  });

  it('callers write neither request nor nonce, and keep every other field typed', () => {
    expectTypeOf<CallerBody<typeof investPath>>().toEqualTypeOf<{ planId: string; amount: string }>();
    for (const signed of ['request', 'nonce', 'nonceWindow'] as const) {
      expectTypeOf<Extract<keyof CallerBody<typeof historyPath>, typeof signed>>().toBeNever();
    }
    expectTypeOf<CallerBody<typeof historyPath>>().not.toHaveProperty('request');
    expectTypeOf<CallerBody<typeof historyPath>>().not.toHaveProperty('nonce');
    expectTypeOf<CallerBody<typeof historyPath>['actionTypes']>().toEqualTypeOf<ActionType[] | undefined>();
    expectTypeOf<CallerBody<typeof cancelAllPath>['type']>().toEqualTypeOf<
      ('spot' | 'margin' | 'futures')[] | undefined
    >();
    expectTypeOf<NonNullable<PrivateResult<typeof investPath>['data']>>().toEqualTypeOf<{ id: string }>();
  });

  it('rejects at compile time what the documents forbid', () => {
    const client = createPrivateClient({ apiKey: 'k', apiSecret: 's', baseUrl: 'http://127.0.0.1:9' });
    // Type-checked, never run: typecheck mode does not execute test-d files.
    // @ts-expect-error invest needs a body with planId and amount
    client.POST(investPath);
    // @ts-expect-error amounts are decimal strings, never numbers
    client.POST(investPath, { body: { planId: 'p', amount: 100 } });
    // @ts-expect-error action types are 1..6
    client.POST(historyPath, { body: { actionTypes: [7] } });
    // @ts-expect-error not an operation of the documents
    client.POST('/api/v4/unknown');
    // @ts-expect-error the client writes the nonce; a caller may not
    client.POST(historyPath, { body: { nonce: '1' } });
    // @ts-expect-error the client writes request; a caller may not
    client.POST(mainBalancePath, { body: { request: mainBalancePath } });
    client.POST(mainBalancePath);
    client.POST(historyPath, { body: { actionTypes: [ActionType.INVEST, ActionType.DAILY_EARNING] } });
  });
});
