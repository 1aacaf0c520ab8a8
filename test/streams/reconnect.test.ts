// After the server drops a connection the client reconnects with backoff (jitter, capped),
// subscribes every live subscription again and says each step through its hooks; it gives up
// after the policy's tries, and then the iterations end with a typed error. Fake timers drive the
// backoff; the sockets are real.
import { describe, expect, it, vi } from 'vitest';
import { reconnectDelayMs } from '../../src/streams/backoff.ts';
import { StreamConnectionError } from '../../src/streams/index.ts';
import { hookRecorder } from './stream-server.ts';
import { streamSuite } from './suite.ts';

const { server, connect } = streamSuite({ fakeTimers: true });

describe('reconnect', () => {
  it('after a drop: reconnects after the backoff, subscribes again, and the updates go on', async () => {
    const recorder = hookRecorder();
    const client = connect({
      hooks: recorder.hooks,
      pingIntervalMs: 0,
      reconnect: { baseDelayMs: 1000, maxDelayMs: 8000 },
    });
    const subscription = client.subscribe('depth', ['ETH_BTC', 5, '0', false]);
    const first = await server.nextConnection();
    const subscribe = await first.next();
    first.confirm(subscribe);
    await subscription.ready;
    first.update('depth_update', [true, { timestamp: 1, asks: [], bids: [], event_time: 1 }, 'ETH_BTC']);
    expect((await subscription.next()).value?.[0]).toBe(true);

    const reconnecting = recorder.next('reconnect');
    first.terminate();
    const reconnect = await reconnecting;
    expect(reconnect).toMatchObject({ attempt: 1, errorKind: 'connection' });
    expect(reconnect.delayMs).toBeGreaterThanOrEqual(500);
    expect(reconnect.delayMs).toBeLessThanOrEqual(1000);
    expect(recorder.events.find((event) => event.name === 'close')).toMatchObject({
      connection: 1,
      reconnect: true,
      errorKind: 'connection',
    });
    // Nothing before the delay has passed.
    await vi.advanceTimersByTimeAsync((reconnect.delayMs as number) - 1);
    expect(server.connections).toHaveLength(1);
    const resubscribed = recorder.next('resubscribe');
    await vi.advanceTimersByTimeAsync(1);
    const second = await server.nextConnection();
    const again = await second.next();
    expect(again).toMatchObject({ method: 'depth_subscribe', params: ['ETH_BTC', 5, '0', false] });
    second.confirm(again);
    expect(await resubscribed).toEqual({ connection: 2, channel: 'depth' });
    second.update('depth_update', [true, { timestamp: 2, asks: [], bids: [], event_time: 2 }, 'ETH_BTC']);
    expect((await subscription.next()).value?.[1].timestamp).toBe(2);
    expect(recorder.names().filter((name) => name === 'open')).toHaveLength(2);
  });

  it('each failed try waits longer, within [step/2, step] of a doubling step, capped', async () => {
    const recorder = hookRecorder();
    const client = connect({
      hooks: recorder.hooks,
      pingIntervalMs: 0,
      reconnect: { baseDelayMs: 100, maxDelayMs: 400 },
    });
    const subscription = client.subscribe('lastprice', ['BTC_USDT']);
    const first = await server.nextConnection();
    first.confirm(await first.next());
    await subscription.ready;
    server.accepting = false;
    const delays: number[] = [];
    let next = recorder.next('reconnect');
    first.terminate();
    for (let attempt = 1; attempt <= 5; attempt++) {
      const event = await next;
      expect(event.attempt).toBe(attempt);
      delays.push(event.delayMs as number);
      next = recorder.next('reconnect');
      await vi.advanceTimersByTimeAsync(event.delayMs as number);
    }
    const sixth = await next;
    // The drop and each refused try count: steps 100, 200, 400, 400, 400.
    const steps = [100, 200, 400, 400, 400];
    delays.forEach((delay, index) => {
      expect(delay).toBeGreaterThanOrEqual((steps[index] as number) / 2);
      expect(delay).toBeLessThanOrEqual(steps[index] as number);
    });
    expect(server.refused).toBe(5);
    // Accepted again: the subscription comes back.
    server.accepting = true;
    const resubscribed = recorder.next('resubscribe');
    await vi.advanceTimersByTimeAsync(sixth.delayMs as number);
    const second = await server.nextConnection();
    second.confirm(await second.nextOf('lastprice_subscribe'));
    expect(await resubscribed).toMatchObject({ channel: 'lastprice' });
  });

  it('gives up after the policy`s tries: the iteration ends with a StreamConnectionError', async () => {
    const recorder = hookRecorder();
    const client = connect({
      hooks: recorder.hooks,
      pingIntervalMs: 0,
      reconnect: { attempts: 2, baseDelayMs: 100, maxDelayMs: 100 },
    });
    const subscription = client.subscribe('lastprice', ['BTC_USDT']);
    const first = await server.nextConnection();
    first.confirm(await first.next());
    await subscription.ready;
    server.accepting = false;
    const ended = subscription.next().catch((caught: unknown) => caught);
    let next = recorder.next('reconnect');
    first.terminate();
    await vi.advanceTimersByTimeAsync((await next).delayMs as number);
    next = recorder.next('reconnect');
    await vi.advanceTimersByTimeAsync((await next).delayMs as number);
    const error = await ended;
    expect(error).toBeInstanceOf(StreamConnectionError);
    expect((error as Error).message).toMatch(/after 2 tries/);
    expect(server.refused).toBe(2);
  });

  it('with reconnect off, a drop ends the iterations at once', async () => {
    const client = connect({ pingIntervalMs: 0, reconnect: false });
    const subscription = client.subscribe('lastprice', ['BTC_USDT']);
    const first = await server.nextConnection();
    first.confirm(await first.next());
    await subscription.ready;
    const ended = subscription.next().catch((caught: unknown) => caught);
    first.close(1001);
    const error = await ended;
    expect(error).toBeInstanceOf(StreamConnectionError);
    expect((error as StreamConnectionError).cause).toMatchObject({ code: 1001 });
  });

  it('without a live subscription, a drop is not reconnected until something needs the connection', async () => {
    const recorder = hookRecorder();
    const client = connect({ hooks: recorder.hooks, pingIntervalMs: 0 });
    const asked = client.request('time', []);
    const first = await server.nextConnection();
    first.answer(await first.next(), 1);
    await asked;
    const closed = recorder.next('close');
    first.terminate();
    expect(await closed).toMatchObject({ reconnect: false });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.connections).toHaveLength(1);
    const later = client.request('time', []);
    const second = await server.nextConnection();
    second.answer(await second.next(), 2);
    expect(await later).toBe(2);
  });
});

describe('reconnectDelayMs', () => {
  it('is half the step plus a random half, capped at maxDelayMs', () => {
    const policy = { attempts: Number.POSITIVE_INFINITY, baseDelayMs: 500, maxDelayMs: 30_000 };
    expect(reconnectDelayMs(policy, 1, () => 0)).toBe(250);
    expect(reconnectDelayMs(policy, 1, () => 1)).toBe(500);
    expect(reconnectDelayMs(policy, 4, () => 0.5)).toBe(3000);
    expect(reconnectDelayMs(policy, 100, () => 1)).toBe(30_000);
    expect(reconnectDelayMs(policy, 100, () => 0)).toBe(15_000);
  });
});
