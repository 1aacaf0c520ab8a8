// The clients, with openapi-fetch's call shape (their types are in call-types.ts). This file is
// the call loop alone: validate the body, wait for the rate limiter, sign, send through the
// transport, retry what the documents allow, and return `{ data, error, response }`. Options
// (and the redacted view of a client) live in options.ts, signing in sign-request.ts, transports
// in transport/, the meaning of an answer in errors.ts; everything the API defines comes from
// generated/.

import { createDefaultTransport } from '#transport';
import { clientRoutes } from '../generated/operations.ts';
import type { CallOptions, CallResult, PrivateClient, PublicClient } from './call-types.ts';
import {
  ApiError,
  ClientClosedError,
  ConfigurationError,
  describeFailure,
  errorWithoutAnswer,
  readAnswer,
} from './errors.ts';
import {
  type ApiName,
  type ClientOptions,
  callOptionsProblem,
  checkOptions,
  defaultMaxResponseBytes,
  defaultTimeoutMs,
  describable,
  type PrivateClientOptions,
  resolveBaseUrl,
  visibleOptions,
} from './options.ts';
import { copyPlainData } from './plain-data.ts';
import { createWindows, sleep } from './rate-limit.ts';
import { isRetryable, resolveRetryPolicy, retryDelayMs } from './retry.ts';
import { createRequestSigner, prepareSigned, type RequestSigner } from './sign-request.ts';
import { createFetchTransport } from './transport/fetch.ts';
import type { Exchange, Transport } from './transport/types.ts';
import { checkBody } from './validate.ts';

type Route = (typeof clientRoutes)[keyof typeof clientRoutes];

type AnyResult = CallResult<unknown, unknown>;

interface Engine {
  call(
    method: 'get' | 'post',
    path: string,
    body: unknown,
    init: CallOptions | undefined,
  ): Promise<AnyResult>;
  close(): Promise<void>;
}

/** The routes by method and path: a caller's path (usually a literal) is looked up as it is. */
const routes = { get: new Map<string, Route>(), post: new Map<string, Route>() };
for (const route of Object.values(clientRoutes)) routes[route.method].set(route.path, route);

function routeFor(method: 'get' | 'post', path: string): Route {
  const route = routes[method].get(path);
  if (!route) {
    throw new ConfigurationError(
      'path',
      `${method.toUpperCase()} ${path} is not an operation of the documents`,
    );
  }
  return route;
}

function failure(route: Route, kind: ApiError['kind'], message: string, field?: string): AnyResult {
  return { error: new ApiError(message, { kind, operationId: route.operationId, field }) };
}

function createEngine(
  api: ApiName,
  options: ClientOptions,
  signer?: RequestSigner,
  limitKey?: string,
): Engine {
  const baseUrl = resolveBaseUrl(api, options);
  const transport: Transport =
    options.transport ?? (options.fetch ? createFetchTransport(options.fetch) : createDefaultTransport());
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const maxResponseBytes = options.maxResponseBytes ?? defaultMaxResponseBytes;
  const retryPolicy = resolveRetryPolicy(options.retry);
  const rateLimit = options.rateLimit ?? true;
  const limitScope = limitKey ?? `public:${new URL(baseUrl).origin}`;
  const windowFor = createWindows(limitScope, rateLimit);
  // Header names as Headers would hold them: lowercase.
  const baseHeaders: Record<string, string> = {};
  if (signer) baseHeaders['content-type'] = 'application/json';
  if (options.userAgent) baseHeaders['user-agent'] = options.userAgent;
  const unsigned = { headers: baseHeaders, body: undefined };
  // Each route's URL and method as the transport takes them, made once.
  const targets = new Map<Route, { url: string; method: string }>();
  const targetOf = (route: Route) => {
    let target = targets.get(route);
    if (!target) {
      target = { url: baseUrl + route.path, method: route.method.toUpperCase() };
      targets.set(route, target);
    }
    return target;
  };
  // Closing ends every wait of every call: the transport's exchanges, the rate limiter, retries.
  const closing = new AbortController();
  const closedError = () => new ClientClosedError('the client was closed');

  /** One attempt's request: signed afresh (a new nonce) once the transport has a connection free. */
  function exchangeFor(
    route: Route,
    fields: Record<string, unknown> | undefined,
    init: CallOptions,
  ): Exchange {
    const { url, method } = targetOf(route);
    return {
      url,
      method,
      prepare: signer
        ? (wait) => prepareSigned(signer, baseHeaders, route.path, fields, wait)
        : () => unsigned,
      signal: init.signal,
      timeoutMs: init.timeoutMs ?? timeoutMs,
      maxResponseBytes,
    };
  }

  async function call(method: 'get' | 'post', path: string, body: unknown, init: CallOptions = {}) {
    const route = routeFor(method, path);
    if (closing.signal.aborted) return failure(route, 'closed', describeFailure('closed', route.operationId));
    const problem = callOptionsProblem(init);
    if (problem)
      return failure(route, 'invalid-request', `${problem.field}: ${problem.message}`, problem.field);
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      return failure(route, 'invalid-request', 'body must be an object', 'body');
    }
    // What is validated is what is signed: one copy of the caller's own plain data.
    const copy = body === undefined ? undefined : copyPlainData(body);
    if (copy && 'problem' in copy) {
      return failure(route, 'invalid-request', copy.problem.message, copy.problem.field);
    }
    const fields = copy?.value as Record<string, unknown> | undefined;
    const violation = 'body' in route ? checkBody(route.body, fields ?? {}) : undefined;
    if (violation) return failure(route, 'invalid-request', violation.message, violation.field);

    // The caller's signal and the client's closing, joined only for the waits that need both.
    const stop = init.signal ? AbortSignal.any([init.signal, closing.signal]) : closing.signal;
    const ended = (): AnyResult => {
      const kind = closing.signal.aborted ? 'closed' : 'aborted';
      return failure(route, kind, describeFailure(kind, route.operationId));
    };
    // Only operations the documents mark x-retry-safe are ever sent more than once.
    const policy = route.retrySafe ? retryPolicy : undefined;
    const window = windowFor(route);
    for (let attempts = 1; ; attempts++) {
      // A free permit (or no limiter) is taken without a promise.
      let release = window?.tryAcquire();
      if (window && !release) {
        try {
          release = await window.acquire(stop);
        } catch {
          return ended();
        }
      }
      // The attempt, awaited here rather than in a function of its own: one promise less a call.
      let outcome: AnyResult;
      try {
        const answer = await transport.send(exchangeFor(route, fields, init));
        outcome = readAnswer(route.operationId, answer, signer?.scrub);
      } catch (cause) {
        outcome = { error: errorWithoutAnswer(route.operationId, cause, init.signal) };
      } finally {
        release?.();
      }
      const error = outcome.error;
      if (!error) return outcome;
      const withAttempts = () =>
        attempts === 1 ? outcome : { ...outcome, error: error.withAttempts(attempts) };
      if (!policy || attempts >= policy.attempts || !isRetryable(error) || stop.aborted)
        return withAttempts();
      const delay = retryDelayMs(policy, attempts, error.retryAfterMs);
      // The server asks for a longer wait than the policy allows: its answer is the result.
      if (delay === undefined) return withAttempts();
      try {
        await sleep(delay, stop);
      } catch {
        return withAttempts();
      }
    }
  }

  return {
    call,
    async close() {
      if (closing.signal.aborted) return;
      const reason = closedError();
      closing.abort(reason);
      await transport.close(reason);
    },
  };
}

/** Each client's engine, for calls whose path is known only at run time (`callByPath`). */
const engines = new WeakMap<object, Engine>();

export function createPublicClient(options: ClientOptions = {}): PublicClient {
  checkOptions(options);
  const engine = createEngine('public-v4', options);
  const client = {
    GET: (path: string, init?: CallOptions) => engine.call('get', path, undefined, init),
    close: () => engine.close(),
  };
  engines.set(client, engine);
  // The generic signature is enforced at the call site; the engine checks paths at run time.
  return describable('PublicClient', client, visibleOptions(options)) as PublicClient;
}

export function createPrivateClient(options: PrivateClientOptions): PrivateClient {
  checkOptions(options);
  const sign = createRequestSigner(options);
  const engine = createEngine('private-v4', options, sign, `key:${options.apiKey}`);
  const client = {
    POST: (path: string, init?: CallOptions & { body?: unknown }) =>
      engine.call('post', path, init?.body, init),
    close: () => engine.close(),
  };
  engines.set(client, engine);
  return describable('PrivateClient', client, visibleOptions(options)) as PrivateClient;
}

/**
 * A call whose path and body are known only at run time (a command line built from the
 * documents): the same checks, signing and result as `GET` and `POST`, without their static types.
 * Not part of the package's entry.
 */
export function callByPath(
  client: PublicClient | PrivateClient,
  path: string,
  body?: object,
): Promise<CallResult<unknown, unknown>> {
  const engine = engines.get(client);
  if (!engine)
    throw new ConfigurationError(
      'client',
      'must be a client made by createPublicClient or createPrivateClient',
    );
  return engine.call('GET' in client ? 'get' : 'post', path, body, undefined);
}

/** Opt-in throwing style: the data of a successful call, or its ApiError thrown. */
export async function unwrap<Data>(call: Promise<CallResult<Data, unknown>>): Promise<Data> {
  const result = await call;
  if (result.error) throw result.error;
  return result.data as Data;
}
