// Client options: their types, the checks that name a wrong option at creation, the defaults,
// and the redacted view that is safe to show (util.inspect, JSON.stringify, logs).
import { servers } from '../generated/operations.ts';
import { ConfigurationError } from './errors.ts';
import type { Limit } from './rate-limit.ts';
import { type RetryPolicy, retryPolicyProblem } from './retry.ts';
import type { SigningOptions } from './sign-request.ts';
import { maxTimerMs } from './transport/deadline.ts';
import type { FetchLike } from './transport/fetch.ts';
import type { Transport } from './transport/types.ts';

export type ApiName = keyof typeof servers;
export type ServerName = (typeof servers)[ApiName][number]['name'];
export type OperationId = keyof typeof import('../generated/operations.ts').operations;

export interface ClientOptions {
  /** Origin (and optional path prefix) to call; overrides `server`. */
  baseUrl?: string;
  /** A deployment named in the documents (x-server-name). */
  server?: ServerName;
  /** Any WHATWG fetch; by default Node uses undici's own connections, other runtimes their global fetch. */
  fetch?: FetchLike;
  /**
   * The transport every exchange goes through, instead of the runtime's default (or `fetch`'s):
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
  readonly apiKey?: string;
  readonly apiSecret?: '[redacted]';
  readonly nonceWindow?: boolean;
}

export const defaultTimeoutMs = 10_000;
export const defaultMaxResponseBytes = 4 * 1024 * 1024;
/** Visible ASCII, inner spaces allowed: a header value every transport sends as it is. */
const plainHeaderValue = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** Throws a ConfigurationError naming the first option that is not usable. */
export function checkOptions(options: ClientOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new ConfigurationError('options', 'must be an object');
  const { timeoutMs, userAgent, fetch, maxResponseBytes, transport } = options;
  const timeoutProblem = timeoutMsProblem(timeoutMs);
  if (timeoutProblem) throw new ConfigurationError('timeoutMs', timeoutProblem);
  if (maxResponseBytes !== undefined && !(Number.isSafeInteger(maxResponseBytes) && maxResponseBytes > 0)) {
    throw new ConfigurationError('maxResponseBytes', 'must be a whole number of bytes, 1 or more');
  }
  if (userAgent !== undefined && !(typeof userAgent === 'string' && plainHeaderValue.test(userAgent))) {
    throw new ConfigurationError('userAgent', 'must be a string of visible ASCII characters');
  }
  if (fetch !== undefined && typeof fetch !== 'function')
    throw new ConfigurationError('fetch', 'must be a function');
  if (transport !== undefined) {
    if (typeof transport?.send !== 'function' || typeof transport.close !== 'function')
      throw new ConfigurationError('transport', 'must have send and close functions');
    if (fetch !== undefined) throw new ConfigurationError('transport', 'give fetch or transport, not both');
  }
  const retryProblem = retryPolicyProblem(options.retry);
  if (retryProblem) throw new ConfigurationError(retryProblem.field, retryProblem.message);
}

/** What is wrong with a timeout, client-wide or per call, or undefined. */
function timeoutMsProblem(timeoutMs: unknown): string | undefined {
  if (timeoutMs === undefined) return undefined;
  if (
    typeof timeoutMs === 'number' &&
    Number.isFinite(timeoutMs) &&
    timeoutMs >= 0 &&
    timeoutMs <= maxTimerMs
  ) {
    return undefined;
  }
  return `must be a number of milliseconds from 0 (none) to ${maxTimerMs}`;
}

/** What is wrong with a call's own options (`timeoutMs`, `signal`), checked like the client's. */
export function callOptionsProblem(init: unknown): { field: string; message: string } | undefined {
  if (typeof init !== 'object' || init === null) return { field: 'init', message: 'must be an object' };
  const { timeoutMs, signal } = init as { timeoutMs?: unknown; signal?: unknown };
  const timeoutProblem = timeoutMsProblem(timeoutMs);
  if (timeoutProblem) return { field: 'timeoutMs', message: timeoutProblem };
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    return { field: 'signal', message: 'must be an AbortSignal' };
  }
  return undefined;
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
export function resolveBaseUrl(api: ApiName, options: ClientOptions): string {
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

/** The redacted view of the options: what is safe to log. */
export function visibleOptions(options: ClientOptions | PrivateClientOptions): VisibleOptions {
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
export function describable<Client extends object>(kind: string, client: Client, options: VisibleOptions) {
  const shown = Object.freeze({ ...options });
  Object.defineProperties(client, {
    options: { value: shown, enumerable: true },
    toJSON: { value: () => ({ kind, options: shown }) },
    [inspectSymbol]: { value: () => `${kind} ${JSON.stringify(shown)}` },
  });
  return client as Client & { readonly options: VisibleOptions };
}
