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
  type PrivateClientOptions,
  resolveBaseUrl,
  type VisibleOptions,
  visibleOptions,
} from './options.ts';
import { copyPlainData } from './plain-data.ts';
import { type SlidingWindow, sharedWindow, sleep } from './rate-limit.ts';
import { isRetryable, resolveRetryPolicy, retryDelayMs } from './retry.ts';
import { createRequestSigner, type RequestSigner, type SignedRequest } from './sign-request.ts';
import { createFetchTransport } from './transport/fetch.ts';
import type { Outgoing, ResponseLike, Transport } from './transport/types.ts';
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
  if (signer) baseHeaders['content-type'] = 'application/json';
  if (options.userAgent) baseHeaders['user-agent'] = options.userAgent;
  const unsigned = { headers: baseHeaders, body: undefined };
  // Closing ends every wait of every call: the transport's exchanges, the rate limiter, retries.
  const closing = new AbortController();
  const closedError = () => new ClientClosedError('the client was closed');

  /** The signed headers and body, after any window-mode hold; without a promise when neither waits. */
  function prepareSigned(
    signer: RequestSigner,
    path: string,
    fields: Record<string, unknown> | undefined,
    wait: (ms: number) => Promise<void>,
  ): Outgoing | Promise<Outgoing> {
    const finish = (signed: SignedRequest): Outgoing | Promise<Outgoing> => {
      const outgoing = { headers: { ...baseHeaders, ...signed.headers }, body: signed.body };
      // A window-mode nonce ahead of the clock waits, within the attempt's deadline.
      if (signed.holdMs() <= 0) return outgoing;
      return (async () => {
        for (let hold = signed.holdMs(); hold > 0; hold = signed.holdMs()) await wait(hold);
        return outgoing;
      })();
    };
    const signed = signer.sign(path, fields);
    return signed instanceof Promise ? signed.then(finish) : finish(signed);
  }

  /** One attempt: sent, signed afresh (a new nonce) once a connection is free, and its answer read. */
  async function attempt(
    route: Route,
    fields: Record<string, unknown> | undefined,
    init: CallOptions,
  ): Promise<AnyResult> {
    try {
      const answer = await transport.send({
        url: baseUrl + route.path,
        method: route.method.toUpperCase(),
        prepare: signer ? (wait) => prepareSigned(signer, route.path, fields, wait) : () => unsigned,
        signal: init.signal,
        timeoutMs: init.timeoutMs ?? timeoutMs,
        maxResponseBytes,
      });
      const read = readAnswer(route.operationId, answer, signer?.scrub);
      return 'data' in read
        ? { data: read.data, response: answer.response }
        : { error: read.error, response: answer.response };
    } catch (cause) {
      return { error: errorWithoutAnswer(route.operationId, cause, init.signal) };
    }
  }

  async function call(method: 'get' | 'post', path: string, body: unknown, init: CallOptions = {}) {
    const route = routeFor(method, path);
    const fail = (kind: ApiError['kind'], message: string, field?: string): AnyResult => ({
      error: new ApiError(message, { kind, operationId: route.operationId, field }),
    });
    if (closing.signal.aborted) return fail('closed', describeFailure('closed', route.operationId));
    const problem = callOptionsProblem(init);
    if (problem) return fail('invalid-request', `${problem.field}: ${problem.message}`, problem.field);
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      return fail('invalid-request', 'body must be an object', 'body');
    }
    // What is validated is what is signed: one copy of the caller's own plain data.
    const copy = body === undefined ? undefined : copyPlainData(body);
    if (copy && 'problem' in copy) return fail('invalid-request', copy.problem.message, copy.problem.field);
    const fields = copy?.value as Record<string, unknown> | undefined;
    const violation = 'body' in route ? checkBody(route.body, fields ?? {}) : undefined;
    if (violation) return fail('invalid-request', violation.message, violation.field);

    // The caller's signal and the client's closing, joined only for the waits that need both.
    const stop = init.signal ? AbortSignal.any([init.signal, closing.signal]) : closing.signal;
    const ended = (): AnyResult =>
      closing.signal.aborted
        ? fail('closed', describeFailure('closed', route.operationId))
        : fail('aborted', describeFailure('aborted', route.operationId));
    // Only operations the documents mark x-retry-safe are ever sent more than once.
    const policy = route.retrySafe ? retryPolicy : undefined;
    const window = windowFor(route);
    for (let attempts = 1; ; attempts++) {
      let release: (() => void) | undefined;
      try {
        release = await window?.acquire(stop);
      } catch {
        return ended();
      }
      const outcome: AnyResult = await attempt(route, fields, init).finally(release);
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
