// The fields of a stream update that a REST write's x-stream-events names (`order.side`, a dotted
// path below the update's params, each position by its x-field-name), the values the call gives
// them (runtime expressions of its request and answer, as in a link), and whether an update
// carries them.
import { isDeepStrictEqual } from 'node:util';
import { isRecord, type JsonRecord } from '../../model/json.ts';
import { paramNames, paramSchema, type StreamUpdateView } from '../../model/stream-catalog.ts';
import type { OperationId } from './documents.ts';
import { linkBody } from './links.ts';

/** One call as the expressions read it. */
export interface Exchange {
  request: Record<string, unknown>;
  response?: unknown;
}

/** Each value of a list or a record with its `$request.body#/…`/`$response.body#/…` expression replaced. */
export function resolved<Values extends unknown[] | Record<string, unknown>>(
  values: Values,
  exchange: Exchange,
): Values {
  const entries = linkBody(
    {
      name: '',
      from: '' as OperationId,
      status: 0,
      to: '' as OperationId,
      description: '',
      requestBody: { ...values },
    },
    { request: exchange.request, response: exchange.response },
  );
  return (Array.isArray(values) ? values.map((_, index) => entries[index]) : entries) as Values;
}

/** The value at a dotted path below an update's params (`order.side`), each position by its x-field-name. */
function valueAt(
  update: StreamUpdateView,
  message: JsonRecord,
  path: string,
): { value: unknown; schema: unknown } {
  const [name, ...rest] = path.split('.');
  const names = paramNames(update.message.payload) ?? [];
  const index = names.indexOf(name);
  const params = Array.isArray(message.params) ? message.params : [];
  let value: unknown = index < 0 ? undefined : params[index];
  let schema: unknown = index < 0 ? undefined : paramSchema(update.message.payload, index);
  for (const key of rest) {
    value = isRecord(value) ? value[key] : undefined;
    schema = isRecord(schema) && isRecord(schema.properties) ? schema.properties[key] : undefined;
  }
  return { value, schema };
}

const decimal = /^-?\d+(\.\d+)?$/;
/** A decimal string without the zeros that do not change its value. */
const canonical = (text: string) =>
  text
    .replace(/^(-?)0+(?=\d)/, '$1')
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');

/**
 * Why the update's value at a path is not the call's, or undefined when it is. A decimal string
 * matches a decimal string of the same value (never a number); a coded enum (the side, 1 or 2)
 * matches the call's value by its x-enum-varnames (`buy` is BUY); anything else matches itself.
 */
function mismatch(actual: unknown, schema: unknown, expected: unknown): string | undefined {
  if (typeof expected === 'string' && decimal.test(expected) && typeof actual !== 'number') {
    return typeof actual === 'string' && decimal.test(actual) && canonical(actual) === canonical(expected)
      ? undefined
      : `${JSON.stringify(actual)}, not ${JSON.stringify(expected)}`;
  }
  const codes = isRecord(schema) && Array.isArray(schema.enum) ? schema.enum : undefined;
  const names =
    isRecord(schema) && Array.isArray(schema['x-enum-varnames']) ? schema['x-enum-varnames'] : undefined;
  if (typeof expected === 'string' && codes && names && typeof actual !== 'string') {
    const name = names[codes.indexOf(actual)];
    return typeof name === 'string' && name.toLowerCase() === expected.toLowerCase()
      ? undefined
      : `${JSON.stringify(actual)} (${String(name)}), not ${JSON.stringify(expected)}`;
  }
  return isDeepStrictEqual(actual, expected)
    ? undefined
    : `${JSON.stringify(actual)}, not ${JSON.stringify(expected)}`;
}

/** What an update gets wrong of the fields expected (`order.side: 1 (SELL), not "buy"`); empty when it matches. */
export function fieldMismatches(
  update: StreamUpdateView,
  message: unknown,
  expected: Readonly<Record<string, unknown>>,
): string[] {
  if (!isRecord(message) || message.method !== update.method) return [`not a ${update.method}`];
  return Object.entries(expected).flatMap(([path, value]) => {
    const { value: actual, schema } = valueAt(update, message, path);
    const wrong = mismatch(actual, schema, value);
    return wrong ? [`${path}: ${wrong}`] : [];
  });
}

/** `path value` pairs, for a problem to say what was looked for. */
export const describeFields = (fields: Readonly<Record<string, unknown>>): string =>
  Object.entries(fields)
    .map(([path, value]) => `${path} ${JSON.stringify(value)}`)
    .join(', ');
