// The engine: one call from the client's arguments to its result, read top-down. It finds the
// route, checks the caller's input (request-checks.ts), finds the route's rate window
// (rate-window.ts), and runs the attempts (attempts.ts): a deadline, a connection leased from the
// transport, the request signed on it, sent, and the answer read; a retry where the documents
// allow it. Hooks (hooks.ts) see each step, secret-free. Everything the API defines (paths,
// limits, body rules, what may be repeated) comes from generated/.
import { type CheckedCall, createAttempts, type Lifetime } from './attempts.ts';
import {
  ApiError,
  type ApiErrorKind,
  type CallResult,
  ClientClosedError,
  ConfigurationError,
  describeFailure,
} from './errors.ts';
import { type Hooks, type Trace, traced } from './hooks.ts';
import { type Limit, type RateLimitOption, rateWindow } from './rate-window.ts';
import {
  type BodyCheck,
  type BodyRules,
  callOptionsProblem,
  compileBody,
  copyPlainData,
  type FieldRule,
  hasSensitive,
  maskSensitive,
  sensitiveValues,
  targetWith,
} from './request-checks.ts';
import type { RequestSigner } from './signing.ts';
import type { Target, Transport } from './transport/types.ts';
import { endDeadlinesOf, type Permits, type RetryPolicy } from './waits.ts';

export type { BodyRules, FieldRule };

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * A token call's own option: the fiat gateway's token (a field of another operation's answer: the
 * route's `tokenSource`, as the documents' links name it), sent in the header its security scheme
 * names in place of a signature. Required for those operations only; a secret, never shown.
 */
export interface TokenCallOptions {
  gatewayToken: string;
}

/** A GET's parameters, by where they go: its path's (`{market}`) and its query string's. */
export interface CallParams {
  path?: Readonly<Record<string, unknown>>;
  query?: Readonly<Record<string, unknown>>;
}

type AnyResult = CallResult<unknown, unknown>;

/** What the engine reads of a route; the generated table's entries are of this shape. */
export interface RouteFacts {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly rateLimit: Limit;
  readonly retrySafe: boolean | { readonly idempotencyKey: string };
  /** Set for an operation authorised by a token given per call, not by its client's signature. */
  readonly auth?: 'gateway-token';
  /** The header that token goes in, lowercase. */
  readonly tokenHeader?: string;
  /** Where that token comes from: the operation whose answer holds it, and its field (`data.token`). */
  readonly tokenSource?: { readonly operationId: string; readonly field: string };
  readonly body?: BodyRules;
  /** A GET's parameters: the path's and the query string's, each with its rules. */
  readonly params?: { readonly path?: BodyRules; readonly query?: BodyRules };
}

/** A route as one engine uses it: its target (made once) and its rate window (found on first use). */
interface RouteEntry {
  readonly route: RouteFacts;
  readonly target: Target;
  window: Permits | null | undefined;
  /** The body's rules, compiled on the route's first call. */
  check?: BodyCheck;
  /** Whether the body has sensitive fields (x-sensitive), found on the route's first call. */
  sensitive?: boolean;
}

export interface EngineSettings {
  /** Without a trailing slash. */
  baseUrl: string;
  /**
   * The origins of operations served from one of their own (their own `servers`), by operationId,
   * without a trailing slash; none when the client was given a base URL, which every call uses.
   */
  origins?: Readonly<Record<string, string>> | undefined;
  timeoutMs: number;
  maxResponseBytes: number;
  retry: RetryPolicy | undefined;
  rateLimit: RateLimitOption;
  userAgent?: string | undefined;
  hooks?: Hooks | undefined;
  /** Private clients: signs each attempt. */
  signer?: RequestSigner | undefined;
  /** Whose nonces and rate windows: `key:<apiKey>`, or `public:<origin>`. */
  scope: string;
}

export interface Engine {
  call(
    method: 'get' | 'post',
    path: string,
    body: unknown,
    init: (CallOptions & { params?: CallParams; gatewayToken?: string }) | undefined,
  ): Promise<AnyResult>;
  close(): Promise<void>;
}

type CallInit = CallOptions & { params?: CallParams; gatewayToken?: string };

/** A call refused before anything is signed or sent: its result. */
type Refusal = { error: ApiError };

/**
 * What an answer to the call is scrubbed of beyond the API secret: the call's token, and the
 * values of its sensitive fields (a card number a server echoes back), each with what replaces it.
 */
function hiddenOf(
  route: RouteFacts,
  fields: Readonly<Record<string, unknown>> | undefined,
  token: string | undefined,
): readonly (readonly [string, string])[] | undefined {
  const hidden: (readonly [string, string])[] = sensitiveValues(route.body, fields).map(
    (value) => [value, maskSensitive(value)] as const,
  );
  if (token) hidden.push([token, '[redacted]']);
  return hidden.length > 0 ? hidden : undefined;
}

function failure(route: RouteFacts, kind: ApiErrorKind, message: string, field?: string): Refusal {
  return { error: new ApiError(message, { kind, operationId: route.operationId, field }) };
}

/**
 * The engine of one client, over its transport and the route table (the generated one, or facts
 * the documents do not use yet, in tests).
 */
export function createEngine(
  settings: EngineSettings,
  transport: Transport,
  routes: Readonly<Record<string, RouteFacts>>,
): Engine {
  const { baseUrl, timeoutMs, rateLimit, hooks, scope } = settings;
  // This engine's life: whether it is closed, and what its deadlines are ended by.
  const lifetime: Lifetime = { closed: false };
  const attempts = createAttempts(settings, transport, lifetime);
  // Each route by method and path, with its target made once.
  const byMethod = { get: new Map<string, RouteEntry>(), post: new Map<string, RouteEntry>() };
  for (const route of Object.values(routes)) {
    const target = {
      url: (settings.origins?.[route.operationId] ?? baseUrl) + route.path,
      path: route.path,
      method: route.method.toUpperCase(),
      maxResponseBytes: settings.maxResponseBytes,
    };
    byMethod[route.method as 'get' | 'post']?.set(route.path, { route, target, window: undefined });
  }

  function entryFor(method: 'get' | 'post', path: string): RouteEntry {
    const entry = byMethod[method].get(path);
    if (!entry) {
      throw new ConfigurationError(
        'path',
        `${method.toUpperCase()} ${path} is not an operation of the documents`,
      );
    }
    return entry;
  }

  function call(method: 'get' | 'post', path: string, body: unknown, init: CallInit | undefined) {
    const entry = entryFor(method, path);
    // Without hooks, nothing follows the call: no id, no clock, no event.
    if (hooks) return traced(hooks, entry.route, (trace) => checkThenAttempt(entry, body, init, trace));
    return checkThenAttempt(entry, body, init, undefined);
  }

  /** The call's input checked; refused, its failure is the result, else its attempts give it. */
  function checkThenAttempt(
    entry: RouteEntry,
    body: unknown,
    init: CallInit | undefined,
    trace: Trace | undefined,
  ): Promise<AnyResult> {
    let checked: CheckedCall | Refusal;
    try {
      checked = check(entry, body, init);
    } catch (error) {
      // What the caller passed threw (a Proxy's trap): the call's promise rejects, as it always has.
      return Promise.reject(error);
    }
    return 'error' in checked ? Promise.resolve(checked) : attempts(checked, trace);
  }

  /**
   * What the attempts of a call send, from its input checked against the documents' rules: its
   * body copied as plain data, its target with its parameters, its rate window; or the failure
   * that refuses it before anything is signed.
   */
  function check(entry: RouteEntry, body: unknown, init: CallInit | undefined): CheckedCall | Refusal {
    const { route } = entry;
    if (lifetime.closed) return failure(route, 'closed', describeFailure('closed', route.operationId));
    const problem = init === undefined ? undefined : callOptionsProblem(init);
    if (problem)
      return failure(route, 'invalid-request', `${problem.field}: ${problem.message}`, problem.field);
    // A token call is refused without its token before anything else: nothing goes unauthorised.
    const token = route.auth === 'gateway-token' ? init?.gatewayToken : undefined;
    if (route.auth === 'gateway-token' && !token) {
      const source = route.tokenSource;
      const from = source ? ` (${source.operationId}'s ${source.field})` : '';
      return failure(
        route,
        'invalid-request',
        `gatewayToken: ${route.operationId} needs the fiat gateway's token${from}`,
        'gatewayToken',
      );
    }
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      return failure(route, 'invalid-request', 'body must be an object', 'body');
    }
    // What is checked is what is signed: one copy of the caller's own plain data.
    let fields: Record<string, unknown> | undefined;
    if (body !== undefined) {
      const copy = copyPlainData(body);
      if ('problem' in copy)
        return failure(route, 'invalid-request', copy.problem.message, copy.problem.field);
      fields = copy.value as Record<string, unknown>;
    }
    const rules = route.body;
    if (rules) {
      // The route's rules are compiled on its first call, then kept with it.
      entry.check ??= compileBody(rules);
      const violation = fields
        ? entry.check(fields)
        : rules.required.length > 0
          ? entry.check({})
          : undefined;
      if (violation) return failure(route, 'invalid-request', violation.message, violation.field);
    }
    const target =
      init?.params === undefined && !route.params
        ? entry.target
        : targetWith(route, entry.target, init?.params);
    if ('field' in target) return failure(route, 'invalid-request', target.message, target.field);
    // Whether the body has fields to scrub from answers is found on the route's first call.
    entry.sensitive ??= hasSensitive(route.body);
    // The route's window is found on its first call, then kept with it.
    if (entry.window === undefined) entry.window = rateWindow(scope, rateLimit, route) ?? null;
    return {
      operationId: route.operationId,
      path: route.path,
      target,
      fields,
      retrySafe: route.retrySafe,
      ...(token && route.tokenHeader && { token: { header: route.tokenHeader, value: token } }),
      hidden: token || entry.sensitive ? hiddenOf(route, fields, token) : undefined,
      window: entry.window,
      signal: init?.signal,
      attemptMs: init?.timeoutMs ?? timeoutMs,
    };
  }

  return {
    call,
    async close() {
      if (lifetime.closed) return;
      lifetime.closed = true;
      const reason = new ClientClosedError('the client was closed');
      // Every wait of every call ends at once: attempts, rate-limit waits, retry delays.
      endDeadlinesOf(lifetime, reason);
      await transport.close(reason);
    },
  };
}
