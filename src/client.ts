// The clients: openapi-fetch's call shape and types, from the generated paths, behind a thin
// call layer that validates the body, signs it once, waits for the rate limiter, retries what
// the documents allow, and turns every failure into a typed ApiError. A call goes out through
// openapi-fetch (with an injected fetch, or on other runtimes) or, on Node by default, straight
// to undici (see `request`). Everything the API itself defines (paths, limits, retry-safety,
// header names, body rules, servers) comes from generated/.
import createClient from 'openapi-fetch';
import type { ErrorResponseJSON, RequiredKeysOf, SuccessResponseJSON } from 'openapi-typescript-helpers';
import {
  clientRoutes,
  type OperationId,
  servers,
  signedBodyFields,
  signingHeaders,
} from '../generated/operations.ts';
import type { paths as PrivatePaths } from '../generated/private-v4.ts';
import type { paths as PublicPaths } from '../generated/public-v4.ts';
import {
  ApiError,
  ConfigurationError,
  describeFailure,
  parseRetryAfter,
  responseErrorKind,
} from './errors.ts';
import { type Clock, nextNonce } from './nonce.ts';
import { type Limit, type SlidingWindow, sharedWindow, sleep } from './rate-limit.ts';
import {
  isRetryable,
  type RetryPolicy,
  resolveRetryPolicy,
  retryDelayMs,
  retryPolicyProblem,
} from './retry.ts';
import { createSigner, type Signer } from './signing.ts';
import type { UndiciTransport } from './undici-transport.ts';
import { checkBody } from './validate.ts';

type Facts = (typeof clientRoutes)[keyof typeof clientRoutes];

export type { OperationId };

type ApiName = keyof typeof servers;
export type ServerName = (typeof servers)[ApiName][number]['name'];

export interface ClientOptions {
  /** Origin (and optional path prefix) to call; overrides `server`. */
  baseUrl?: string;
  /** A deployment named in the documents (x-server-name). */
  server?: ServerName;
  /** Any WHATWG fetch; by default Node uses undici's Pool, other runtimes their global fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** Per attempt; 0 turns the timeout off. Default 10 s. */
  timeoutMs?: number;
  /** Opt-in retries of retry-safe operations: true for the defaults, or a policy. */
  retry?: boolean | Partial<RetryPolicy>;
  /** Client-side rate limiting from the documents' limits (default on); limits may be overridden. */
  rateLimit?: boolean | { limits?: Partial<Record<OperationId, Limit>> };
  userAgent?: string;
}

export interface PrivateClientOptions extends ClientOptions {
  apiKey: string;
  apiSecret: string;
  /** Send `nonceWindow: true`: nonces are millisecond timestamps checked within a window. */
  nonceWindow?: boolean;
  /** The millisecond clock nonces are taken from (tests step it backwards). */
  clock?: Clock;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** What a response offers: a WHATWG Response, or the undici transport's lighter equivalent. */
export interface ResponseLike {
  readonly status: number;
  readonly ok: boolean;
  readonly url: string;
  readonly headers: { get(name: string): string | null };
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
  /** Closes the default transport's connections. */
  close(): Promise<void>;
  /** The options in force, secret redacted. */
  readonly options: Readonly<Record<string, unknown>>;
}

export interface PublicClient {
  GET<Path extends keyof PublicPaths>(path: Path, init?: CallOptions): Promise<PublicResult<Path>>;
  close(): Promise<void>;
  readonly options: Readonly<Record<string, unknown>>;
}

const signedFields = new Set<string>(signedBodyFields);
const defaultTimeoutMs = 10_000;
/** How far a window-mode nonce may run ahead of the clock before its call waits. */
const nonceWindowLeadMs = 1000;
const apiKeyHeader = signingHeaders.ApiKey.toLowerCase();
const payloadHeader = signingHeaders.Payload.toLowerCase();
const signatureHeader = signingHeaders.Signature.toLowerCase();
/** Visible ASCII, inner spaces allowed: a header value every transport sends as it is. */
const plainHeaderValue = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
const isNode =
  typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string';

function resolveBaseUrl(api: ApiName, options: ClientOptions): string {
  if (options.baseUrl !== undefined) {
    if (typeof options.baseUrl !== 'string' || !URL.canParse(options.baseUrl)) {
      throw new ConfigurationError(
        'baseUrl',
        'must be an absolute URL such as https://host or http://127.0.0.1:4010',
      );
    }
    return options.baseUrl;
  }
  const name = options.server ?? 'global';
  const server = servers[api].find((candidate) => candidate.name === name);
  if (!server) {
    const names = servers[api].map((candidate) => candidate.name).join(', ');
    throw new ConfigurationError('server', `unknown server "${name}"; the documents name ${names}`);
  }
  const variables: Record<string, string> = server.variables;
  const url = server.url.replace(/\{(\w+)\}/g, (_, variable: string) => variables[variable] ?? '');
  // The documents mark an origin the specification does not show with a reserved .invalid host.
  if (new URL(url).hostname.endsWith('.invalid')) {
    throw new ConfigurationError(
      'baseUrl',
      `the specification does not show the origin of the "${name}" server (${server.url}); pass baseUrl`,
    );
  }
  return url;
}

function checkOptions(options: ClientOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new ConfigurationError('options', 'must be an object');
  const { timeoutMs, userAgent, fetch } = options;
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs >= 0)) {
    throw new ConfigurationError('timeoutMs', 'must be a number of milliseconds, 0 or more');
  }
  if (userAgent !== undefined && !(typeof userAgent === 'string' && plainHeaderValue.test(userAgent))) {
    throw new ConfigurationError('userAgent', 'must be a string of visible ASCII characters');
  }
  if (fetch !== undefined && typeof fetch !== 'function')
    throw new ConfigurationError('fetch', 'must be a function');
  const retryProblem = retryPolicyProblem(options.retry);
  if (retryProblem) {
    const [field, message] = retryProblem.split(': ') as [string, string];
    throw new ConfigurationError(field, message);
  }
}

interface Engine {
  call(facts: Facts, body: unknown, init: CallOptions | undefined): Promise<CallResult<unknown, unknown>>;
  close(): Promise<void>;
}

interface Signing {
  apiKey: string;
  signer: Signer;
  nonceWindow: boolean;
  clock: Clock;
}

/**
 * A per-attempt deadline with the behaviour of AbortSignal.timeout (it aborts with the same
 * TimeoutError DOMException, and its timer never keeps the process alive), cleared as soon as the
 * attempt ends. AbortSignal.timeout cannot be cleared: every call leaves a weakly tracked timer
 * pending for the whole timeout, which measured about half of the client's own cost per call.
 */
function startTimeout(ms: number): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    ms,
  );
  (timer as { unref?: () => void }).unref?.();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

function anySignal(signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  return present.length <= 1 ? present[0] : AbortSignal.any(present);
}

function createEngine(api: ApiName, options: ClientOptions, signing?: Signing): Engine {
  const baseUrl = resolveBaseUrl(api, options);
  const base = createClient({ baseUrl, ...(options.fetch ? { fetch: options.fetch as typeof fetch } : {}) });
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const retryPolicy = resolveRetryPolicy(options.retry);
  const rateLimit = options.rateLimit ?? true;
  const limitKey = signing ? `key:${signing.apiKey}` : `public:${new URL(baseUrl).origin}`;
  const windows = new Map<string, SlidingWindow | undefined>();
  const windowFor = (facts: Facts) => {
    if (!windows.has(facts.operationId)) {
      const override = typeof rateLimit === 'object' ? rateLimit.limits?.[facts.operationId] : undefined;
      windows.set(
        facts.operationId,
        rateLimit ? sharedWindow(`${limitKey}:${facts.operationId}`, override ?? facts.rateLimit) : undefined,
      );
    }
    return windows.get(facts.operationId);
  };

  // On Node, without an injected fetch, calls go straight to undici (loaded on first use, so
  // other runtimes never import it): openapi-fetch's work per call (two Headers objects, a
  // Request, its option plumbing) measured about as much CPU as the whole undici round trip
  // (bench/README.md). The direct path reads the answer as openapi-fetch does; every other
  // setup (an injected fetch, another runtime) goes through openapi-fetch.
  let transport: Promise<UndiciTransport> | undefined;
  const direct = !options.fetch && isNode;
  const urlBase = baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl;

  /** One attempt: openapi-fetch's `{ data, error, response }`, the body read as text. */
  async function request(
    facts: Facts,
    headers: Record<string, string>,
    body: string | undefined,
    init: CallOptions,
    timeoutMs: number,
  ): Promise<{ data?: unknown; error?: unknown; response: ResponseLike }> {
    if (direct) {
      transport ??= import('./undici-transport.ts').then((module) => module.createUndiciTransport());
      const { send } = await transport;
      return send(urlBase + facts.path, facts.method.toUpperCase(), headers, body, init.signal, timeoutMs);
    }
    const timeout = timeoutMs > 0 ? startTimeout(timeoutMs) : undefined;
    try {
      return await base.request(
        facts.method,
        facts.path as never,
        {
          body,
          bodySerializer: (serialized: unknown) => serialized,
          headers,
          signal: anySignal([init.signal, timeout?.signal]),
          parseAs: 'text',
        } as never,
      );
    } finally {
      timeout?.clear();
    }
  }

  const fail = (facts: Facts, kind: ApiError['kind'], message: string, extra: Partial<ApiError> = {}) => ({
    error: new ApiError(message, { kind, operationId: facts.operationId, ...extra }),
  });

  async function serialize(facts: Facts, callerBody: Record<string, unknown> | undefined) {
    // Names as Headers would hold them: lowercase, in order (openapi-fetch adds the same
    // content-type itself when there is a body).
    const headers: Record<string, string> = {};
    if (signing) headers['content-type'] = 'application/json';
    if (options.userAgent) headers['user-agent'] = options.userAgent;
    if (!signing) return { headers, body: undefined, holdMs: 0 };
    // A null prototype keeps a caller's field named __proto__ an ordinary field.
    const full: Record<string, unknown> = Object.create(null);
    full.request = facts.path;
    full.nonce = nextNonce(signing.apiKey, signing.clock);
    if (signing.nonceWindow) full.nonceWindow = true;
    if (callerBody) {
      for (const field in callerBody) {
        if (!signedFields.has(field) && Object.hasOwn(callerBody, field)) full[field] = callerBody[field];
      }
    }
    const body = JSON.stringify(full);
    const { payload, signature } = await signing.signer(body);
    headers[apiKeyHeader] = signing.apiKey;
    headers[payloadHeader] = payload;
    headers[signatureHeader] = signature;
    // In window mode a nonce must stay a timestamp near the server's clock, but a burst of more
    // than one call per millisecond pushes the sequence ahead of it: hold such a call until the
    // clock is at most a second behind its nonce (the window is about 5 s).
    const holdMs = signing.nonceWindow ? Number(full.nonce) - signing.clock() - nonceWindowLeadMs : 0;
    return { headers, body, holdMs };
  }

  async function send(
    facts: Facts,
    callerBody: Record<string, unknown> | undefined,
    init: CallOptions,
  ): Promise<CallResult<unknown, unknown>> {
    const { headers, body, holdMs } = await serialize(facts, callerBody);
    let outcome: { data?: unknown; error?: unknown; response: ResponseLike };
    try {
      if (holdMs > 0) await sleep(holdMs, init.signal);
      outcome = await request(facts, headers, body, init, init.timeoutMs ?? timeoutMs);
    } catch (cause) {
      // A deadline aborts with a TimeoutError, as AbortSignal.timeout does.
      const timedOut = (cause as { name?: unknown } | undefined)?.name === 'TimeoutError';
      const kind = init.signal?.aborted ? 'aborted' : timedOut ? 'timeout' : 'transport';
      const reason =
        cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : '';
      return fail(facts, kind, `${describeFailure(kind, facts.operationId)}${reason ? `: ${reason}` : ''}`, {
        cause,
      });
    }
    const { response } = outcome;
    if (response.ok) {
      try {
        if (typeof outcome.data !== 'string' || outcome.data === '') throw new SyntaxError('empty body');
        return { data: JSON.parse(outcome.data), response };
      } catch (cause) {
        const kind = 'unexpected-body';
        return {
          ...fail(facts, kind, `${describeFailure(kind, facts.operationId, response.status)}: not JSON`, {
            status: response.status,
            cause,
          }),
          response,
        };
      }
    }
    // openapi-fetch has parsed the error body when it was JSON and left the text otherwise.
    const parsed = outcome.error !== undefined && typeof outcome.error !== 'string';
    const kind = responseErrorKind(response.status, outcome.error, parsed);
    return {
      ...fail(facts, kind, describeFailure(kind, facts.operationId, response.status, outcome.error), {
        status: response.status,
        body: outcome.error,
        retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
      }),
      response,
    };
  }

  async function call(
    facts: Facts,
    body: unknown,
    init: CallOptions = {},
  ): Promise<CallResult<unknown, unknown>> {
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      return fail(facts, 'invalid-request', 'body must be an object', { field: 'body' });
    }
    const callerBody = body as Record<string, unknown> | undefined;
    const violation = 'body' in facts ? checkBody(facts.body, callerBody ?? {}) : undefined;
    if (violation) return fail(facts, 'invalid-request', violation.message, { field: violation.field });

    // Only operations the documents mark x-retry-safe are ever sent more than once.
    const policy = facts.retrySafe ? retryPolicy : undefined;
    const window = windowFor(facts);
    for (let attempt = 1; ; attempt++) {
      let release: (() => void) | undefined;
      try {
        release = await window?.acquire(init.signal);
      } catch {
        return fail(facts, 'aborted', describeFailure('aborted', facts.operationId));
      }
      const outcome = await send(facts, callerBody, init).finally(release);
      const error = outcome.error;
      if (!error) return outcome;
      if (!policy || attempt >= policy.attempts || !isRetryable(error) || init.signal?.aborted) {
        return attempt === 1 ? outcome : { ...outcome, error: error.withAttempts(attempt) };
      }
      try {
        await sleep(retryDelayMs(policy, attempt, error.retryAfterMs), init.signal);
      } catch {
        return { ...outcome, error: error.withAttempts(attempt) };
      }
    }
  }

  return {
    call,
    async close() {
      if (transport) await (await transport).close();
    },
  };
}

function factsFor(method: string, path: string): Facts {
  const route = `${method} ${path}`;
  const facts = Object.hasOwn(clientRoutes, route)
    ? clientRoutes[route as keyof typeof clientRoutes]
    : undefined;
  if (!facts)
    throw new ConfigurationError(
      'path',
      `${method.toUpperCase()} ${path} is not an operation of the documents`,
    );
  return facts;
}

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

function describable<T extends object>(kind: string, client: T, options: Record<string, unknown>): T {
  const shown = Object.freeze({ ...options });
  Object.defineProperties(client, {
    options: { value: shown, enumerable: true },
    toJSON: { value: () => ({ kind, options: shown }) },
    [inspectSymbol]: { value: () => `${kind} ${JSON.stringify(shown)}` },
  });
  return client;
}

/** A URL as it may be shown: a username or password in it is redacted. */
function withoutCredentials(href: string): string {
  const url = new URL(href);
  if (!url.username && !url.password) return href;
  url.username = '[redacted]';
  url.password = '[redacted]';
  return url.toString();
}

/** Redacted view of the options: what is safe to log. */
function visibleOptions(
  options: ClientOptions,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    baseUrl: options.baseUrl === undefined ? undefined : withoutCredentials(options.baseUrl),
    server: options.server,
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
    retry: options.retry ?? false,
    rateLimit: options.rateLimit ?? true,
    userAgent: options.userAgent,
    fetch: options.fetch ? 'custom' : 'default',
    ...extra,
  };
}

export function createPublicClient(options: ClientOptions = {}): PublicClient {
  checkOptions(options);
  const engine = createEngine('public-v4', options);
  const client = {
    GET: (path: string, init?: CallOptions) => engine.call(factsFor('get', path), undefined, init),
    close: () => engine.close(),
  };
  return describable('PublicClient', client, visibleOptions(options)) as unknown as PublicClient;
}

export function createPrivateClient(options: PrivateClientOptions): PrivateClient {
  checkOptions(options);
  const { apiKey, apiSecret, nonceWindow = false, clock = Date.now } = options;
  if (typeof apiKey !== 'string' || !/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new ConfigurationError('apiKey', 'must be a non-empty string of visible ASCII characters');
  }
  if (typeof apiSecret !== 'string' || apiSecret.length === 0) {
    throw new ConfigurationError('apiSecret', 'must be a non-empty string');
  }
  if (typeof nonceWindow !== 'boolean') throw new ConfigurationError('nonceWindow', 'must be a boolean');
  if (typeof clock !== 'function') throw new ConfigurationError('clock', 'must be a function');
  const engine = createEngine('private-v4', options, {
    apiKey,
    signer: createSigner(apiSecret),
    nonceWindow,
    clock,
  });
  const client = {
    POST: (path: string, init?: CallOptions & { body?: unknown }) =>
      engine.call(factsFor('post', path), init?.body, init),
    close: () => engine.close(),
  };
  return describable(
    'PrivateClient',
    client,
    visibleOptions(options, { apiKey, apiSecret: '[redacted]', nonceWindow }),
  ) as unknown as PrivateClient;
}

/** Opt-in throwing style: the data of a successful call, or its ApiError thrown. */
export async function unwrap<Data>(call: Promise<CallResult<Data, unknown>>): Promise<Data> {
  const result = await call;
  if (result.error) throw result.error;
  return result.data as Data;
}
