// Hooks: functions the caller gives that see each step of a stream client's life, as the HTTP
// client's hooks see each step of a call (src/engine.ts): lists of functions by event name, each
// given a frozen event. They observe and change nothing; their events hold names, numbers, kinds
// and the client's typed errors (scrubbed of the token), never a token or a message's params.
import type { StreamError, StreamErrorKind } from './errors/stream-error.ts';
import type { WebSocketKind } from './socket.ts';

interface StreamEventBase {
  /** The connection it happened on: 1 for the client's first, one more for each new one. */
  readonly connection: number;
}

/** A connection opened. */
export interface OpenEvent extends StreamEventBase {
  /** 1 for a first try, more for a reconnection's later tries. */
  readonly attempt: number;
  /**
   * Which WebSocket it is: the runtime's `global` one, `undici`'s (Node 20, which has none), or
   * the `custom` class given as `webSocket`; the `#websocket` import picks it (package.json).
   */
  readonly webSocket: WebSocketKind;
}

/** A connection ended; `reconnect` says whether the client will open another by itself. */
export interface CloseEvent extends StreamEventBase {
  /** The WebSocket close code, when there was one. */
  readonly code: number | undefined;
  /** What ended it: the error's kind, or undefined when the client was closed. */
  readonly errorKind: StreamErrorKind | undefined;
  readonly reconnect: boolean;
}

/** The client will try to connect again after `delayMs` (backoff with jitter, capped). */
export interface ReconnectEvent {
  /** The try this delay leads to: 1 for the first after a drop. */
  readonly attempt: number;
  readonly delayMs: number;
  /** Why: the kind of the error that ended the last connection or try. */
  readonly errorKind: StreamErrorKind;
}

/** The connection was authorized, or a try at it failed. */
export interface AuthorizeEvent extends StreamEventBase {
  /** 1 for the first token on this connection, 2 for a fresh one after a refusal. */
  readonly attempt: number;
  readonly ok: boolean;
}

/** A live subscription was subscribed again on a new connection, and the server confirmed it. */
export interface ResubscribeEvent extends StreamEventBase {
  readonly channel: string;
}

/** An order book was dropped for a fresh snapshot (a gap, a broken sequence, a crossed book). */
export interface ResnapshotEvent {
  readonly market: string;
  readonly error: StreamError;
}

/** Something failed: a request, a frame, a connection, a subscription. */
export interface StreamErrorEvent {
  readonly errorKind: StreamErrorKind;
  readonly error: StreamError;
}

export interface StreamHooks {
  open?: readonly ((event: OpenEvent) => void)[];
  close?: readonly ((event: CloseEvent) => void)[];
  reconnect?: readonly ((event: ReconnectEvent) => void)[];
  authorize?: readonly ((event: AuthorizeEvent) => void)[];
  resubscribe?: readonly ((event: ResubscribeEvent) => void)[];
  resnapshot?: readonly ((event: ResnapshotEvent) => void)[];
  error?: readonly ((event: StreamErrorEvent) => void)[];
}

/** The events a hook may be set for (a record, so that one left out of it does not compile). */
const hookEvents: Record<keyof StreamHooks, true> = {
  open: true,
  close: true,
  reconnect: true,
  authorize: true,
  resubscribe: true,
  resnapshot: true,
  error: true,
};
export const streamHookNames = Object.keys(hookEvents) as (keyof StreamHooks)[];

/**
 * Calls each hook with the event, frozen. A hook that throws changes nothing of the client: its
 * error is thrown again on its own, as an uncaught exception, as the HTTP client's hooks do.
 */
export function emit<Event extends object>(
  hooks: readonly ((event: Event) => void)[] | undefined,
  event: Event,
): void {
  if (!hooks) return;
  Object.freeze(event);
  for (const hook of hooks) {
    try {
      hook(event);
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}
