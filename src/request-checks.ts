// Request checks: the caller's input, before anything is signed or sent, against the rules the
// documents give (generated/operations.ts), each rule compiled once into closures. A body is
// copied once into plain JSON data, so that what is checked is exactly what is serialized and
// signed: no getter runs twice, no toJSON replaces the body, no inherited field slips past the
// checks, and nothing the caller passes makes JSON.stringify throw (a BigInt, a cycle) outside
// the call's result.
import type { BodyRules, FieldRule } from '../generated/operations.ts';
import type { Target } from './transport/types.ts';
import { timerMsProblem } from './waits.ts';

export type { BodyRules, FieldRule };

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

/**
 * A sensitive value (x-sensitive: a card number) as the toolkit may show it: a string or number
 * by its last four characters, the rest masked (all of it when it is that short); anything else
 * as `[redacted]`.
 */
export function maskSensitive(value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number') return '[redacted]';
  const text = String(value);
  const shownTail = text.length > 4 ? 4 : 0;
  return '*'.repeat(text.length - shownTail) + text.slice(text.length - shownTail);
}

/**
 * A copy of a body with every field its rules mark sensitive masked (maskSensitive), nested
 * objects and arrays included: what is shown of a request wherever the toolkit shows one.
 */
export function redactBody(
  rules: Pick<BodyRules, 'properties'> | undefined,
  body: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  if (!rules) return { ...body };
  return Object.fromEntries(
    Object.entries(body).map(([name, value]) => [name, redactValue(rules.properties[name], value)]),
  );
}

function redactValue(rule: FieldRule | undefined, value: unknown): unknown {
  if (!rule || value === undefined) return value;
  if (rule.sensitive) return maskSensitive(value);
  if (rule.items && Array.isArray(value)) return value.map((item) => redactValue(rule.items, item));
  if (rule.properties && value !== null && typeof value === 'object' && !Array.isArray(value))
    return redactBody({ properties: rule.properties }, value as Record<string, unknown>);
  return value;
}

/** The values of a body's sensitive fields (strings and numbers, as text), at any depth. */
export function sensitiveValues(
  rules: Pick<BodyRules, 'properties'> | undefined,
  body: Readonly<Record<string, unknown>> | undefined,
): string[] {
  if (!rules || !body) return [];
  const found: string[] = [];
  const visit = (rule: FieldRule | undefined, value: unknown) => {
    if (!rule || value === undefined || value === null) return;
    if (rule.sensitive) {
      if (typeof value === 'string' || typeof value === 'number') found.push(String(value));
      return;
    }
    if (rule.items && Array.isArray(value)) for (const item of value) visit(rule.items, item);
    if (rule.properties && typeof value === 'object' && !Array.isArray(value))
      for (const [name, item] of Object.entries(value)) visit(rule.properties[name], item);
  };
  for (const [name, value] of Object.entries(body)) visit(rules.properties[name], value);
  return found.filter((value) => value !== '');
}

/** Whether the rules mark any field sensitive, at any depth. */
export function hasSensitive(rules: Pick<BodyRules, 'properties'> | undefined): boolean {
  const sensitive = (rule: FieldRule | undefined): boolean =>
    rule !== undefined &&
    (rule.sensitive === true ||
      sensitive(rule.items) ||
      Object.values(rule.properties ?? {}).some(sensitive) ||
      (rule.anyOf ?? []).some(sensitive));
  return Object.values(rules?.properties ?? {}).some(sensitive);
}

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
  // A sensitive field's value is shown masked in every message (x-sensitive).
  const show = rule.sensitive ? (value: unknown) => JSON.stringify(maskSensitive(value)) : shown;
  if (rule.type !== undefined) {
    const types = typeof rule.type === 'string' ? [rule.type] : rule.type;
    const tests = types.flatMap((type) => typeTests[type] ?? []);
    // A type this client does not know passes, as it did: the server has the last word.
    if (tests.length === types.length) {
      const expected = types.map((type) => `${article(type)}${type}`).join(' or ');
      checks.push((value, field) =>
        tests.some((test) => test(value))
          ? undefined
          : { field, message: `${field} must be ${expected}, got ${show(value)}` },
      );
    }
  }
  const { minimum, maximum, minLength, maxLength, minItems, maxItems } = rule;
  if (minimum !== undefined) {
    checks.push((value, field) =>
      typeof value === 'number' && value < minimum
        ? { field, message: `${field} must be at least ${minimum}, got ${show(value)}` }
        : undefined,
    );
  }
  if (maximum !== undefined) {
    checks.push((value, field) =>
      typeof value === 'number' && value > maximum
        ? { field, message: `${field} must be at most ${maximum}, got ${show(value)}` }
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
        ? { field, message: `${field} must match ${pattern}, got ${show(value)}` }
        : undefined,
    );
  }
  if (rule.format === 'uuid') {
    checks.push((value, field) =>
      typeof value === 'string' && !uuid.test(value)
        ? { field, message: `${field} must be a UUID, got ${show(value)}` }
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
export function callOptionsProblem(init: unknown): Violation | undefined {
  if (typeof init !== 'object' || init === null) return { field: 'init', message: 'must be an object' };
  const { timeoutMs, signal, gatewayToken } = init as {
    timeoutMs?: unknown;
    signal?: unknown;
    gatewayToken?: unknown;
  };
  if (timeoutMs !== undefined) {
    const problem = timerMsProblem(timeoutMs);
    if (problem) return { field: 'timeoutMs', message: `${problem} (0: none)` };
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    return { field: 'signal', message: 'must be an AbortSignal' };
  }
  // Its value is a secret: a message never quotes it.
  if (
    gatewayToken !== undefined &&
    !(typeof gatewayToken === 'string' && plainHeaderValue.test(gatewayToken))
  ) {
    return { field: 'gatewayToken', message: 'must be a non-empty string of visible ASCII characters' };
  }
  return undefined;
}

/** Visible ASCII, inner spaces allowed: a header value every transport sends as it is. */
const plainHeaderValue = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** What the parameters' checks read of a route. */
export interface ParameterizedRoute {
  readonly operationId: string;
  readonly path: string;
  /** A GET's parameters: the path's and the query string's, each with its rules. */
  readonly params?: { readonly path?: BodyRules; readonly query?: BodyRules };
}

/**
 * The target of a call with parameters: the route's path with each `{name}` filled in (encoded)
 * and the query string built from the given fields, all checked first against the documents'
 * rules. A parameter the route does not have is refused by name, not dropped: a typo in a filter
 * would otherwise widen what the call reads.
 */
export function targetWith(route: ParameterizedRoute, target: Target, params: unknown): Target | Violation {
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
