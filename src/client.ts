// The clients: openapi-fetch's call shape and types, from the generated paths. This file is the
// call loop alone: validate the body, wait for the rate limiter, sign, send through the
// transport, retry what the documents allow, and return `{ data, error, response }`. Options live
// in options.ts, signing in sign-request.ts, transports in transport/, the meaning of an answer
// in errors.ts; everything the API defines comes from generated/.

import type { ErrorResponseJSON, RequiredKeysOf, SuccessResponseJSON } from 'openapi-typescript-helpers';
import { createDefaultTransport } from '#transport';
import { clientRoutes } from '../generated/operations.ts';
import type { paths as PrivatePaths } from '../generated/private-v4.ts';
import type { paths as PublicPaths } from '../generated/public-v4.ts';
import { ApiError, ConfigurationError, describeFailure, errorWithoutAnswer, readAnswer } from './errors.ts';
import {
  type ApiName,
  type ClientOptions,
  checkOptions,
  defaultTimeoutMs,
  type PrivateClientOptions,
  resolveBaseUrl,
  type VisibleOptions,
  visibleOptions,
} from './options.ts';
import { type SlidingWindow, sharedWindow, sleep } from './rate-limit.ts';
import { isRetryable, resolveRetryPolicy, retryDelayMs } from './retry.ts';
import { createRequestSigner, type RequestSigner } from './sign-request.ts';
import { createFetchTransport } from './transport/fetch.ts';
import type { ResponseLike, Transport } from './transport/types.ts';
import { checkBody } from './validate.ts';

export type {
  ClientOptions,
  OperationId,
  PrivateClientOptions,
  ServerName,
  VisibleOptions,
} from './options.ts';
export type { ResponseLike } from './transport/types.ts';

type Route = (typeof clientRoutes)[keyof typeof clientRoutes];

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export type CallResult<Data, ErrorBody> =
  | { data: Data; error?: undefined; response: ResponseLike }
  | { data?: undefined; error: ApiError<ErrorBody>; response?: ResponseLike };

type SignedFields = 'request' | 'nonce' | 'nonceWindow';
type JsonBody<Operation> = Operation extends { requestBody: { content: { 'application/json': infer Body } } }
  ? Body
  : never;
type PrivateOperation<Path extends keyof PrivatePaths> = PrivatePaths[Path]['post'];

/** A private operation's body as the caller writes it: without `request`, `nonce` or `nonceWindow`. */
export type CallerBody<Path extends keyof PrivatePaths> = Omit<
  JsonBody<PrivateOperation<Path>>,
  SignedFields
>;

type PrivateCallArgs<Path extends keyof PrivatePaths> =
  RequiredKeysOf<CallerBody<Path>> extends never
    ? [init?: CallOptions & { body?: CallerBody<Path> }]
    : [init: CallOptions & { body: CallerBody<Path> }];

export type PrivateResult<Path extends keyof PrivatePaths> = CallResult<
  SuccessResponseJSON<PrivateOperation<Path>>,
  ErrorResponseJSON<PrivateOperation<Path>>
>;

export type PublicResult<Path extends keyof PublicPaths> = CallResult<
  SuccessResponseJSON<PublicPaths[Path]['get']>,
  ErrorResponseJSON<PublicPaths[Path]['get']>
>;

export interface PrivateClient {
  POST<Path extends keyof PrivatePaths>(
    path: Path,
    ...init: PrivateCallArgs<Path>
  ): Promise<PrivateResult<Path>>;
  /** Closes the transport's connections. */
  close(): Promise<void>;
  /** The options in force, secret redacted. */
  readonly options: VisibleOptions;
}

export interface PublicClient {
  GET<Path extends keyof PublicPaths>(path: Path, init?: CallOptions): Promise<PublicResult<Path>>;
  close(): Promise<void>;
  readonly options: VisibleOptions;
}

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

function routeFor(method: string, path: string): Route {
  const route = `${method} ${path}`;
  if (!Object.hasOwn(clientRoutes, route)) {
    throw new ConfigurationError(
      'path',
      `${method.toUpperCase()} ${path} is not an operation of the documents`,
    );
  }
  return clientRoutes[route as keyof typeof clientRoutes];
}

function createEngine(api: ApiName, options: ClientOptions, sign?: RequestSigner, limitKey?: string): Engine {
  const baseUrl = resolveBaseUrl(api, options);
  const urlBase = baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl;
  const transport: Transport =
    options.transport ?? (options.fetch ? createFetchTransport(options.fetch) : createDefaultTransport());
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const retryPolicy = resolveRetryPolicy(options.retry);
  const rateLimit = options.rateLimit ?? true;
  const limitScope = limitKey ?? `public:${new URL(baseUrl).origin}`;
  const windows = new Map<string, SlidingWindow | undefined>();
  const windowFor = (route: Route) => {
    if (!windows.has(route.operationId)) {
      const override = typeof rateLimit === 'object' ? rateLimit.limits?.[route.operationId] : undefined;
      windows.set(
        route.operationId,
        rateLimit
          ? sharedWindow(`${limitScope}:${route.operationId}`, override ?? route.rateLimit)
          : undefined,
      );
    }
    return windows.get(route.operationId);
  };
  // Header names as Headers would hold them: lowercase.
  const baseHeaders: Record<string, string> = {};
  if (sign) baseHeaders['content-type'] = 'application/json';
  if (options.userAgent) baseHeaders['user-agent'] = options.userAgent;

  /** One attempt: signed afresh (a new nonce), sent, and its answer read. */
  async function attempt(route: Route, fields: Record<string, unknown> | undefined, init: CallOptions) {
    let headers = baseHeaders;
    let body: string | undefined;
    let response: ResponseLike | undefined;
    try {
      if (sign) {
        const signed = await sign(route.path, fields);
        headers = { ...baseHeaders, ...signed.headers };
        body = signed.body;
        if (signed.holdMs > 0) await sleep(signed.holdMs, init.signal);
      }
      const answer = await transport.send({
        url: urlBase + route.path,
        method: route.method.toUpperCase(),
        headers,
        body,
        signal: init.signal,
        timeoutMs: init.timeoutMs ?? timeoutMs,
      });
      response = answer.response;
      const read = readAnswer(route.operationId, answer);
      return 'data' in read ? { data: read.data, response } : { error: read.error, response };
    } catch (cause) {
      return { error: errorWithoutAnswer(route.operationId, cause, init.signal) };
    }
  }

  async function call(method: 'get' | 'post', path: string, body: unknown, init: CallOptions = {}) {
    const route = routeFor(method, path);
    const fail = (kind: ApiError['kind'], message: string, field?: string): AnyResult => ({
      error: new ApiError(message, { kind, operationId: route.operationId, field }),
    });
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      return fail('invalid-request', 'body must be an object', 'body');
    }
    const fields = body as Record<string, unknown> | undefined;
    const violation = 'body' in route ? checkBody(route.body, fields ?? {}) : undefined;
    if (violation) return fail('invalid-request', violation.message, violation.field);

    // Only operations the documents mark x-retry-safe are ever sent more than once.
    const policy = route.retrySafe ? retryPolicy : undefined;
    const window = windowFor(route);
    for (let attempts = 1; ; attempts++) {
      let release: (() => void) | undefined;
      try {
        release = await window?.acquire(init.signal);
      } catch {
        return fail('aborted', describeFailure('aborted', route.operationId));
      }
      const outcome: AnyResult = await attempt(route, fields, init).finally(release);
      const error = outcome.error;
      if (!error) return outcome;
      if (!policy || attempts >= policy.attempts || !isRetryable(error) || init.signal?.aborted) {
        return attempts === 1 ? outcome : { ...outcome, error: error.withAttempts(attempts) };
      }
      try {
        await sleep(retryDelayMs(policy, attempts, error.retryAfterMs), init.signal);
      } catch {
        return { ...outcome, error: error.withAttempts(attempts) };
      }
    }
  }

  return { call, close: () => transport.close() };
}

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/** Shows the redacted options, and nothing else, however the client is inspected or serialized. */
function describable<Client extends object>(kind: string, client: Client, options: VisibleOptions) {
  const shown = Object.freeze({ ...options });
  Object.defineProperties(client, {
    options: { value: shown, enumerable: true },
    toJSON: { value: () => ({ kind, options: shown }) },
    [inspectSymbol]: { value: () => `${kind} ${JSON.stringify(shown)}` },
  });
  return client as Client & { readonly options: VisibleOptions };
}

export function createPublicClient(options: ClientOptions = {}): PublicClient {
  checkOptions(options);
  const engine = createEngine('public-v4', options);
  const client = {
    GET: (path: string, init?: CallOptions) => engine.call('get', path, undefined, init),
    close: () => engine.close(),
  };
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
  return describable('PrivateClient', client, visibleOptions(options)) as PrivateClient;
}

/** Opt-in throwing style: the data of a successful call, or its ApiError thrown. */
export async function unwrap<Data>(call: Promise<CallResult<Data, unknown>>): Promise<Data> {
  const result = await call;
  if (result.error) throw result.error;
  return result.data as Data;
}
