// Which WebSocket the client uses: `#websocket` on Node takes the global one where Node has it
// (22 and later) and undici's on Node 20, which has none; elsewhere the runtime's own. Each one the
// client may be given works end to end against a real server.

import { WebSocket as UndiciWebSocket } from 'undici';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { ConfigurationError } from '../../src/errors.ts';
import { createStreamClient, type StreamClient, type WebSocketConstructor } from '../../src/streams/index.ts';
import { createDefaultSocketOpener as globalOpener } from '../../src/streams/websocket-global.ts';
import { createDefaultSocketOpener as nodeOpener } from '../../src/streams/websocket-node.ts';
import { hookRecorder, type StreamServer, startStreamServer } from './stream-server.ts';

const limits = { maxMessageBytes: 1024 };
const nodeMajor = Number(process.versions.node.split('.')[0]);

let server: StreamServer;
let client: StreamClient | undefined;
beforeEach(async () => {
  server = await startStreamServer();
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await client?.close();
  client = undefined;
  await server.close();
});

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
      client = createStreamClient({ url: server.url, hooks: recorder.hooks });
      await roundTrip(client);
      expect(recorder.events.find((event) => event.name === 'open')).toMatchObject({ webSocket: 'undici' });
    },
  );

  it('undici`s WebSocket given as the class works too', async () => {
    const recorder = hookRecorder();
    client = createStreamClient({
      url: server.url,
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
    client = createStreamClient({ url: server.url, hooks: recorder.hooks });
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
