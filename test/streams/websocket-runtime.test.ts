// Which WebSocket the client uses: `#websocket` on Node takes the global one where Node has it
// (22 and later) and undici's on Node 20, which has none; elsewhere the runtime's own. Each one the
// client may be given works end to end against a real server, and where runtimes' WebSockets report
// the same thing differently (seen in `npm run test:package`'s runtimes), the client says it the
// same way on each.

import { WebSocket as UndiciWebSocket } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { timeLimits } from '../../scripts/time-limits.ts';
import { ConfigurationError } from '../../src/errors.ts';
import {
  type StreamClient,
  StreamConnectionError,
  type WebSocketConstructor,
  type WebSocketLike,
} from '../../src/streams/index.ts';
import type { SocketCloseEvent, SocketMessageEvent } from '../../src/streams/socket.ts';
import { createDefaultSocketOpener as globalOpener } from '../../src/streams/websocket-global.ts';
import { createDefaultSocketOpener as nodeOpener } from '../../src/streams/websocket-node.ts';
import { hookRecorder } from './stream-server.ts';
import { streamSuite } from './suite.ts';

const limits = { maxMessageBytes: 1024 };
const nodeMajor = Number(process.versions.node.split('.')[0]);

const { server, connect } = streamSuite();

/** A round trip and an update through `client`. */
async function roundTrip(subject: StreamClient): Promise<void> {
  const subscription = subject.subscribe('lastprice', ['BTC_USDT']);
  const connection = await server.nextConnection();
  connection.confirm(await connection.next());
  await subscription.ready;
  connection.update('lastprice_update', ['BTC_USDT', '65432.10']);
  expect((await subscription.next()).value).toEqual(['BTC_USDT', '65432.10']);
  const time = subject.request('time', []);
  connection.answer(await connection.next(), 1493285895);
  expect(await time).toBe(1493285895);
}

describe('the WebSocket a runtime gets', () => {
  it.runIf(nodeMajor === 20)(
    'Node 20 has no global WebSocket: undici`s, and the default client works with it',
    async () => {
      expect((globalThis as { WebSocket?: unknown }).WebSocket).toBeUndefined();
      const opener = await nodeOpener(limits);
      expect(opener.kind).toBe('undici');
      await opener.close();
      const recorder = hookRecorder();
      const client = connect({ hooks: recorder.hooks });
      await roundTrip(client);
      expect(recorder.events.find((event) => event.name === 'open')).toMatchObject({ webSocket: 'undici' });
    },
  );

  it('undici`s WebSocket given as the class works too', async () => {
    const recorder = hookRecorder();
    const client = connect({
      webSocket: UndiciWebSocket as unknown as WebSocketConstructor,
      hooks: recorder.hooks,
    });
    expect(client.options.webSocket).toBe('custom');
    await roundTrip(client);
    // The open hook says which WebSocket each connection is, as a runtime's package test asserts.
    expect(recorder.events.filter((event) => event.name === 'open')).toEqual([
      { name: 'open', connection: 1, attempt: 1, webSocket: 'custom' },
    ]);
  });

  it('where the runtime has a global WebSocket, Node`s choice and the others` take it, and undici is not used', async () => {
    const opened: string[] = [];
    class CountingWebSocket extends WsWebSocket {
      constructor(url: string) {
        super(url);
        opened.push(url);
      }
    }
    vi.stubGlobal('WebSocket', CountingWebSocket);
    const node = await nodeOpener(limits);
    const other = await globalOpener(limits);
    expect([node.kind, other.kind]).toEqual(['global', 'global']);
    const recorder = hookRecorder();
    const client = connect({ hooks: recorder.hooks });
    await roundTrip(client);
    expect(opened).toEqual([server.url]);
    expect(recorder.events.find((event) => event.name === 'open')).toMatchObject({ webSocket: 'global' });
  });

  it('a runtime with no WebSocket at all: a ConfigurationError naming the option to give', async () => {
    vi.stubGlobal('WebSocket', undefined);
    await expect(globalOpener(limits)).rejects.toBeInstanceOf(ConfigurationError);
    await expect(globalOpener(limits)).rejects.toMatchObject({ field: 'webSocket' });
  });
});

/**
 * `ws`'s WebSocket with its close events as another runtime reports them: `shown` gives the event
 * a listener sees (undefined: none), knowing whether the socket had opened.
 */
function reportingCloseAs(
  shown: (event: SocketCloseEvent, opened: boolean) => SocketCloseEvent | undefined,
): WebSocketConstructor {
  return class implements WebSocketLike {
    private readonly socket: WsWebSocket;
    private opened = false;
    constructor(url: string) {
      this.socket = new WsWebSocket(url);
      this.socket.addEventListener('open', () => {
        this.opened = true;
      });
    }
    get readyState() {
      return this.socket.readyState;
    }
    get binaryType() {
      return this.socket.binaryType;
    }
    set binaryType(type: string) {
      this.socket.binaryType = type as WsWebSocket['binaryType'];
    }
    send(data: string) {
      this.socket.send(data);
    }
    close(code?: number, reason?: string) {
      this.socket.close(code, reason);
    }
    addEventListener(
      type: 'open' | 'message' | 'close' | 'error',
      listener: (event: SocketMessageEvent & SocketCloseEvent) => void,
    ) {
      if (type !== 'close') {
        this.socket.addEventListener(type, listener as () => void);
        return;
      }
      this.socket.addEventListener('close', (event) => {
        const seen = shown({ code: event.code, reason: event.reason }, this.opened);
        if (seen) listener({ data: undefined, ...seen });
      });
    }
  };
}

describe('where runtimes` WebSockets differ', () => {
  it('an opening refused with an error event and no close event (Node 22`s) fails at once, with code 1006', async () => {
    // Node 22's WebSocket (its undici 6) fires `error` and no `close` when the handshake fails, and
    // stays CONNECTING; waiting for the close would wait for connectTimeoutMs, set far beyond the
    // request's deadline here, so only the error event can end the try before it.
    server.accepting = false;
    const client = connect({
      webSocket: reportingCloseAs((event, opened) => (opened ? event : undefined)),
      requestTimeoutMs: timeLimits.streamMessageMs,
      connectTimeoutMs: timeLimits.streamMessageMs * 10,
      reconnect: false,
    });
    const error = await client.request('time', []).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StreamConnectionError);
    expect((error as Error).message).toMatch(/after 1 try/);
    expect((error as StreamConnectionError).cause).toMatchObject({
      kind: 'connection',
      code: 1006,
      message: `could not connect to ${server.url}`,
    });
    expect(server.refused).toBe(1);
  });

  it('a drop without a close frame that Deno reports as code 0 is reported as 1006, as elsewhere', async () => {
    const recorder = hookRecorder();
    const asDeno = (event: SocketCloseEvent) => (event.code === 1006 ? { ...event, code: 0 } : event);
    const client = connect({
      webSocket: reportingCloseAs(asDeno),
      hooks: recorder.hooks,
      reconnect: false,
    });
    const subscription = client.subscribe('lastprice', ['BTC_USDT']);
    const connection = await server.nextConnection();
    connection.confirm(await connection.next());
    await subscription.ready;
    const closing = recorder.next('close');
    const ended = subscription.next().catch((caught: unknown) => caught);
    connection.terminate();
    expect(await closing).toMatchObject({ code: 1006, errorKind: 'connection', reconnect: false });
    expect(((await ended) as StreamConnectionError).cause).toMatchObject({
      code: 1006,
      message: 'the connection closed (code 1006)',
    });
  });

  it('a close code a close frame carries is reported as it is', async () => {
    const recorder = hookRecorder();
    const client = connect({ hooks: recorder.hooks, reconnect: false });
    const subscription = client.subscribe('lastprice', ['BTC_USDT']);
    const connection = await server.nextConnection();
    connection.confirm(await connection.next());
    await subscription.ready;
    const closing = recorder.next('close');
    connection.close(4001);
    expect(await closing).toMatchObject({ code: 4001 });
  });
});
