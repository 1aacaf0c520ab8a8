// Type-level tests of the stream client: every method's params and result, every channel's
// subscribe params and update, come from the generated payloads; a wrong one does not compile.
import { describe, expectTypeOf, it } from 'vitest';
import type { components as PrivateMessages } from '../../generated/streams-private-v4.ts';
import type { components as PublicMessages } from '../../generated/streams-public-v4.ts';
import {
  createStreamClient,
  type OrderBookView,
  type RequestMethod,
  type StreamUpdate,
  type SubscribableChannel,
  watchOrderBook,
} from '../../src/streams/index.ts';

type Public = PublicMessages['schemas'];
type Private = PrivateMessages['schemas'];

describe('stream types', () => {
  const client = createStreamClient({ url: 'ws://127.0.0.1:1/ws' });

  it('a request`s params and result are its messages`', () => {
    expectTypeOf(client.request('depth_request', ['ETH_BTC', 100, '0'])).resolves.toEqualTypeOf<
      Public['DepthResult']['result']
    >();
    expectTypeOf(client.request('time', [])).resolves.toEqualTypeOf<Public['TimeResult']['result']>();
    expectTypeOf(client.request('balanceSpot_request', ['USDT'])).resolves.toEqualTypeOf<
      Private['BalanceSpotResult']['result']
    >();
    // @ts-expect-error the limit is a number
    void client.request('depth_request', ['ETH_BTC', '100', '0']);
    // @ts-expect-error a price interval the documents do not list
    void client.request('depth_request', ['ETH_BTC', 100, '0.5']);
    // @ts-expect-error subscribing is subscribe()'s
    void client.request('depth_subscribe', ['ETH_BTC', 100, '0', true]);
    // @ts-expect-error authorizing is the client's own
    void client.request('authorize', ['token', 'public']);
  });

  it('the request methods exclude subscribing, unsubscribing and authorizing', () => {
    expectTypeOf<
      Extract<RequestMethod, `${string}_subscribe` | `${string}_unsubscribe` | 'authorize'>
    >().toBeNever();
    expectTypeOf<'ping' | 'time' | 'depth_request' | 'deals_request'>().toExtend<RequestMethod>();
  });

  it('a subscription yields its channel`s update params', () => {
    const depth = client.subscribe('depth', ['ETH_BTC', 5, '0', true]);
    expectTypeOf(depth.next()).resolves.toEqualTypeOf<
      IteratorResult<Public['DepthUpdate']['params'], undefined>
    >();
    expectTypeOf<StreamUpdate<'lastprice'>>().toEqualTypeOf<Public['LastpriceUpdate']['params']>();
    expectTypeOf<StreamUpdate<'ordersPending'>>().toEqualTypeOf<Private['OrdersPendingUpdate']['params']>();
    // @ts-expect-error depth's limit is one of the listed values
    void client.subscribe('depth', ['ETH_BTC', 7, '0', true]);
    // @ts-expect-error the service channel has nothing to subscribe to
    void client.subscribe('service', []);
  });

  it('every channel with a subscribe request can be subscribed to, and only those', () => {
    expectTypeOf<SubscribableChannel>().toEqualTypeOf<
      | 'depth'
      | 'trades'
      | 'kline'
      | 'lastprice'
      | 'market'
      | 'marketToday'
      | 'bookTicker'
      | 'balanceSpot'
      | 'balanceMargin'
      | 'ordersPending'
      | 'ordersExecuted'
      | 'deals'
      | 'positions'
      | 'marginPositionsEvents'
      | 'borrows'
      | 'borrowsEvents'
    >();
  });

  it('watchOrderBook yields book views; levels are strings', () => {
    const books = watchOrderBook(client, { market: 'ETH_BTC', limit: 20 });
    expectTypeOf(books.next()).resolves.toEqualTypeOf<IteratorResult<OrderBookView, void>>();
    expectTypeOf<OrderBookView['bids'][number]>().toEqualTypeOf<readonly [price: string, amount: string]>();
    // @ts-expect-error a limit the depth channel does not take
    void watchOrderBook(client, { market: 'ETH_BTC', limit: 25 });
  });

  it('the token is a string or a function that gives one', () => {
    createStreamClient({ token: 'token' });
    createStreamClient({ token: async () => 'token' });
    // @ts-expect-error not a token
    createStreamClient({ token: 42 });
  });
});
