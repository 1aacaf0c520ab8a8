// The default WebSocket on Node (the `node` condition of `#websocket` in package.json): Node's
// global one where it has one (22 and later), else undici's (Node 20), loaded only then.
//
// undici's is given a ceiling on frames, twice `maxMessageBytes`: a frame over it is refused as
// its header arrives, before it is read into memory (undici closes with 1009 towards the server,
// but reports only a dropped connection, 1006, to its own listeners). A frame between the limit
// and the ceiling is read, and the client refuses it with a FrameTooLargeError (frames.ts), as it
// does with every other WebSocket, which can only check a frame once it has arrived whole.
import type { SocketLimits, SocketOpener, WebSocketConstructor } from './socket.ts';
import { constructorOpener } from './socket.ts';

export async function createDefaultSocketOpener(limits: SocketLimits): Promise<SocketOpener> {
  const global = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (typeof global === 'function') return { ...constructorOpener(global), kind: 'global' };
  const { Agent, WebSocket } = await import('undici');
  const dispatcher = new Agent({ webSocket: { maxPayloadSize: limits.maxMessageBytes * 2 } });
  return {
    kind: 'undici',
    open: (url) => new WebSocket(url, { dispatcher }),
    close: () => dispatcher.close().catch(() => undefined),
  };
}
