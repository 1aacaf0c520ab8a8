// The engine: one call from the client's arguments to its result. It finds the route, checks the
// caller's input, waits for the rate limiter, and runs the attempts: a deadline, a connection
// leased from the transport, the request signed on it (signing.ts), sent, and the answer read
// (errors.ts); a retry where the documents allow it. Hooks see each step, secret-free. Everything
// the API defines (paths, limits, body rules, what may be repeated) comes from generated/.
import type { BodyRules, FieldRule } from '../generated/operations.ts';
import {
  ApiError,
  type ApiErrorKind,
  ClientClosedError,
  ConfigurationError,
  describeFailure,
  errorWithoutAnswer,
  type ResponseLike,
  readAnswer,
} from './errors.ts';
import type { RequestSigner } from './signing.ts';
import type { Lease, Outgoing, Target, Transport } from './transport/types.ts';
import {
  Deadline,
  endDeadlinesOf,
  keyState,
  Permits,
  type RetryPolicy,
  retryDelayMs,
  timerMsProblem,
} from './waits.ts';

export type { BodyRules, FieldRule };

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** A GET's parameters, by where they go: its path's (`{market}`) and its query string's. */
export interface CallParams {
  path?: Readonly<Record<string, unknown>>;
  query?: Readonly<Record<string, unknown>>;
}

export type CallResult<Data, ErrorBody> =
  | { data: Data; error?: undefined; response: ResponseLike }
  | { data?: undefined; error: ApiError<ErrorBody>; response?: ResponseLike };

type AnyResult = CallResult<unknown, unknown>;

// ---------------------------------------------------------------------------------------------
// Hooks: functions the caller gives that see each step of a call. They observe and cannot
// change anything; their events hold names, numbers and kinds only (never a header, a body, a
// key or a secret), so they may be logged or exported as they are.

interface EventBase {
  /** The same number for every event of one call (unique in the process). */
  readonly callId: number;
  readonly operationId: string;
}

/** A call begins (its path is an operation of the documents). */
export interface StartEvent extends EventBase {
  readonly method: 'GET' | 'POST';
  readonly path: string;
}

/** An attempt goes out: it holds a connection and is signed. */
export interface RequestEvent extends EventBase {
  /** 1 for the first. */
  readonly attempt: number;
  /** How long the attempt waited for a free connection (ms). */
  readonly connectionWaitMs: number;
  /** How long the nonce window held it back so that its nonce stays within the window (ms). */
  readonly nonceHeldMs: number;
}

/** An attempt's answer arrived, whatever its status. */
export interface AnswerEvent extends EventBase {
  readonly attempt: number;
  readonly status: number;
  /** From the attempt's start to the answer's last byte (ms). */
  readonly latencyMs: number;
}

/** An attempt failed and the call will be sent again after `delayMs`. */
export interface RetryEvent extends EventBase {
  /** The attempt that failed. */
  readonly attempt: number;
  readonly errorKind: ApiErrorKind;
  readonly status: number | undefined;
  readonly delayMs: number;
}

/** The rate limiter held the call back before an attempt. */
export interface RateLimitWaitEvent extends EventBase {
  readonly attempt: number;
  readonly waitedMs: number;
}

/** The call ends with an error (its result's `error`). */
export interface ErrorEvent extends EventBase {
  readonly attempts: number;
  readonly errorKind: ApiErrorKind;
  readonly status: number | undefined;
}

/** The call is over, with data or an error. */
export interface EndEvent extends EventBase {
  readonly ok: boolean;
  readonly attempts: number;
  readonly status: number | undefined;
  readonly errorKind: ApiErrorKind | undefined;
  /** From the call's start to its result (ms). */
  readonly durationMs: number;
}

export interface Hooks {
  start?: readonly ((event: StartEvent) => void)[];
  request?: readonly ((event: RequestEvent) => void)[];
  answer?: readonly ((event: AnswerEvent) => void)[];
  retry?: readonly ((event: RetryEvent) => void)[];
  rateLimitWait?: readonly ((event: RateLimitWaitEvent) => void)[];
  error?: readonly ((event: ErrorEvent) => void)[];
  end?: readonly ((event: EndEvent) => void)[];
}

/**
 * Calls each hook with the event, frozen. A hook that throws does not change the call (an order
 * placed is still reported placed): its error is thrown again on its own, as an uncaught
 * exception, as Node's diagnostics channels do with a subscriber's.
 */
function emit<Event extends EventBase>(hooks: readonly ((event: Event) => void)[] | undefined, event: Event) {
  if (!hooks) return;
  Object.freeze(event);
  for (const hook of hooks) {
    try {
      hook(event);
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}

let lastCallId = 0;

// ---------------------------------------------------------------------------------------------
// Checks: the caller's input, before anything is signed or sent. A body is copied once into
// plain JSON data, so that what is checked is exactly what is serialized and signed: no getter
// runs twice, no toJSON replaces the body, no inherited field slips past the checks, and nothing
// the caller passes makes JSON.stringify throw (a BigInt, a cycle) outside the call's result.

export interface Violation {
  /** Where in the body, as a path such as `actionTypes.1`. */
  field: string;
  message: string;
}

/** How deep a body may nest; the documents' bodies are two levels deep. */
const maxDepth = 16;

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return 'a BigInt';
  if (typeof value === 'symbol') return 'a symbol';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'number') return String(value);
  return 'an object that is not plain data';
}

/**
 * A copy of `value` that holds only plain JSON data (null, booleans, finite numbers, strings,
 * arrays, objects of Object.prototype or none, with their own enumerable data fields), or what is
 * wrong and where. An own field whose value is `undefined` is left out, as JSON.stringify does.
 */
export function copyPlainData(
  value: unknown,
  path = 'body',
  seen: unknown[] = [],
): { value: unknown } | { problem: Violation } {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return { value };
    case 'number':
      return Number.isFinite(value)
        ? { value }
        : { problem: { field: path, message: `${path} must be a finite number, got ${value}` } };
    case 'object':
      break;
    default:
      return { problem: { field: path, message: `${path} must be JSON data, got ${describe(value)}` } };
  }
  if (value === null) return { value };
  if (seen.includes(value)) return { problem: { field: path, message: `${path} refers back to itself` } };
  if (seen.length >= maxDepth) {
    return { problem: { field: path, message: `${path} nests deeper than ${maxDepth} levels` } };
  }
  const prototype = Object.getPrototypeOf(value);
  const isArray = Array.isArray(value);
  if (!isArray && prototype !== Object.prototype && prototype !== null) {
    // A field the object inherits would pass unseen: name it.
    for (const key in value) {
      if (!Object.hasOwn(value, key)) {
        const at = path === 'body' ? key : `${path}.${key}`;
        return { problem: { field: at, message: `${at} is inherited, not a field of the object itself` } };
      }
    }
    return { problem: { field: path, message: `${path} must be JSON data, got ${describe(value)}` } };
  }
  const copy: Record<string, unknown> | unknown[] = isArray ? [] : Object.create(null);
  const nested = [...seen, value];
  for (const key of Object.keys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key) as PropertyDescriptor;
    const at = path === 'body' ? key : `${path}.${key}`;
    if (!('value' in descriptor))
      return { problem: { field: at, message: `${at} must be a data field, not a getter` } };
    if (descriptor.value === undefined && !isArray) continue;
    const item = copyPlainData(descriptor.value, at, nested);
    if ('problem' in item) return item;
    (copy as Record<string, unknown>)[key] = item.value;
  }
  return { value: copy };
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const typeTests: Readonly<Record<string, (value: unknown) => boolean>> = {
  string: (value) => typeof value === 'string',
  integer: (value) => Number.isSafeInteger(value),
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  boolean: (value) => typeof value === 'boolean',
  array: (value) => Array.isArray(value),
  object: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  null: (value) => value === null,
};

const article = (type: string) => (type === 'null' ? '' : /^[aeiou]/.test(type) ? 'an ' : 'a ');
const shown = (value: unknown) => JSON.stringify(value) ?? String(value);

/** Checks one value at `field` (a path such as `orders.3.price`); compiled once from its rule. */
type FieldCheck = (value: unknown, field: string) => Violation | undefined;

/** The first violation of several checks, in order. */
function firstOf(checks: readonly FieldCheck[]): FieldCheck {
  if (checks.length === 1) return checks[0] as FieldCheck;
  return (value, field) => {
    for (const check of checks) {
      const violation = check(value, field);
      if (violation) return violation;
    }
    return undefined;
  };
}

const passes: FieldCheck = () => undefined;

/**
 * A field's rule turned once into the closures that check it, so that a call walks only the
 * checks its route's fields have, with no rule read again and every pattern compiled once.
 */
function compileField(rule: FieldRule): FieldCheck {
  if (rule.anyOf) {
    // A field of several accepted forms (the nonce: digits or an integer) passes if one passes.
    const forms = rule.anyOf.map(compileField);
    return (value, field) => {
      const violations: Violation[] = [];
      for (const form of forms) {
        const violation = form(value, field);
        if (!violation) return undefined;
        violations.push(violation);
      }
      return { field, message: violations.map((violation) => violation.message).join('; or ') };
    };
  }
  const checks: FieldCheck[] = [];
  if (rule.type !== undefined) {
    const types = typeof rule.type === 'string' ? [rule.type] : rule.type;
    const tests = types.flatMap((type) => typeTests[type] ?? []);
    // A type this client does not know passes, as it did: the server has the last word.
    if (tests.length === types.length) {
      const expected = types.map((type) => `${article(type)}${type}`).join(' or ');
      checks.push((value, field) =>
        tests.some((test) => test(value))
          ? undefined
          : { field, message: `${field} must be ${expected}, got ${shown(value)}` },
      );
    }
  }
  const { minimum, maximum, minLength, maxLength, minItems, maxItems } = rule;
  if (minimum !== undefined) {
    checks.push((value, field) =>
      typeof value === 'number' && value < minimum
        ? { field, message: `${field} must be at least ${minimum}, got ${value}` }
        : undefined,
    );
  }
  if (maximum !== undefined) {
    checks.push((value, field) =>
      typeof value === 'number' && value > maximum
        ? { field, message: `${field} must be at most ${maximum}, got ${value}` }
        : undefined,
    );
  }
  if (rule.enum) {
    const allowed = rule.enum;
    const message = `must be one of ${allowed.map((item) => JSON.stringify(item)).join(', ')}`;
    checks.push((value, field) =>
      allowed.includes(value) ? undefined : { field, message: `${field} ${message}` },
    );
  }
  if (minLength !== undefined) {
    checks.push((value, field) =>
      typeof value === 'string' && [...value].length < minLength
        ? { field, message: `${field} must be at least ${minLength} characters long` }
        : undefined,
    );
  }
  if (maxLength !== undefined) {
    checks.push((value, field) =>
      typeof value === 'string' && [...value].length > maxLength
        ? { field, message: `${field} must be at most ${maxLength} characters long` }
        : undefined,
    );
  }
  if (rule.pattern) {
    const { pattern } = rule;
    const regex = new RegExp(pattern, 'u');
    checks.push((value, field) =>
      typeof value === 'string' && !regex.test(value)
        ? { field, message: `${field} must match ${pattern}, got ${JSON.stringify(value)}` }
        : undefined,
    );
  }
  if (rule.format === 'uuid') {
    checks.push((value, field) =>
      typeof value === 'string' && !uuid.test(value)
        ? { field, message: `${field} must be a UUID, got ${JSON.stringify(value)}` }
        : undefined,
    );
  }
  if (minItems !== undefined) {
    checks.push((value, field) =>
      Array.isArray(value) && value.length < minItems
        ? {
            field,
            message: `${field} must have at least ${minItems} item${minItems === 1 ? '' : 's'}, got ${value.length}`,
          }
        : undefined,
    );
  }
  if (maxItems !== undefined) {
    checks.push((value, field) =>
      Array.isArray(value) && value.length > maxItems
        ? {
            field,
            message: `${field} must have at most ${maxItems} item${maxItems === 1 ? '' : 's'}, got ${value.length}`,
          }
        : undefined,
    );
  }
  if (rule.items) {
    const item = compileField(rule.items);
    checks.push((value, field) => {
      if (!Array.isArray(value)) return undefined;
      for (let index = 0; index < value.length; index++) {
        const violation = item(value[index], `${field}.${index}`);
        if (violation) return violation;
      }
      return undefined;
    });
  }
  if (rule.properties || rule.required) {
    const fields = compileFields(rule.required ?? [], rule.properties ?? {});
    checks.push((value, field) =>
      typeTests.object?.(value) ? fields(value as Readonly<Record<string, unknown>>, `${field}.`) : undefined,
    );
  }
  return checks.length ? firstOf(checks) : passes;
}

/** An object's fields checked: each required one present, each one the rules name by its rule. */
function compileFields(
  required: readonly string[],
  properties: Readonly<Record<string, FieldRule>>,
): (value: Readonly<Record<string, unknown>>, prefix: string) => Violation | undefined {
  const checks = new Map(Object.entries(properties).map(([name, rule]) => [name, compileField(rule)]));
  return (value, prefix) => {
    for (const name of required) {
      if (value[name] === undefined)
        return { field: `${prefix}${name}`, message: `${prefix}${name} is required` };
    }
    for (const name in value) {
      const check = checks.get(name);
      const fieldValue = value[name];
      // Fields the rules do not name pass; an own field left undefined is not sent.
      if (check && fieldValue !== undefined && Object.hasOwn(value, name)) {
        const violation = check(fieldValue, `${prefix}${name}`);
        if (violation) return violation;
      }
    }
    return undefined;
  };
}

/** A body's rules compiled into one check; made once per rules object and kept. */
export type BodyCheck = (body: Readonly<Record<string, unknown>>) => Violation | undefined;

const compiledBodies = new WeakMap<BodyRules, BodyCheck>();

/** The compiled check of a body's rules (the same function for the same rules object). */
export function compileBody(rules: BodyRules): BodyCheck {
  let check = compiledBodies.get(rules);
  if (!check) {
    const fields = compileFields(rules.required, rules.properties);
    check = (body) => fields(body, '');
    compiledBodies.set(rules, check);
  }
  return check;
}

/**
 * The first violation of the rules by `body` (a path such as `orders.3.price` names where), or
 * undefined. Fields the rules do not name pass.
 */
export function checkBody(rules: BodyRules, body: Readonly<Record<string, unknown>>): Violation | undefined {
  return compileBody(rules)(body);
}

/** What is wrong with a call's own options (`timeoutMs`, `signal`), checked like the client's. */
function callOptionsProblem(init: unknown): Violation | undefined {
  if (typeof init !== 'object' || init === null) return { field: 'init', message: 'must be an object' };
  const { timeoutMs, signal } = init as { timeoutMs?: unknown; signal?: unknown };
  if (timeoutMs !== undefined) {
    const problem = timerMsProblem(timeoutMs);
    if (problem) return { field: 'timeoutMs', message: `${problem} (0: none)` };
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    return { field: 'signal', message: 'must be an AbortSignal' };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Retries: opt-in, only for operations the documents mark x-retry-safe (or, for those whose
// repeat the service refuses by a key, only when the body carries that key), only on failures
// that a later attempt can cure, with exponential backoff and jitter (by default the operator's
// advice, x-backoff in the documents), never sooner than the server's Retry-After. Each attempt
// is signed again with a fresh nonce.

const retryableKinds = new Set<ApiErrorKind>(['rate-limited', 'server-error', 'transport', 'timeout']);

/**
 * Whether this call may be sent again: the documents say the operation may always be repeated,
 * or may be repeated when its body carries a non-empty key whose repeat the service refuses (a
 * quote's id: a quote confirmed once is refused, not converted again). Otherwise never: an order,
 * an investment, anything that moves money is sent once.
 */
function mayRepeat(route: RouteFacts, fields: Readonly<Record<string, unknown>> | undefined): boolean {
  const safe = route.retrySafe;
  if (typeof safe === 'boolean') return safe;
  const key = fields?.[safe.idempotencyKey];
  return (typeof key === 'string' && key !== '') || (typeof key === 'number' && Number.isFinite(key));
}

// ---------------------------------------------------------------------------------------------
// Rate limits: a sliding window per API key (or public origin) and operation, with the documents'
// limits, so that the client waits instead of earning a 429.

export interface Limit {
  requests: number;
  windowSeconds: number;
}

/** A rate-limit option: on (the documents' limits), off, or limits overridden by operationId. */
export type RateLimitOption = boolean | { limits?: Partial<Record<string, Limit>> };

/** The window of `route` for `scope`, shared by every client of the process; undefined when off. */
export function rateWindow(scope: string, option: RateLimitOption, route: RouteFacts): Permits | undefined {
  if (!option) return undefined;
  const limit =
    (typeof option === 'object' ? option.limits?.[route.operationId] : undefined) ?? route.rateLimit;
  const windows = keyState(scope).windows;
  const id = `${route.operationId}\u0000${limit.requests}/${limit.windowSeconds}`;
  let window = windows.get(id);
  if (!window) {
    window = new Permits(limit.requests, limit.windowSeconds * 1000);
    windows.set(id, window);
  }
  return window;
}

// ---------------------------------------------------------------------------------------------
// The engine.

/** What the engine reads of a route; the generated table's entries are of this shape. */
export interface RouteFacts {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly rateLimit: Limit;
  readonly retrySafe: boolean | { readonly idempotencyKey: string };
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
}

export interface EngineSettings {
  /** Without a trailing slash. */
  baseUrl: string;
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
    init: (CallOptions & { params?: CallParams }) | undefined,
  ): Promise<AnyResult>;
  close(): Promise<void>;
}

/**
 * The target of a call with parameters: the route's path with each `{name}` filled in (encoded)
 * and the query string built from the given fields, all checked first against the documents'
 * rules. A parameter the route does not have is refused by name, not dropped: a typo in a filter
 * would otherwise widen what the call reads.
 */
function targetWith(entry: RouteEntry, params: unknown): Target | Violation {
  const { route, target } = entry;
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params)))
    return { field: 'params', message: 'params must be an object with path and query' };
  const given = (params ?? {}) as Record<string, unknown>;
  for (const where of Object.keys(given)) {
    if (where !== 'path' && where !== 'query')
      return { field: `params.${where}`, message: `params.${where} is not path or query` };
  }
  const filled: Record<'path' | 'query', Record<string, unknown>> = { path: {}, query: {} };
  for (const where of ['path', 'query'] as const) {
    const rules = route.params?.[where];
    const raw = given[where];
    if (raw === undefined && !rules?.required.length) continue;
    const copy = copyPlainData(raw ?? {}, `params.${where}`);
    if ('problem' in copy) return copy.problem;
    if (typeof copy.value !== 'object' || copy.value === null || Array.isArray(copy.value))
      return { field: `params.${where}`, message: `params.${where} must be an object` };
    const fields = copy.value as Record<string, unknown>;
    for (const name of Object.keys(fields)) {
      if (!rules?.properties[name])
        return {
          field: name,
          message: `${name} is not a ${where} parameter of ${route.operationId}${
            rules ? ` (it has ${Object.keys(rules.properties).join(', ')})` : ''
          }`,
        };
      const value = fields[name];
      const items = Array.isArray(value) ? value : [value];
      if (items.some((item) => item === null || typeof item === 'object'))
        return { field: name, message: `${name} must be a string, a number, a boolean or a list of them` };
    }
    if (rules) {
      const violation = compileBody(rules)(fields);
      if (violation) return violation;
    }
    filled[where] = fields;
  }
  const path = route.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(filled.path[name])),
  );
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filled.query)) {
    for (const item of Array.isArray(value) ? value : [value]) query.append(name, String(item));
  }
  const text = query.toString();
  const search = text ? `?${text}` : '';
  if (path === route.path && search === '') return target;
  return { ...target, url: target.url.slice(0, target.url.length - route.path.length) + path + search };
}

/** A failed attempt's outcome as the call's result: its error says how many attempts were made. */
function counted(outcome: AnyResult, error: ApiError, attempt: number): AnyResult {
  if (attempt === 1) return outcome;
  const counted = error.withAttempts(attempt);
  return outcome.response ? { error: counted, response: outcome.response } : { error: counted };
}

function failure(route: RouteFacts, kind: ApiErrorKind, message: string, field?: string): AnyResult {
  return { error: new ApiError(message, { kind, operationId: route.operationId, field }) };
}

/** One call followed by hooks. */
interface Trace {
  readonly callId: number;
  /** Attempts begun so far. */
  attempts: number;
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
  const { baseUrl, timeoutMs, retry, rateLimit, hooks, signer, scope } = settings;
  // Header names as Headers would hold them: lowercase.
  const baseHeaders: Record<string, string> = {};
  if (signer) baseHeaders['content-type'] = 'application/json';
  if (settings.userAgent) baseHeaders['user-agent'] = settings.userAgent;
  const unsigned: Outgoing = { headers: baseHeaders, body: undefined };
  const scrub = signer?.scrub;
  // This engine's deadlines, for close().
  const owner = {};
  let closed = false;
  // Each route by method and path, with its target made once.
  const byMethod = { get: new Map<string, RouteEntry>(), post: new Map<string, RouteEntry>() };
  for (const route of Object.values(routes)) {
    const target = {
      url: baseUrl + route.path,
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

  /** The caller aborted or the client closed while the call waited: which one, as the error's kind. */
  function stopped(route: RouteFacts): AnyResult {
    const kind = closed ? 'closed' : 'aborted';
    return failure(route, kind, describeFailure(kind, route.operationId));
  }

  function call(
    method: 'get' | 'post',
    path: string,
    body: unknown,
    init: (CallOptions & { params?: CallParams }) | undefined,
  ) {
    return run(entryFor(method, path), body, init);
  }

  function run(entry: RouteEntry, body: unknown, init: (CallOptions & { params?: CallParams }) | undefined) {
    // Without hooks, nothing follows the call: no id, no clock, no event.
    return hooks ? traced(hooks, entry, body, init) : attempts(entry, body, init, undefined);
  }

  /** A call followed by hooks: its id, its start, the attempts made, its end. */
  async function traced(
    hooks: Hooks,
    entry: RouteEntry,
    body: unknown,
    init: CallOptions | undefined,
  ): Promise<AnyResult> {
    const { route } = entry;
    const trace: Trace = { callId: ++lastCallId, attempts: 0 };
    const { callId } = trace;
    const { operationId } = route;
    const started = performance.now();
    emit(hooks.start, {
      callId,
      operationId,
      method: route.method === 'get' ? 'GET' : 'POST',
      path: route.path,
    });
    const result = await attempts(entry, body, init, trace);
    const { error } = result;
    const status = error ? error.status : result.response.status;
    if (error)
      emit(hooks.error, { callId, operationId, attempts: error.attempts, errorKind: error.kind, status });
    emit(hooks.end, {
      callId,
      operationId,
      ok: !error,
      attempts: Math.max(1, trace.attempts),
      status,
      errorKind: error?.kind,
      durationMs: performance.now() - started,
    });
    return result;
  }

  async function attempts(
    entry: RouteEntry,
    body: unknown,
    init: (CallOptions & { params?: CallParams }) | undefined,
    trace: Trace | undefined,
  ): Promise<AnyResult> {
    const { route } = entry;
    if (closed) return failure(route, 'closed', describeFailure('closed', route.operationId));
    const problem = init === undefined ? undefined : callOptionsProblem(init);
    if (problem)
      return failure(route, 'invalid-request', `${problem.field}: ${problem.message}`, problem.field);
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
    const addressed =
      init?.params === undefined && !route.params ? entry.target : targetWith(entry, init?.params);
    if ('field' in addressed) return failure(route, 'invalid-request', addressed.message, addressed.field);
    const target = addressed;

    const signal = init?.signal;
    const attemptMs = init?.timeoutMs ?? timeoutMs;
    const policy = retry && mayRepeat(route, fields) ? retry : undefined;
    if (entry.window === undefined) entry.window = rateWindow(scope, rateLimit, route) ?? null;
    const window = entry.window;
    const callId = trace?.callId ?? 0;
    for (let attempt = 1; ; attempt++) {
      if (trace) trace.attempts = attempt;
      // A free permit (or no limiter) is taken without a promise.
      if (window && !window.tryTake()) {
        const waitStarted = performance.now();
        const waiting = new Deadline(0, signal, owner);
        try {
          await window.take(waiting);
        } catch {
          return stopped(route);
        } finally {
          waiting.clear();
        }
        if (hooks)
          emit(hooks.rateLimitWait, {
            callId,
            operationId: route.operationId,
            attempt,
            waitedMs: performance.now() - waitStarted,
          });
      }
      // The attempt, awaited here rather than in a function of its own: one promise less a call.
      const deadline = new Deadline(attemptMs, signal, owner);
      const attemptStarted = hooks ? performance.now() : 0;
      let outcome: AnyResult;
      let lease: Lease | undefined;
      try {
        const leasing = transport.lease(target, deadline);
        lease = leasing instanceof Promise ? await leasing : leasing;
        const leased = hooks ? performance.now() : 0;
        const signing = signer ? signer.sign(route.path, fields, baseHeaders, deadline) : unsigned;
        const outgoing = signing instanceof Promise ? await signing : signing;
        if (deadline.ended) throw deadline.reason;
        if (hooks) {
          emit(hooks.request, {
            callId,
            operationId: route.operationId,
            attempt,
            connectionWaitMs: leased - attemptStarted,
            nonceHeldMs: (outgoing as { heldMs?: number }).heldMs ?? 0,
          });
        }
        const sending = lease;
        lease = undefined;
        const answer = await sending.send(outgoing);
        if (hooks) {
          emit(hooks.answer, {
            callId,
            operationId: route.operationId,
            attempt,
            status: answer.response.status,
            latencyMs: performance.now() - attemptStarted,
          });
        }
        outcome = readAnswer(route.operationId, answer, scrub);
      } catch (cause) {
        // A lease not sent on (the deadline ended while it was signed) goes back unused.
        lease?.release();
        outcome = {
          error: errorWithoutAnswer(route.operationId, deadline.ended ? deadline.reason : cause, signal),
        };
      } finally {
        deadline.clear();
        window?.give();
      }
      const error = outcome.error;
      if (!error) return outcome;
      if (
        !policy ||
        attempt >= policy.attempts ||
        !retryableKinds.has(error.kind) ||
        closed ||
        signal?.aborted
      )
        return counted(outcome, error, attempt);
      const delay = retryDelayMs(policy, attempt, error.retryAfterMs);
      // The server asks for a longer wait than the policy allows: its answer is the result.
      if (delay === undefined) return counted(outcome, error, attempt);
      if (hooks) {
        emit(hooks.retry, {
          callId,
          operationId: route.operationId,
          attempt,
          errorKind: error.kind,
          status: error.status,
          delayMs: delay,
        });
      }
      const waiting = new Deadline(0, signal, owner);
      try {
        await waiting.wait(delay);
      } catch {
        return counted(outcome, error, attempt);
      } finally {
        waiting.clear();
      }
    }
  }

  return {
    call,
    async close() {
      if (closed) return;
      closed = true;
      const reason = new ClientClosedError('the client was closed');
      // Every wait of every call ends at once: attempts, rate-limit waits, retry delays.
      endDeadlinesOf(owner, reason);
      await transport.close(reason);
    },
  };
}
