// Hostile input: a frame that is not JSON or not a message of the protocol, a frame over the size
// limit (refused by undici as it arrives, or checked on arrival for any other WebSocket), and a
// server that accepts the TCP connection but never answers the handshake. Each is a typed error
// within its deadline; none crashes the client or leaves a rejection unhandled (vitest fails a
// run that has one).

import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import {
  FrameTooLargeError,
  MalformedFrameError,
  StreamConnectionError,
  StreamTimeoutError,
  type WebSocketConstructor,
} from '../../src/streams/index.ts';
import { hookRecorder } from './stream-server.ts';
import { streamSuite } from './suite.ts';

const { server, connect } = streamSuite();

describe('malformed frames', () => {
  it.each([
    ['not JSON', 'not json {'],
    ['not a message of the protocol', '[1, 2, 3]'],
    ['not a message of the protocol', '{"hello":"world"}'],
  ])(
    '%s (%s): a MalformedFrameError, the connection dropped, the request ended with it as cause',
    async (reason, frame) => {
      const recorder = hookRecorder();
      const client = connect({ hooks: recorder.hooks });
      const asked = client.request('time', []).catch((caught: unknown) => caught);
      const connection = await server.nextConnection();
      await connection.next();
      const reported = recorder.next('error');
      connection.sendRaw(frame);
      const event = await reported;
      expect(event.error).toBeInstanceOf(MalformedFrameError);
      expect((event.error as Error).message).toContain(reason);
      expect((event.error as MalformedFrameError).excerpt).toBe(frame);
      const error = await asked;
      expect(error).toBeInstanceOf(StreamConnectionError);
      expect((error as Error).cause).toBe(event.error);
      expect(await connection.closed).toBeGreaterThan(0);
    },
  );

  it('a live subscription is subscribed again on a new connection after a malformed frame', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const recorder = hookRecorder();
    const client = connect({ hooks: recorder.hooks, pingIntervalMs: 0 });
    const subscription = client.subscribe('bookTicker', ['BTC_USDT']);
    const first = await server.nextConnection();
    first.confirm(await first.next());
    await subscription.ready;
    const reconnecting = recorder.next('reconnect');
    first.sendRaw('{"id": null, "method": "bookTicker_update", "params": [');
    expect(await reconnecting).toMatchObject({ errorKind: 'malformed-frame' });
    await vi.advanceTimersByTimeAsync((recorder.events.at(-1)?.delayMs as number) ?? 0);
    const second = await server.nextConnection();
    expect(await second.next()).toMatchObject({ method: 'bookTicker_subscribe' });
  });

  it('a binary frame holding a message is read as UTF-8 text', async () => {
    const client = connect();
    const asked = client.request('time', []);
    const connection = await server.nextConnection();
    const request = await connection.next();
    connection.sendRaw(Buffer.from(JSON.stringify({ id: request.id, result: 7, error: null })));
    expect(await asked).toBe(7);
  });
});

describe('oversized frames', () => {
  const big = (id: unknown, size: number) => JSON.stringify({ id, result: 'x'.repeat(size), error: null });

  it('over maxMessageBytes: a FrameTooLargeError, the connection dropped, the next one reads on', async () => {
    const recorder = hookRecorder();
    const client = connect({ maxMessageBytes: 1024, hooks: recorder.hooks });
    const asked = client.request('time', []).catch((caught: unknown) => caught);
    const connection = await server.nextConnection();
    const request = await connection.next();
    const reported = recorder.next('error');
    connection.sendRaw(big(request.id, 1500));
    const event = await reported;
    expect(event.error).toBeInstanceOf(FrameTooLargeError);
    expect(event.error).toMatchObject({ limitBytes: 1024 });
    expect(await asked).toBeInstanceOf(StreamConnectionError);
    // A frame within the limit, on the next connection, is read.
    const again = client.request('time', []);
    const second = await server.nextConnection();
    second.answer(await second.next(), 1);
    expect(await again).toBe(1);
  });

  it('far over it, undici refuses the frame as its header arrives (1009), before reading it', async () => {
    const recorder = hookRecorder();
    const client = connect({ maxMessageBytes: 1024, hooks: recorder.hooks });
    const asked = client.request('time', []).catch((caught: unknown) => caught);
    const connection = await server.nextConnection();
    const request = await connection.next();
    connection.sendRaw(big(request.id, 64 * 1024));
    expect(await connection.closed).toBe(1009);
    expect(await asked).toBeInstanceOf(StreamConnectionError);
  });

  it('any other WebSocket: the frame is checked as it arrives, with the same error', async () => {
    const recorder = hookRecorder();
    const client = connect({
      maxMessageBytes: 1024,
      hooks: recorder.hooks,
      webSocket: WsWebSocket as unknown as WebSocketConstructor,
    });
    const asked = client.request('time', []).catch((caught: unknown) => caught);
    const connection = await server.nextConnection();
    const request = await connection.next();
    const reported = recorder.next('error');
    connection.sendRaw(big(request.id, 64 * 1024));
    expect((await reported).error).toBeInstanceOf(FrameTooLargeError);
    expect(await asked).toBeInstanceOf(StreamConnectionError);
  });

  it('a multi-byte frame is measured in UTF-8 bytes, not characters', async () => {
    const recorder = hookRecorder();
    const client = connect({ maxMessageBytes: 1024, hooks: recorder.hooks });
    const asked = client.request('time', []).catch((caught: unknown) => caught);
    const connection = await server.nextConnection();
    const request = await connection.next();
    const reported = recorder.next('error');
    // 400 characters of three bytes each: 1200 bytes.
    connection.send({ id: request.id, result: '€'.repeat(400), error: null });
    expect((await reported).error).toBeInstanceOf(FrameTooLargeError);
    expect(await asked).toBeInstanceOf(StreamConnectionError);
  });
});

describe('a server that never answers the handshake', () => {
  let silent: ReturnType<typeof createServer>;
  const sockets = new Set<Socket>();
  beforeEach(async () => {
    silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('the connection try ends at connectTimeoutMs; the request at its own deadline, unsent', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const recorder = hookRecorder();
    const { port } = silent.address() as AddressInfo;
    const client = connect({
      url: `ws://127.0.0.1:${port}/ws`,
      hooks: recorder.hooks,
      connectTimeoutMs: 1000,
      requestTimeoutMs: 1500,
    });
    const arrived = new Promise((resolve) => silent.once('connection', resolve));
    const asked = client.request('time', []).catch((caught: unknown) => caught);
    await arrived;
    const reported = recorder.next('error');
    await vi.advanceTimersByTimeAsync(1000);
    const connectError = (await reported).error;
    expect(connectError).toBeInstanceOf(StreamConnectionError);
    expect((connectError as Error).message).toContain('within 1000 ms');
    await vi.advanceTimersByTimeAsync(500);
    const error = await asked;
    expect(error).toBeInstanceOf(StreamTimeoutError);
    expect(error).toMatchObject({ sent: false, timeoutMs: 1500 });
    expect((error as Error).cause).toBe(connectError);
  });
});
