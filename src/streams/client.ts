// The stream client: one WebSocket connection at a time to the streams, shared by every request
// and subscription. It orchestrates the one-purpose modules beside it: it opens a connection when
// something needs one (connection.ts), authorizes it for the private channels with a token that is
// never shown (token.ts), sends requests under deadlines, hands each update to its channel's
// subscription (subscription.ts), and after a drop reconnects with backoff (backoff.ts), then
// authorizes again and subscribes every live subscription again, saying each step through hooks
// (hooks.ts). Which methods and channels exist, and their types, come from the documents
// (channels.ts).
import { ConfigurationError } from '../errors.ts';
import { timerMsProblem } from '../waits.ts';
import { reconnectDelayMs } from './backoff.ts';
import {
  authorizeMethod,
  channelRoute,
  isRequestMethod,
  type RequestMethod,
  type RequestParams,
  type RequestResult,
  routeOfMethod,
  routeOfUpdate,
  type StreamUpdate,
  type SubscribableChannel,
  type SubscribeParams,
  subscribableChannels,
} from './channels.ts';
import { StreamConnection } from './connection.ts';
import { AuthorizationError } from './errors/authorization-error.ts';
import { StreamClosedError } from './errors/stream-closed-error.ts';
import { StreamConnectionError } from './errors/stream-connection-error.ts';
import type { StreamError } from './errors/stream-error.ts';
import { StreamRequestError } from './errors/stream-request-error.ts';
import { StreamTimeoutError } from './errors/stream-timeout-error.ts';
import { SubscriptionConflictError } from './errors/subscription-conflict-error.ts';
import { emit } from './hooks.ts';
import {
  resolveSettings,
  type StreamClientOptions,
  type VisibleStreamOptions,
  visibleOptions,
} from './options.ts';
import { constructorOpener, type SocketOpener } from './socket.ts';
import { LiveSubscription, type Subscription } from './subscription.ts';
import { tokenSource } from './token.ts';

export interface StreamRequestOptions {
  /** This request's deadline instead of the client's `requestTimeoutMs`. */
  timeoutMs?: number;
  /** Ends the request early, with the signal's reason. */
  signal?: AbortSignal;
}

export interface SubscribeOptions {
  /** Ends the subscription (as `break` does) when it aborts. */
  signal?: AbortSignal;
}

export interface StreamClient {
  /**
   * Sends a request and resolves with its answer's `result`. Rejects with a StreamTimeoutError
   * when no answer comes within the deadline (connecting and authorizing included), a
   * StreamRequestError when the server answers with an error, an AuthorizationError for a private
   * channel without a usable token, a StreamConnectionError when the connection ends first.
   */
  request<Method extends RequestMethod>(
    method: Method,
    params: RequestParams<Method>,
    options?: StreamRequestOptions,
  ): Promise<RequestResult<Method>>;
  /**
   * Subscribes to a channel: each update's `params`, in order, as an async iterable. Leaving the
   * iteration unsubscribes; after a drop the client subscribes again by itself. One live
   * subscription per channel (the server keeps one per connection). Errors arrive at the
   * iteration: the subscribe refused or not answered in time, an overflow, reconnecting given up.
   */
  subscribe<Channel extends SubscribableChannel>(
    channel: Channel,
    params: SubscribeParams<Channel>,
    options?: SubscribeOptions,
  ): Subscription<StreamUpdate<Channel>>;
  /** Closes the connection: requests in flight end with a StreamClosedError, iterations finish. */
  close(): Promise<void>;
  /** The options in force; the token is never shown. */
  readonly options: VisibleStreamOptions;
}

/** Races `promise` against `signal`; the promise's own failure is never left unhandled. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

export function createStreamClient(options: StreamClientOptions = {}): StreamClient {
  const settings = resolveSettings(options);
  const { hooks, reconnect: policy } = settings;
  const tokens = tokenSource(options.token);
  // The WebSocket is loaded as the client is made, so that no request's deadline includes it;
  // `#websocket` picks the runtime's (package.json), and a browser never loads undici.
  const opener: Promise<SocketOpener> = options.webSocket
    ? Promise.resolve(constructorOpener(options.webSocket))
    : import('#websocket').then((module) =>
        module.createDefaultSocketOpener({ maxMessageBytes: settings.maxMessageBytes }),
      );
  opener.catch(() => undefined);

  const subscriptions = new Map<string, LiveSubscription<unknown>>();
  /** The open connection, or the one opening. */
  let current: StreamConnection | undefined;
  let connecting: Promise<StreamConnection> | undefined;
  let connections = 0;
  /** Connection tries and drops in a row since a connection last answered: the backoff's step. */
  let failures = 0;
  /** Why the last connection or try ended: a timeout's cause when a request never got one. */
  let lastFailure: StreamError | undefined;
  /** Requests waiting for a connection: with the subscriptions, what keeps the client connecting. */
  let waiting = 0;
  let closed: StreamClosedError | undefined;
  let closing: Promise<void> | undefined;
  let cancelPause: (() => void) | undefined;

  const report = (error: StreamError) => emit(hooks.error, { errorKind: error.kind, error });

  /** Runs `work` under a deadline of `timeoutMs` and the caller's signal; `sent` marks the request sent. */
  async function withDeadline<T>(
    method: string,
    timeoutMs: number,
    callerSignal: AbortSignal | undefined,
    work: (signal: AbortSignal, sent: () => void) => Promise<T>,
  ): Promise<T> {
    const controller = new AbortController();
    let sent = false;
    const timer = setTimeout(
      () => controller.abort(new StreamTimeoutError(method, timeoutMs, sent, sent ? undefined : lastFailure)),
      timeoutMs,
    );
    const onAbort = () => controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) onAbort();
    else callerSignal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await work(controller.signal, () => {
        sent = true;
      });
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onAbort);
    }
  }

  /** The open connection, or the one being opened (reconnecting with backoff as the policy says). */
  function connected(): Promise<StreamConnection> {
    if (closed) return Promise.reject(closed);
    if (current?.usable) return Promise.resolve(current);
    return connecting ?? startConnecting(undefined);
  }

  function startConnecting(afterDrop: StreamError | undefined): Promise<StreamConnection> {
    const attempt: Promise<StreamConnection> = connectLoop(afterDrop).finally(() => {
      if (connecting === attempt) connecting = undefined;
    });
    attempt.catch(() => undefined);
    connecting = attempt;
    return attempt;
  }

  /** Waits `ms` before a try; the client's close ends the wait. */
  function pause(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        cancelPause = undefined;
        resolve();
      }, ms);
      cancelPause = () => {
        clearTimeout(timer);
        reject(closed);
      };
    });
  }

  async function connectLoop(afterDrop: StreamError | undefined): Promise<StreamConnection> {
    let tries = 0;
    let reason = afterDrop;
    for (;;) {
      if (reason && policy) {
        const delayMs = reconnectDelayMs(policy, failures);
        emit(hooks.reconnect, { attempt: tries + 1, delayMs, errorKind: reason.kind });
        await pause(delayMs);
      }
      if (closed) throw closed;
      if (subscriptions.size === 0 && waiting === 0) {
        throw new StreamConnectionError('nothing waits for a connection any more');
      }
      tries++;
      const { url, maxMessageBytes, connectTimeoutMs, pingIntervalMs, pongTimeoutMs } = settings;
      const loaded = await opener;
      const connection = StreamConnection.start({
        id: ++connections,
        url,
        opener: loaded,
        maxMessageBytes,
        connectTimeoutMs,
        pingIntervalMs,
        pongTimeoutMs,
        scrub: tokens.scrub,
        scrubValue: tokens.scrubValue,
        onUpdate: deliver,
        onAnswered: () => {
          failures = 0;
        },
        onError: report,
        onDrop: dropped,
      });
      current = connection;
      try {
        await connection.opened;
      } catch (error) {
        if (current === connection) current = undefined;
        if (closed) throw closed;
        const failure = error as StreamError;
        failures++;
        lastFailure = failure;
        report(failure);
        if (!policy || tries >= policy.attempts) {
          const given = new StreamConnectionError(
            `no connection to ${url} after ${tries} ${tries === 1 ? 'try' : 'tries'}`,
            { cause: failure },
          );
          for (const subscription of [...subscriptions.values()]) subscription.fail(given);
          throw given;
        }
        reason = failure;
        continue;
      }
      emit(hooks.open, { connection: connection.id, attempt: tries, webSocket: loaded.kind });
      for (const subscription of subscriptions.values()) {
        // Those given to an earlier connection are subscribed again here; new ones send their own.
        if (subscription.connection !== undefined && subscription.connection !== connection) {
          subscribeOn(subscription, connection);
        }
      }
      return connection;
    }
  }

  /** A connection ended on its own account: reconnect if subscriptions are live and the policy allows. */
  function dropped(connection: StreamConnection, error: StreamError): void {
    if (connection !== current) return;
    current = undefined;
    failures++;
    lastFailure = error;
    report(error);
    const reconnect = !closed && policy !== undefined && subscriptions.size > 0;
    const code = error instanceof StreamConnectionError ? error.code : undefined;
    emit(hooks.close, { connection: connection.id, code, errorKind: error.kind, reconnect });
    if (reconnect) startConnecting(error);
    else if (!policy) {
      const ended = new StreamConnectionError('the connection ended and reconnect is off', { cause: error });
      for (const subscription of [...subscriptions.values()]) subscription.fail(ended);
    }
  }

  function deliver(method: string, params: unknown): void {
    const route = routeOfUpdate(method);
    // An update of a channel left a moment ago, or of none: nobody waits for it.
    if (route) subscriptions.get(route.channel)?.push(params);
  }

  /** The connection authorized, once per connection: a fresh token, and one more after a refusal. */
  function authorized(connection: StreamConnection): Promise<void> {
    if (!connection.authorization) {
      const attempt = authorize(connection);
      connection.authorization = attempt;
      attempt.catch(() => {
        if (connection.authorization === attempt) connection.authorization = undefined;
      });
    }
    return connection.authorization;
  }

  async function authorize(connection: StreamConnection): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await withDeadline(authorizeMethod, settings.requestTimeoutMs, undefined, async (signal, sent) => {
          const token = await abortable(tokens.get(), signal);
          sent();
          const params: RequestParams<typeof authorizeMethod> = [token, 'public'];
          await connection.request(authorizeMethod, params, signal);
        });
        emit(hooks.authorize, { connection: connection.id, attempt, ok: true });
        return;
      } catch (error) {
        emit(hooks.authorize, { connection: connection.id, attempt, ok: false });
        if (!(error instanceof StreamRequestError)) throw error;
        if (tokens.refreshable && attempt === 1) continue;
        throw new AuthorizationError(
          tokens.refreshable ? 'the server refused a fresh token too' : 'the server refused the token',
          error,
        );
      }
    }
  }

  /**
   * Sends a subscription's subscribe, under one deadline from here to the server's confirmation:
   * on `given` (a new connection, subscribing again after a drop) or on the one `connected()`
   * gives (a new subscription); authorized first if the channel needs it.
   */
  function subscribeOn(subscription: LiveSubscription<unknown>, given?: StreamConnection): void {
    const route = channelRoute(subscription.channel);
    const method = route?.subscribe as string;
    let used = given;
    withDeadline(method, settings.requestTimeoutMs, undefined, async (signal, sent) => {
      let connection = given ?? (await abortable(connected(), signal));
      while (!connection.usable && !given) connection = await abortable(connected(), signal);
      // Given to this connection from now: after a drop, the reconnection subscribes it again.
      used = connection;
      subscription.connection = connection;
      if (!subscription.live) return connection;
      if (route?.requiresAuthorization) await abortable(authorized(connection), signal);
      sent();
      await connection.request(method, subscription.params, signal);
      return connection;
    }).then(
      (connection) => {
        if (!subscription.live || subscription.connection !== connection) return;
        subscription.confirm();
        if (subscription.confirmations > 1) {
          emit(hooks.resubscribe, { connection: connection.id, channel: subscription.channel });
        }
      },
      (error: StreamError) => {
        if (!subscription.live) return;
        // The connection ended under it: the reconnection subscribes it again (or fails it).
        if (used && !used.usable && error.kind === 'connection') return;
        subscription.fail(error);
      },
    );
  }

  /** A subscription ended (left, failed, closed): forget it, and unsubscribe where it was sent. */
  function left(subscription: LiveSubscription<unknown>, error: unknown): void {
    if (subscriptions.get(subscription.channel) === subscription) subscriptions.delete(subscription.channel);
    if (closed) return;
    if (error !== undefined) report(error as StreamError);
    const route = channelRoute(subscription.channel);
    const connection = subscription.connection;
    // An empty list ends the channel's subscription as a whole (observed upstream, every channel):
    // this client keeps one per channel.
    if (route?.unsubscribe && connection === current && current?.usable)
      current.notify(route.unsubscribe, []);
  }

  const client = {
    async request(method: string, params: unknown, requestOptions: StreamRequestOptions = {}) {
      if (closed) throw closed;
      if (!isRequestMethod(method)) {
        throw new ConfigurationError(
          'method',
          `${String(method)} is not a request of the streams (subscribe with subscribe(); authorization is automatic)`,
        );
      }
      const route = routeOfMethod(method);
      const timeoutMs = requestOptions.timeoutMs ?? settings.requestTimeoutMs;
      const timeoutProblem = timerMsProblem(timeoutMs);
      if (timeoutProblem) throw new ConfigurationError('timeoutMs', timeoutProblem);
      try {
        // Without a token a private channel is refused before any connection is opened for it.
        if (route?.requiresAuthorization && !tokens.given) await tokens.get();
        return await withDeadline(method, timeoutMs, requestOptions.signal, async (signal, sent) => {
          waiting++;
          let connection: StreamConnection;
          try {
            connection = await abortable(connected(), signal);
          } finally {
            waiting--;
          }
          if (route?.requiresAuthorization) await abortable(authorized(connection), signal);
          sent();
          return connection.request(method, params, signal);
        });
      } catch (error) {
        if (error !== closed && typeof (error as StreamError)?.kind === 'string')
          report(error as StreamError);
        throw error;
      }
    },

    subscribe(channel: string, params: unknown, subscribeOptions: SubscribeOptions = {}) {
      const route = channelRoute(channel);
      if (!route?.subscribe) {
        throw new ConfigurationError(
          'channel',
          `${String(channel)} is not a channel to subscribe to; the channels are ${subscribableChannels.join(', ')}`,
        );
      }
      const subscription = new LiveSubscription<unknown>(channel, params, settings.bufferSize, left);
      if (closed) {
        subscription.fail(closed);
        return subscription;
      }
      if (subscriptions.has(channel)) {
        subscription.fail(new SubscriptionConflictError(channel));
        return subscription;
      }
      subscriptions.set(channel, subscription);
      const { signal } = subscribeOptions;
      if (signal?.aborted) subscription.finish();
      signal?.addEventListener('abort', () => subscription.finish(), { once: true });
      if (route.requiresAuthorization && !tokens.given) {
        tokens.get().catch((error: StreamError) => subscription.fail(error));
        return subscription;
      }
      if (subscription.live) subscribeOn(subscription);
      return subscription;
    },

    close(): Promise<void> {
      if (closing) return closing;
      closed = new StreamClosedError();
      cancelPause?.();
      for (const subscription of [...subscriptions.values()]) subscription.finish();
      subscriptions.clear();
      const connection = current;
      current = undefined;
      if (connection) {
        const wasOpen = connection.usable;
        connection.close(closed);
        if (wasOpen)
          emit(hooks.close, {
            connection: connection.id,
            code: undefined,
            errorKind: undefined,
            reconnect: false,
          });
      }
      closing = opener.then(
        (loaded) => loaded.close(),
        () => undefined,
      );
      return closing;
    },
  };

  // What is shown of the client, however it is inspected or serialized: the options, never the token.
  const shown = Object.freeze(visibleOptions(settings, options));
  Object.defineProperties(client, {
    options: { value: shown, enumerable: true },
    toJSON: { value: () => ({ kind: 'StreamClient', options: shown }) },
    [inspectSymbol]: { value: () => `StreamClient ${JSON.stringify(shown)}` },
  });
  return client as unknown as StreamClient;
}
