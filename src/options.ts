// Client options: their types, the checks that name a wrong option at creation, the defaults,
// and the redacted view that is safe to show (util.inspect, JSON.stringify, logs).
import { servers } from '../generated/operations.ts';
import { ConfigurationError } from './errors.ts';
import type { Limit } from './rate-limit.ts';
import { type RetryPolicy, retryPolicyProblem } from './retry.ts';
import type { SigningOptions } from './sign-request.ts';
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
  /** Any WHATWG fetch; by default Node uses undici's Pool, other runtimes their global fetch. */
  fetch?: FetchLike;
  /**
   * The transport every exchange goes through, instead of the runtime's default (or `fetch`'s):
   * to wrap the default one (`#transport`) and see each signed request and its answer.
   */
  transport?: Transport;
  /** Per attempt; 0 turns the timeout off. Default 10 s. */
  timeoutMs?: number;
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
  readonly retry: boolean | Partial<RetryPolicy>;
  readonly rateLimit: ClientOptions['rateLimit'];
  readonly userAgent: string | undefined;
  readonly fetch: 'custom' | 'default';
  readonly apiKey?: string;
  readonly apiSecret?: '[redacted]';
  readonly nonceWindow?: boolean;
}

export const defaultTimeoutMs = 10_000;
/** Visible ASCII, inner spaces allowed: a header value every transport sends as it is. */
const plainHeaderValue = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** Throws a ConfigurationError naming the first option that is not usable. */
export function checkOptions(options: ClientOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new ConfigurationError('options', 'must be an object');
  const { timeoutMs, userAgent, fetch, transport } = options;
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs >= 0)) {
    throw new ConfigurationError('timeoutMs', 'must be a number of milliseconds, 0 or more');
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

/** The base URL calls go to: `baseUrl`, or the named server of the documents. */
export function resolveBaseUrl(api: ApiName, options: ClientOptions): string {
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

/** A URL as it may be shown: a username or password in it is redacted. */
export function withoutCredentials(href: string): string {
  const url = new URL(href);
  if (!url.username && !url.password) return href;
  url.username = '[redacted]';
  url.password = '[redacted]';
  return url.toString();
}

/** The redacted view of the options: what is safe to log. */
export function visibleOptions(options: ClientOptions | PrivateClientOptions): VisibleOptions {
  const visible: VisibleOptions = {
    baseUrl: options.baseUrl === undefined ? undefined : withoutCredentials(options.baseUrl),
    server: options.server,
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
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
