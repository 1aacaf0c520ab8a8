// Subscriptions: each update's params in order as an async iterable; leaving the iteration
// unsubscribes; one live subscription per channel; a slow consumer's bounded buffer ends in a
// typed overflow error, never in unbounded memory.
import { describe, expect, it, vi } from 'vitest';
import {
  BufferOverflowError,
  StreamRequestError,
  StreamTimeoutError,
  SubscriptionConflictError,
} from '../../src/streams/index.ts';
import { hookRecorder } from './stream-server.ts';
import { streamSuite } from './suite.ts';

const { server, connect } = streamSuite();

describe('subscribe', () => {
  it('iterates the updates in order, and break unsubscribes with the channel method', async () => {
    const client = connect();
    const subscription = client.subscribe('lastprice', ['BTC_USDT']);
    const connection = await server.nextConnection();
    const request = await connection.next();
    expect(request).toMatchObject({ method: 'lastprice_subscribe', params: ['BTC_USDT'] });
    connection.confirm(request);
    await subscription.ready;
    for (const price of ['65432.10', '65433.00', '65431.5'])
      connection.update('lastprice_update', ['BTC_USDT', price]);
    const seen: string[] = [];
    for await (const [market, price] of subscription) {
      expect(market).toBe('BTC_USDT');
      seen.push(price);
      if (seen.length === 3) break;
    }
    // Decimal strings as the server wrote them, never Numbers.
    expect(seen).toEqual(['65432.10', '65433.00', '65431.5']);
    const unsubscribe = await connection.next();
    expect(unsubscribe).toMatchObject({ method: 'lastprice_unsubscribe', params: [] });
  });

  it('an update waits for the consumer, and one the consumer waits for arrives at once', async () => {
    const client = connect();
    const subscription = client.subscribe('trades', ['ETH_BTC']);
    const connection = await server.nextConnection();
    connection.confirm(await connection.next());
    const waiting = subscription.next();
    const trade = { id: 1, time: 1, price: '0.02', amount: '1', type: 'buy' };
    connection.update('trades_update', ['ETH_BTC', [trade]]);
    expect(await waiting).toEqual({ done: false, value: ['ETH_BTC', [trade]] });
    await subscription.close();
    expect(await subscription.next()).toEqual({ done: true, value: undefined });
  });

  it('a second live subscription to a channel is refused; after the first ends, it is allowed', async () => {
    const recorder = hookRecorder();
    const client = connect({ hooks: recorder.hooks });
    const first = client.subscribe('lastprice', ['BTC_USDT']);
    const second = client.subscribe('lastprice', ['ETH_USDT']);
    await expect(second.next()).rejects.toBeInstanceOf(SubscriptionConflictError);
    await expect(second.ready).rejects.toMatchObject({ kind: 'subscription-conflict', channel: 'lastprice' });
    expect(recorder.events.find((event) => event.name === 'error')).toMatchObject({
      errorKind: 'subscription-conflict',
    });
    const connection = await server.nextConnection();
    connection.confirm(await connection.next());
    await first.ready;
    await first.close();
    const third = client.subscribe('lastprice', ['ETH_USDT']);
    expect(await connection.next()).toMatchObject({ method: 'lastprice_unsubscribe' });
    const again = await connection.next();
    expect(again).toMatchObject({ method: 'lastprice_subscribe', params: ['ETH_USDT'] });
    connection.confirm(again);
    await third.ready;
  });

  it('a refused subscribe ends the iteration with a StreamRequestError', async () => {
    const client = connect();
    const subscription = client.subscribe('market', ['NOPE_USDT']);
    const connection = await server.nextConnection();
    connection.refuse(await connection.next(), { code: 2, message: 'invalid argument' });
    const error = await subscription.next().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StreamRequestError);
    expect(await subscription.next()).toEqual({ done: true, value: undefined });
  });

  it('a subscribe never answered ends the iteration with a StreamTimeoutError at its deadline', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const client = connect({ requestTimeoutMs: 3000, pingIntervalMs: 0 });
    const subscription = client.subscribe('market', ['BTC_USDT']);
    const ended = subscription.next().catch((caught: unknown) => caught);
    const connection = await server.nextConnection();
    expect(await connection.next()).toMatchObject({ method: 'market_subscribe' });
    await vi.advanceTimersByTimeAsync(2999);
    expect(subscription.live).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    const error = await ended;
    expect(error).toBeInstanceOf(StreamTimeoutError);
    expect(error).toMatchObject({ method: 'market_subscribe', timeoutMs: 3000, sent: true });
  });

  it('a consumer that falls behind gets a BufferOverflowError at its next step and is unsubscribed', async () => {
    const recorder = hookRecorder();
    const client = connect({ bufferSize: 3, hooks: recorder.hooks });
    const subscription = client.subscribe('lastprice', ['BTC_USDT']);
    const connection = await server.nextConnection();
    connection.confirm(await connection.next());
    await subscription.ready;
    const overflowed = recorder.next('error');
    // Four updates for a buffer of three, none taken.
    for (const price of ['1', '2', '3', '4']) connection.update('lastprice_update', ['BTC_USDT', price]);
    expect(await overflowed).toMatchObject({ errorKind: 'buffer-overflow' });
    const error = await subscription.next().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BufferOverflowError);
    expect(error).toMatchObject({ channel: 'lastprice', bufferSize: 3 });
    expect(await subscription.next()).toEqual({ done: true, value: undefined });
    expect(await connection.next()).toMatchObject({ method: 'lastprice_unsubscribe' });
  });

  it('updates within the bound are all kept for a consumer that catches up', async () => {
    const client = connect({ bufferSize: 3 });
    const subscription = client.subscribe('lastprice', ['BTC_USDT']);
    const connection = await server.nextConnection();
    connection.confirm(await connection.next());
    await subscription.ready;
    for (const price of ['1', '2', '3']) connection.update('lastprice_update', ['BTC_USDT', price]);
    // A request's answer sent after the updates arrives after them: they are all buffered.
    const time = client.request('time', []);
    connection.answer(await connection.next(), 1);
    await time;
    const prices: string[] = [];
    for await (const [, price] of subscription) {
      prices.push(price);
      if (prices.length === 3) break;
    }
    expect(prices).toEqual(['1', '2', '3']);
  });

  it('an AbortSignal ends the subscription as break does', async () => {
    const client = connect();
    const controller = new AbortController();
    const subscription = client.subscribe('bookTicker', ['BTC_USDT'], { signal: controller.signal });
    const connection = await server.nextConnection();
    connection.confirm(await connection.next());
    await subscription.ready;
    const waiting = subscription.next();
    controller.abort();
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(await connection.next()).toMatchObject({ method: 'bookTicker_unsubscribe', params: [] });
  });

  it('close() finishes every iteration', async () => {
    const client = connect();
    const subscription = client.subscribe('kline', ['BTC_USDT', 900]);
    const connection = await server.nextConnection();
    connection.confirm(await connection.next());
    await subscription.ready;
    const waiting = subscription.next();
    await client.close();
    expect(await waiting).toEqual({ done: true, value: undefined });
  });
});
