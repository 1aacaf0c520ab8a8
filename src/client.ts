// The clients: openapi-fetch's call shape (`{ data, error, response }`) over the generated paths,
// their options (checked at creation, with the option named when one is wrong), and the redacted
// view that is safe to show. A call goes from here to the engine (engine.ts), which does the rest.
// What a call needs (the engine, the transport, the route table) loads when a client is made, not
// with the package: the entry holds only what must be there at import.
import type { ErrorResponseJSON, RequiredKeysOf, SuccessResponseJSON } from 'openapi-typescript-helpers';
import {
  backoff,
  type OperationId,
  operationServers,
  type operations,
  servers,
  type signedBodyFields,
} from '../generated/operations.ts';
import type { paths as PrivatePaths } from '../generated/private-v4.ts';
import type { paths as PublicPaths } from '../generated/public-v4.ts';
import type { CallOptions, CallParams, Engine, EngineSettings, TokenCallOptions } from './engine.ts';
import { type CallResult, ConfigurationError } from './errors.ts';
import type { Hooks } from './hooks.ts';
import type { Limit } from './rate-window.ts';
import { createRequestSigner, type SigningOptions } from './signing.ts';
import type { FetchLike } from './transport/fetch.ts';
import type { Transport } from './transport/types.ts';
import { checkValidationOptions, type ValidationOptions } from './validation-options.ts';
import { type RetryPolicy, retryPolicyProblem, timerMsProblem } from './waits.ts';

export type { OperationId };
export type ApiName = keyof typeof servers;
export type ServerName = (typeof servers)[ApiName][number]['name'];

export interface ClientOptions {
  /**
   * Origin (and optional path prefix) to call; overrides `server`, and the own origin of an
   * operation that has one (the fiat gateway's `issueCardToken`): with it, every call goes here.
   */
  baseUrl?: string;
  /** A deployment named in the documents (x-server-name). */
  server?: ServerName;
  /** Any WHATWG fetch; by default Node uses undici's own connections, other runtimes their global fetch. */
  fetch?: FetchLike;
  /**
   * The transport every request goes through, instead of the runtime's default (or `fetch`'s):
   * to wrap the default one (`#transport`) and see each signed request and its answer.
   */
  transport?: Transport;
  /** Per attempt, waiting for a connection and reading the whole answer included; 0 turns it off. Default 10 s. */
  timeoutMs?: number;
  /** Answers larger than this many bytes end with a `too-large` error. Default 4 MiB. */
  maxResponseBytes?: number;
  /** Opt-in retries of retry-safe operations: true for the defaults, or a policy. */
  retry?: boolean | Partial<RetryPolicy>;
  /** Client-side rate limiting from the documents' limits (default on); limits may be overridden. */
  rateLimit?: boolean | { limits?: Partial<Record<OperationId, Limit>> };
  /** Sent as User-Agent. */
  userAgent?: string;
  /** Functions that see each step of every call (secret-free events); none by default. */
  hooks?: Hooks;
  /**
   * Check every answer (or `sampleRate` of them) against the documents and report drift to
   * `onDrift`; needs the optional peer dependency ajv. Off by default.
   */
  validate?: ValidationOptions;
}

export interface PrivateClientOptions extends ClientOptions, SigningOptions {}

/** The options as `client.options` shows them: defaults filled in, credentials redacted. */
export interface VisibleOptions {
  readonly baseUrl: string | undefined;
  readonly server: ServerName | undefined;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly retry: boolean | Partial<RetryPolicy>;
  readonly rateLimit: ClientOptions['rateLimit'];
  readonly userAgent: string | undefined;
  readonly fetch: 'custom' | 'default';
  /** The events hooks are set for. */
  readonly hooks: readonly string[];
  /** The share of answers validated; 0 when `validate` is not set. */
  readonly validateSampleRate: number;
  readonly apiKey?: string;
  readonly apiSecret?: '[redacted]';
  readonly nonceWindow?: boolean;
}

/** The body fields the signer adds (`request`, `nonce`, `nonceWindow`), never the caller. */
export type SignedFields = (typeof signedBodyFields)[number];
type JsonBody<Operation> = Operation extends { requestBody: { content: { 'application/json': infer Body } } }
  ? Body
  : never;
type PrivateOperation<Path extends keyof PrivatePaths> = PrivatePaths[Path]['post'];

/** A private operation's body as the caller writes it: without `request`, `nonce` or `nonceWindow`. */
export type CallerBody<Path extends keyof PrivatePaths> = Omit<
  JsonBody<PrivateOperation<Path>>,
  SignedFields
>;

/** The paths of the operations authorised by the fiat gateway's token, not by the signature. */
export type GatewayTokenPath = Extract<(typeof operations)[OperationId], { auth: 'gateway-token' }>['path'];

type SignedCallArgs<Path extends keyof PrivatePaths> =
  RequiredKeysOf<CallerBody<Path>> extends never
    ? [init?: CallOptions & { body?: CallerBody<Path> }]
    : [init: CallOptions & { body: CallerBody<Path> }];

/** A private call's options: its body, and for a fiat-gateway operation, the gateway's token. */
export type PrivateCallArgs<Path extends keyof PrivatePaths> = [Path] extends [never]
  ? SignedCallArgs<Path>
  : [Path] extends [GatewayTokenPath]
    ? [init: CallOptions & TokenCallOptions & { body: CallerBody<Path> }]
    : SignedCallArgs<Path>;

export type PrivateResult<Path extends keyof PrivatePaths> = CallResult<
  SuccessResponseJSON<PrivateOperation<Path>>,
  ErrorResponseJSON<PrivateOperation<Path>>
>;

/** A public operation's parameters as openapi-typescript writes them, without those it never has. */
type PublicParams<Path extends keyof PublicPaths> = PublicPaths[Path]['get'] extends {
  parameters: infer Params;
}
  ? {
      [Where in keyof Params as Where extends 'path' | 'query'
        ? Params[Where] extends never | undefined
          ? never
          : Where
        : never]: Params[Where];
    }
  : never;

/**
 * A public call's options: `params` (`{ path, query }`, as openapi-fetch takes them) required when
 * the path has a parameter or the query a required one, absent when the operation takes none.
 */
export type PublicCallArgs<Path extends keyof PublicPaths> = [keyof PublicParams<Path>] extends [never]
  ? [init?: CallOptions]
  : RequiredKeysOf<PublicParams<Path>> extends never
    ? [init?: CallOptions & { params?: PublicParams<Path> }]
    : [init: CallOptions & { params: PublicParams<Path> }];

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
  GET<Path extends keyof PublicPaths>(path: Path, ...init: PublicCallArgs<Path>): Promise<PublicResult<Path>>;
  close(): Promise<void>;
  readonly options: VisibleOptions;
}

/** An attempt's time limit unless the caller sets one. */
const defaultTimeoutMs = 10_000;
const defaultMaxResponseBytes = 4 * 1024 * 1024;

/** The operator's advice after a 429 (x-backoff in the documents): from 1 s, doubling, up to 30 s. */
export const defaultRetryPolicy: RetryPolicy = {
  attempts: 4,
  baseDelayMs: backoff.initialSeconds * 1000,
  maxDelayMs: backoff.maxSeconds * 1000,
};

/** The retry option as a policy: off, the defaults, or the defaults with the fields given. */
function resolveRetryPolicy(option: boolean | Partial<RetryPolicy> | undefined): RetryPolicy | undefined {
  if (!option) return undefined;
  if (option === true) return defaultRetryPolicy;
  const given = Object.entries(option).filter(([, value]) => value !== undefined);
  return { ...defaultRetryPolicy, ...Object.fromEntries(given) };
}
/** Visible ASCII, inner spaces allowed: a header value every transport sends as it is. */
const plainHeaderValue = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** The events a hook may be set for (a record, so that one left out of it does not compile). */
const hookEvents: Record<keyof Hooks, true> = {
  start: true,
  request: true,
  answer: true,
  retry: true,
  rateLimitWait: true,
  error: true,
  end: true,
};
const hookNames = Object.keys(hookEvents) as (keyof Hooks)[];

/** Throws a ConfigurationError naming the first option that is not usable. */
function checkOptions(options: ClientOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new ConfigurationError('options', 'must be an object');
  const { timeoutMs, userAgent, fetch, maxResponseBytes, transport, hooks } = options;
  const timeoutProblem = timeoutMs === undefined ? undefined : timerMsProblem(timeoutMs);
  if (timeoutProblem) throw new ConfigurationError('timeoutMs', `${timeoutProblem} (0: none)`);
  if (maxResponseBytes !== undefined && !(Number.isSafeInteger(maxResponseBytes) && maxResponseBytes > 0)) {
    throw new ConfigurationError('maxResponseBytes', 'must be a whole number of bytes, 1 or more');
  }
  if (userAgent !== undefined && !(typeof userAgent === 'string' && plainHeaderValue.test(userAgent))) {
    throw new ConfigurationError('userAgent', 'must be a string of visible ASCII characters');
  }
  if (fetch !== undefined && typeof fetch !== 'function')
    throw new ConfigurationError('fetch', 'must be a function');
  if (transport !== undefined) {
    if (typeof transport?.lease !== 'function' || typeof transport.close !== 'function')
      throw new ConfigurationError('transport', 'must have lease and close functions');
    if (fetch !== undefined) throw new ConfigurationError('transport', 'give fetch or transport, not both');
  }
  if (options.validate !== undefined) checkValidationOptions(options.validate);
  const retryProblem = retryPolicyProblem(options.retry);
  if (retryProblem) throw new ConfigurationError(retryProblem.field, retryProblem.message);
  if (hooks !== undefined) {
    if (typeof hooks !== 'object' || hooks === null)
      throw new ConfigurationError('hooks', 'must be an object');
    for (const [name, list] of Object.entries(hooks)) {
      if (!(hookNames as readonly string[]).includes(name)) {
        throw new ConfigurationError(
          `hooks.${name}`,
          `is not an event; the events are ${hookNames.join(', ')}`,
        );
      }
      if (list !== undefined && !(Array.isArray(list) && list.every((hook) => typeof hook === 'function'))) {
        throw new ConfigurationError(`hooks.${name}`, 'must be an array of functions');
      }
    }
  }
}

/** The hooks that are set, copied (a later change to the caller's arrays changes nothing), or none. */
function ownHooks(hooks: Hooks | undefined): Hooks | undefined {
  if (!hooks) return undefined;
  const own: Record<string, readonly unknown[]> = {};
  for (const name of hookNames) {
    const list = hooks[name];
    if (list && list.length > 0) own[name] = [...list];
  }
  return Object.keys(own).length > 0 ? (own as Hooks) : undefined;
}

/**
 * `baseUrl` checked and normalised: http or https, no credentials (never echoed), no query or
 * fragment, doubled slashes merged and the trailing one removed, so that a path appended to it is
 * the path called.
 */
function checkBaseUrl(baseUrl: unknown): string {
  const example = 'such as https://host or http://127.0.0.1:4010/prefix';
  if (typeof baseUrl !== 'string' || !URL.canParse(baseUrl)) {
    throw new ConfigurationError('baseUrl', `must be an absolute http(s) URL, ${example}`);
  }
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigurationError('baseUrl', `must use http or https, not ${url.protocol.slice(0, -1)}`);
  }
  if (url.username || url.password) {
    throw new ConfigurationError(
      'baseUrl',
      'must not carry credentials (user:password@); they would be sent and shown',
    );
  }
  if (url.search || baseUrl.includes('?'))
    throw new ConfigurationError('baseUrl', `must not have a query, ${example}`);
  if (url.hash || baseUrl.includes('#'))
    throw new ConfigurationError('baseUrl', `must not have a fragment, ${example}`);
  return url.origin + url.pathname.replace(/\/{2,}/g, '/').replace(/\/$/, '');
}

/** The base URL calls go to, without a trailing slash: `baseUrl`, or the named server of the documents. */
function resolveBaseUrl(api: ApiName, options: ClientOptions): string {
  if (options.baseUrl !== undefined) return checkBaseUrl(options.baseUrl);
  const name = options.server ?? 'global';
  const server = servers[api].find((candidate) => candidate.name === name);
  if (!server) {
    const names = servers[api].map((candidate) => candidate.name).join(', ');
    throw new ConfigurationError('server', `unknown server "${name}"; the documents name ${names}`);
  }
  const variables: Record<string, string> = server.variables;
  return checkBaseUrl(server.url.replace(/\{(\w+)\}/g, (_, variable: string) => variables[variable] ?? ''));
}

/**
 * The origins of the API's operations that have their own servers (by operationId): the one named
 * like the client's `server` if the operation has it, else its first. None with a base URL.
 */
function resolveOperationOrigins(api: ApiName, options: ClientOptions): Record<string, string> | undefined {
  if (options.baseUrl !== undefined) return undefined;
  type Server = { readonly name: string; readonly url: string; readonly variables: object };
  const byApi: Readonly<Record<string, Readonly<Record<string, readonly Server[]>>>> = operationServers;
  const own = byApi[api] ?? {};
  const name = options.server ?? 'global';
  const origins: Record<string, string> = {};
  for (const [operationId, list] of Object.entries(own)) {
    const server = list.find((candidate) => candidate.name === name) ?? list[0];
    if (!server) continue;
    const variables = server.variables as Record<string, string>;
    origins[operationId] = checkBaseUrl(
      server.url.replace(/\{(\w+)\}/g, (_, variable: string) => variables[variable] ?? ''),
    );
  }
  return origins;
}

/** The redacted view of the options: what is safe to log. */
function visibleOptions(
  options: ClientOptions | PrivateClientOptions,
  hooks: Hooks | undefined,
): VisibleOptions {
  const visible: VisibleOptions = {
    // Checked at creation: it holds no credentials.
    baseUrl: options.baseUrl,
    server: options.server,
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
    maxResponseBytes: options.maxResponseBytes ?? defaultMaxResponseBytes,
    retry: options.retry ?? false,
    rateLimit: options.rateLimit ?? true,
    userAgent: options.userAgent,
    fetch: options.fetch ? 'custom' : 'default',
    hooks: Object.keys(hooks ?? {}),
    validateSampleRate: options.validate ? (options.validate.sampleRate ?? 1) : 0,
  };
  if (!('apiKey' in options)) return visible;
  return {
    ...visible,
    apiKey: options.apiKey,
    apiSecret: '[redacted]',
    nonceWindow: options.nonceWindow ?? false,
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

/** Each client's engine, for calls whose path is known only at run time (`callByPath`). */
const engines = new WeakMap<object, Engine>();

/**
 * The engine of a client, loaded with its transport and the route table as the client is made,
 * so that a first call's deadline never includes their loading: a call made meanwhile waits for
 * them before its deadline starts. Closed before they are loaded, it is closed as it loads, so
 * that no call waiting for it is sent.
 */
function loadEngine(settings: EngineSettings, options: ClientOptions): Engine {
  const { validate } = options;
  let engine: Engine | undefined;
  let closing: Promise<void> | undefined;
  const loading = Promise.all([
    import('./engine.ts'),
    options.transport ??
      (options.fetch
        ? import('./transport/fetch.ts').then((module) => module.createFetchTransport(options.fetch))
        : import('#transport').then((module) => module.createDefaultTransport())),
    import('../generated/routes.ts'),
    // Only a client that validates loads the validator, the documents' responses and ajv.
    validate &&
      import('./validation.ts').then(async (module) => ({
        module,
        validator: await module.createResponseValidator(validate),
      })),
  ]).then(([module, transport, routes, validation]) => {
    const checked = validation
      ? validation.module.validatingTransport(transport, validation.validator)
      : transport;
    engine = module.createEngine(settings, checked, routes.clientRoutes);
    if (closing) engine.close();
    return engine;
  });
  // A failed load is reported to the calls that need it, never as an unhandled rejection.
  loading.catch(() => undefined);
  return {
    call: (method, path, body, init) =>
      engine
        ? engine.call(method, path, body, init)
        : loading.then((ready) => ready.call(method, path, body, init)),
    close() {
      closing ??= engine
        ? engine.close()
        : loading.then(
            (ready) => ready.close(),
            () => undefined,
          );
      return closing;
    },
  };
}

function engineFor(
  api: ApiName,
  options: ClientOptions,
  scope: string | undefined,
  signing?: SigningOptions,
) {
  checkOptions(options);
  const signer = signing ? createRequestSigner(signing) : undefined;
  const baseUrl = resolveBaseUrl(api, options);
  const hooks = ownHooks(options.hooks);
  const settings: EngineSettings = {
    baseUrl,
    origins: resolveOperationOrigins(api, options),
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
    maxResponseBytes: options.maxResponseBytes ?? defaultMaxResponseBytes,
    retry: resolveRetryPolicy(options.retry),
    rateLimit: options.rateLimit ?? true,
    userAgent: options.userAgent,
    hooks,
    signer,
    scope: scope ?? `public:${new URL(baseUrl).origin}`,
  };
  return { engine: loadEngine(settings, options), hooks };
}

export function createPublicClient(options: ClientOptions = {}): PublicClient {
  const { engine, hooks } = engineFor('public-v4', options, undefined);
  const client = {
    GET: (path: string, init?: CallOptions & { params?: CallParams }) =>
      engine.call('get', path, undefined, init),
    close: () => engine.close(),
  };
  engines.set(client, engine);
  // The generic signature is enforced at the call site; the engine checks paths at run time.
  return describable('PublicClient', client, visibleOptions(options, hooks)) as PublicClient;
}

export function createPrivateClient(options: PrivateClientOptions): PrivateClient {
  const { engine, hooks } = engineFor('private-v4', options, `key:${options?.apiKey}`, options);
  const client = {
    POST: (path: string, init?: CallOptions & { body?: unknown; gatewayToken?: string }) =>
      engine.call('post', path, init?.body, init),
    close: () => engine.close(),
  };
  engines.set(client, engine);
  return describable('PrivateClient', client, visibleOptions(options, hooks)) as PrivateClient;
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
  params?: CallParams,
  token?: Partial<TokenCallOptions>,
): Promise<CallResult<unknown, unknown>> {
  const engine = engines.get(client);
  if (!engine)
    throw new ConfigurationError(
      'client',
      'must be a client made by createPublicClient or createPrivateClient',
    );
  const init = params || token ? { ...(params && { params }), ...token } : undefined;
  return engine.call('GET' in client ? 'get' : 'post', path, body, init);
}

/** Opt-in throwing style: the data of a successful call, or its ApiError thrown. */
export async function unwrap<Data>(call: Promise<CallResult<Data, unknown>>): Promise<Data> {
  const result = await call;
  if (result.error) throw result.error;
  return result.data as Data;
}
