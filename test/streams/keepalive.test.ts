// Keepalive: a ping every `pingIntervalMs` after the last pong (by default half the documents'
// idle limit), and a ping left unanswered past `pongTimeoutMs` is a half-open socket: a typed
// error, then a new connection. Fake timers drive the pings; the sockets are real.
import { describe, expect, it, vi } from 'vitest';
import { streamKeepalive } from '../../generated/streams.ts';
import { PongTimeoutError, StreamConnectionError } from '../../src/streams/index.ts';
import { hookRecorder } from './stream-server.ts';
import { streamSuite } from './suite.ts';

const { server, connect } = streamSuite({ answerPings: false, fakeTimers: true });

describe('keepalive', () => {
  it('pings at the documents` pace: half the idle limit after the opening, then after each pong', async () => {
    const client = connect();
    const interval = (streamKeepalive.idleCloseSeconds * 1000) / 2;
    expect(client.options.pingIntervalMs).toBe(interval);
    const asked = client.request('time', []);
    const connection = await server.nextConnection();
    connection.answer(await connection.next(), 1);
    await asked;
    await vi.advanceTimersByTimeAsync(interval - 1);
    expect(connection.received.map((message) => message.method)).toEqual(['time']);
    await vi.advanceTimersByTimeAsync(1);
    const ping = await connection.next();
    expect(ping).toMatchObject({ method: streamKeepalive.method, params: [] });
    connection.answer(ping, 'pong');
    // The next one comes an interval after the pong, not before.
    const time = client.request('time', []);
    connection.answer(await connection.next(), 2);
    await time;
    await vi.advanceTimersByTimeAsync(interval - 1);
    expect(connection.received.filter((message) => message.method === 'ping')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await connection.next()).toMatchObject({ method: 'ping' });
  });

  it('no pong within pongTimeoutMs: a PongTimeoutError, the connection dropped, a new one subscribed', async () => {
    const recorder = hookRecorder();
    const client = connect({
      hooks: recorder.hooks,
      pingIntervalMs: 1000,
      pongTimeoutMs: 500,
    });
    const subscription = client.subscribe('lastprice', ['BTC_USDT']);
    const first = await server.nextConnection();
    first.confirm(await first.next());
    await subscription.ready;
    const inFlight = client.request('time', []).catch((caught: unknown) => caught);
    await first.nextOf('time');
    await vi.advanceTimersByTimeAsync(1000);
    await first.nextOf('ping');
    const reported = recorder.next('error');
    await vi.advanceTimersByTimeAsync(499);
    expect(recorder.events.filter((event) => event.name === 'error')).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    const event = await reported;
    expect(event.error).toBeInstanceOf(PongTimeoutError);
    expect(event).toMatchObject({ errorKind: 'pong-timeout' });
    // The request on the half-open connection ends with the reason.
    const error = await inFlight;
    expect(error).toBeInstanceOf(StreamConnectionError);
    expect((error as Error).cause).toBeInstanceOf(PongTimeoutError);
    expect(await first.closed).toBeGreaterThan(0);
    const reconnect = recorder.events.find((each) => each.name === 'reconnect');
    expect(reconnect).toMatchObject({ errorKind: 'pong-timeout' });
    await vi.advanceTimersByTimeAsync(reconnect?.delayMs as number);
    const second = await server.nextConnection();
    expect(await second.next()).toMatchObject({ method: 'lastprice_subscribe' });
  });

  it('pingIntervalMs 0 sends no pings', async () => {
    const client = connect({ pingIntervalMs: 0 });
    const asked = client.request('time', []);
    const connection = await server.nextConnection();
    connection.answer(await connection.next(), 1);
    await asked;
    await vi.advanceTimersByTimeAsync(10 * streamKeepalive.idleCloseSeconds * 1000);
    expect(connection.received.map((message) => message.method)).toEqual(['time']);
  });
});
