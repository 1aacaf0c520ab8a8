// The WebSocket seam: the client needs only what the WHATWG WebSocket offers (browsers, Deno, Bun,
// Node 22+, undici's on Node 20, and `ws`'s, which implements the same events), so any of them
// plugs in. Which one a runtime gets by default is the `#websocket` import's choice (package.json),
// as `#transport` chooses the HTTP transport: a browser never loads undici.

/** The events the client listens to, as WHATWG WebSockets deliver them. */
export interface SocketMessageEvent {
  readonly data: unknown;
}
export interface SocketCloseEvent {
  readonly code?: number;
  readonly reason?: string;
}

/** What the client uses of a WebSocket. */
export interface WebSocketLike {
  readonly readyState: number;
  binaryType: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: SocketMessageEvent) => void): void;
  addEventListener(type: 'close', listener: (event: SocketCloseEvent) => void): void;
  addEventListener(type: 'error', listener: (event: unknown) => void): void;
}

/** A WebSocket class: the runtime's, undici's, `ws`'s. */
export type WebSocketConstructor = new (url: string) => WebSocketLike;

/** Which WebSocket a client opens: the runtime's global one, undici's (Node 20), or the class given. */
export type WebSocketKind = 'global' | 'undici' | 'custom';

/** Opens the sockets of one client; closed with it. */
export interface SocketOpener {
  readonly kind: WebSocketKind;
  open(url: string): WebSocketLike;
  close(): Promise<void>;
}

export interface SocketLimits {
  /** Frames larger than this are refused; where the WebSocket can, before they are read whole. */
  readonly maxMessageBytes: number;
}

/** A WebSocket's readyState of an open socket. */
export const socketOpen = 1;

/** An opener for a WebSocket class the caller gives. */
export function constructorOpener(WebSocket: WebSocketConstructor): SocketOpener {
  return { kind: 'custom', open: (url) => new WebSocket(url), close: async () => undefined };
}
