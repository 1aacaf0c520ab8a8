// One WebSocket connection: opening it within a time limit, its requests matched to their answers
// by `id`, the updates it hands on, the keepalive pings that also find a half-open socket, and
// its end, whatever ends it (the server, a bad frame, a missing pong, the client), said once.
// Reconnecting, authorization and subscriptions are the client's (client.ts): a connection
// lives once.
import { streamKeepalive } from '../../generated/streams.ts';
import { FrameTooLargeError } from './errors/frame-too-large-error.ts';
import { MalformedFrameError } from './errors/malformed-frame-error.ts';
import { PongTimeoutError } from './errors/pong-timeout-error.ts';
import { StreamConnectionError } from './errors/stream-connection-error.ts';
import type { StreamError } from './errors/stream-error.ts';
import { StreamRequestError } from './errors/stream-request-error.ts';
import { UnknownAnswerError } from './errors/unknown-answer-error.ts';
import { readFrame } from './frames.ts';
import { type SocketCloseEvent, type SocketOpener, socketOpen, type WebSocketLike } from './socket.ts';

export interface ConnectionSettings {
  /** The client's number for it (1 for its first), for hooks. */
  readonly id: number;
  readonly url: string;
  readonly opener: SocketOpener;
  readonly maxMessageBytes: number;
  readonly connectTimeoutMs: number;
  /** Time from one pong to the next ping; 0: no pings. */
  readonly pingIntervalMs: number;
  readonly pongTimeoutMs: number;
  readonly scrub: (text: string) => string;
  readonly scrubValue: (value: unknown) => unknown;
  /** An update arrived. */
  readonly onUpdate: (method: string, params: unknown) => void;
  /** The first answer to one of its requests arrived: the server is there and talking. */
  readonly onAnswered: () => void;
  /** Something went wrong that leaves the connection usable (an answer nobody waits for). */
  readonly onError: (error: StreamError) => void;
  /** The connection ended, not by `close()`: `error` says why. Called once. */
  readonly onDrop: (connection: StreamConnection, error: StreamError) => void;
}

/**
 * The close code of a connection that ended without a close frame (RFC 6455, 7.1.5), which the
 * WebSocket standard gives such a close event. Deno gives 0 instead; a failed opening that fires no
 * close event at all (Node 22, below) is given it too, so every runtime reports the same code.
 */
const abnormalClosure = 1006;

/** A code a close frame can carry (RFC 6455, 7.4): any other, such as Deno's 0, is an abnormal closure. */
const closeCode = (code: number | undefined): number | undefined =>
  code === undefined || (Number.isInteger(code) && code >= 1000 && code <= 4999) ? code : abnormalClosure;

interface Pending {
  readonly method: string;
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

export class StreamConnection {
  readonly id: number;
  /** This connection's authorization, once asked for: the client's (client.ts). */
  authorization: Promise<void> | undefined = undefined;
  /** Resolves once the socket is open; rejects if it never opens (see `start`). */
  opened: Promise<void> = Promise.resolve();
  private readonly socket: WebSocketLike | undefined;
  private wasOpen = false;
  private readonly pending = new Map<number, Pending>();
  /** Ids whose answers are expected but not waited for (an unsubscribe's). */
  private readonly unawaited = new Set<number>();
  private lastId = 0;
  private ended: StreamError | undefined;
  private pingTimer: ReturnType<typeof setTimeout> | undefined;
  private pongTimer: ReturnType<typeof setTimeout> | undefined;
  /** Set while the socket is opening: where its end goes (the opening's rejection). */
  private beforeOpen: ((error: StreamError) => void) | undefined = undefined;
  private answered = false;
  private readonly settings: ConnectionSettings;

  private constructor(settings: ConnectionSettings, socket: WebSocketLike | undefined) {
    this.id = settings.id;
    this.settings = settings;
    this.socket = socket;
  }

  /**
   * Starts opening a connection: `opened` resolves once it is open, or rejects with a
   * StreamConnectionError if the socket does not open within `connectTimeoutMs` (it is then closed)
   * or closes first. `close()` while it opens rejects `opened` with the reason given.
   */
  static start(settings: ConnectionSettings): StreamConnection {
    let socket: WebSocketLike | undefined;
    let failure: unknown;
    try {
      socket = settings.opener.open(settings.url);
      socket.binaryType = 'arraybuffer';
    } catch (cause) {
      failure = cause;
    }
    const connection = new StreamConnection(settings, socket);
    if (!socket) {
      connection.ended = new StreamConnectionError(`could not open a WebSocket to ${settings.url}`, {
        cause: failure,
      });
      connection.opened = Promise.reject(connection.ended);
      connection.opened.catch(() => undefined);
      return connection;
    }
    connection.opened = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        connection.end(
          new StreamConnectionError(
            `no connection to ${settings.url} within ${settings.connectTimeoutMs} ms`,
          ),
        );
      }, settings.connectTimeoutMs);
      // Until it opens, its end is the opening's failure; after, the client's drop.
      connection.beforeOpen = (error) => {
        clearTimeout(timer);
        reject(error);
      };
      socket.addEventListener('open', () => {
        clearTimeout(timer);
        if (connection.ended) return;
        connection.beforeOpen = undefined;
        connection.wasOpen = true;
        connection.schedulePing();
        resolve();
      });
      socket.addEventListener('message', (event) => connection.receive(event.data));
      // An error event is followed by a close event, which says what ended the connection; but
      // Node 22's WebSocket (its undici 6) fires the error alone when the opening fails (refused,
      // or an answer other than 101) and stays CONNECTING, so an error before `open` ends the
      // opening here rather than at `connectTimeoutMs`.
      socket.addEventListener('error', () => {
        if (!connection.wasOpen) {
          connection.end(
            new StreamConnectionError(`could not connect to ${settings.url}`, { code: abnormalClosure }),
          );
        }
      });
      socket.addEventListener('close', (event) => {
        clearTimeout(timer);
        connection.closed(event);
      });
    });
    connection.opened.catch(() => undefined);
    return connection;
  }

  /** Whether requests can be sent on it. */
  get usable(): boolean {
    return !this.ended && this.socket?.readyState === socketOpen;
  }

  /**
   * Sends a request and resolves with its answer's `result`; rejects with a StreamRequestError
   * when the answer carries an `error`, with a StreamConnectionError when the connection ends
   * first, or with `signal`'s reason once it aborts (the caller's deadline).
   */
  request(method: string, params: unknown, signal: AbortSignal): Promise<unknown> {
    if (this.ended) return Promise.reject(this.endedError(method));
    if (signal.aborted) return Promise.reject(signal.reason);
    const id = ++this.lastId;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        method,
        resolve: (result) => {
          signal.removeEventListener('abort', onAbort);
          resolve(result);
        },
        reject: (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      this.send(id, method, params);
    });
  }

  /**
   * Sends a request whose answer nobody waits for (an unsubscribe): an answer, if one comes, is
   * taken quietly rather than reported as unknown.
   */
  notify(method: string, params: unknown): void {
    if (!this.usable) return;
    const id = ++this.lastId;
    this.unawaited.add(id);
    this.send(id, method, params);
  }

  /** Ends it from the client's side: requests in flight end with `reason`; no drop is reported. */
  close(reason: StreamError): void {
    if (this.ended) return;
    const beforeOpen = this.beforeOpen;
    this.finish(reason);
    this.closeSocket();
    beforeOpen?.(reason);
  }

  private send(id: number, method: string, params: unknown): void {
    try {
      this.socket?.send(JSON.stringify({ id, method, params }));
    } catch (cause) {
      this.end(new StreamConnectionError(`${method}: the request could not be sent`, { cause }));
    }
  }

  private receive(data: unknown): void {
    if (this.ended) return;
    const { maxMessageBytes, scrub } = this.settings;
    const frame = readFrame(data, maxMessageBytes, scrub);
    if (frame instanceof MalformedFrameError || frame instanceof FrameTooLargeError) {
      this.end(frame);
      return;
    }
    if (frame.type === 'update') {
      this.settings.onUpdate(frame.method, frame.params);
      return;
    }
    const id = typeof frame.id === 'number' ? frame.id : Number.NaN;
    if (this.unawaited.delete(id)) return;
    const pending = this.pending.get(id);
    if (!pending) {
      this.settings.onError(new UnknownAnswerError(this.settings.scrubValue(frame.id)));
      return;
    }
    this.pending.delete(id);
    if (!this.answered) {
      this.answered = true;
      this.settings.onAnswered();
    }
    if (frame.error !== null)
      pending.reject(new StreamRequestError(pending.method, this.settings.scrubValue(frame.error)));
    else pending.resolve(frame.result);
  }

  /** The next keepalive ping, `pingIntervalMs` after the last pong (or the opening). */
  private schedulePing(): void {
    const { pingIntervalMs, pongTimeoutMs } = this.settings;
    if (pingIntervalMs === 0 || this.ended) return;
    this.pingTimer = setTimeout(() => {
      const pong = new AbortController();
      this.pongTimer = setTimeout(() => pong.abort(new PongTimeoutError(pongTimeoutMs)), pongTimeoutMs);
      this.request(streamKeepalive.method, [], pong.signal).then(
        () => {
          clearTimeout(this.pongTimer);
          this.schedulePing();
        },
        (error: unknown) => {
          clearTimeout(this.pongTimer);
          // A refused ping still proves the server is there; no answer at all does not.
          if (error instanceof PongTimeoutError) this.end(error);
          else if (error instanceof StreamRequestError) this.schedulePing();
        },
      );
    }, pingIntervalMs);
  }

  private closed(event: SocketCloseEvent): void {
    if (this.ended) return;
    const code = closeCode(event.code);
    const { url } = this.settings;
    this.end(
      new StreamConnectionError(
        this.wasOpen ? `the connection closed (code ${code ?? 'none'})` : `could not connect to ${url}`,
        { code },
      ),
    );
  }

  /** Ends it on its own account (a bad frame, a missing pong, the socket's close) and says so once. */
  private end(error: StreamError): void {
    if (this.ended) return;
    const beforeOpen = this.beforeOpen;
    this.finish(error);
    this.closeSocket();
    if (!beforeOpen) this.settings.onDrop(this, error);
    else
      beforeOpen(
        error instanceof StreamConnectionError
          ? error
          : new StreamConnectionError(`could not connect to ${this.settings.url}`, { cause: error }),
      );
  }

  private finish(error: StreamError): void {
    this.ended = error;
    this.beforeOpen = undefined;
    clearTimeout(this.pingTimer);
    clearTimeout(this.pongTimer);
    const pending = [...this.pending.values()];
    this.pending.clear();
    this.unawaited.clear();
    for (const each of pending) each.reject(this.endedError(each.method));
  }

  private endedError(method: string): StreamError {
    const ended = this.ended as StreamError;
    return ended.kind === 'closed'
      ? ended
      : new StreamConnectionError(`${method}: the connection ended before the answer`, { cause: ended });
  }

  private closeSocket(): void {
    try {
      this.socket?.close();
    } catch {
      // Closing a socket that failed to open may throw on some runtimes; it is gone either way.
    }
  }
}
