// The default WebSocket of every runtime but Node (the other conditions of `#websocket` in
// package.json: browsers, workers, Deno, Bun): the runtime's own. No `node:` module and no undici
// is reachable from here, so a bundler with default settings never sees them.
import { ConfigurationError } from '../errors.ts';
import {
  constructorOpener,
  type SocketLimits,
  type SocketOpener,
  type WebSocketConstructor,
} from './socket.ts';

/** The runtime's WebSocket; `limits` are checked by the client as each frame arrives. */
export function createDefaultSocketOpener(_limits: SocketLimits): Promise<SocketOpener> {
  const WebSocket = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (typeof WebSocket !== 'function') {
    return Promise.reject(
      new ConfigurationError('webSocket', 'this runtime has no global WebSocket; pass a WebSocket class'),
    );
  }
  return Promise.resolve({ ...constructorOpener(WebSocket), kind: 'global' });
}
