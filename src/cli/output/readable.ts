// An answer as a person reads it, following its shape from the documents (generated/answers.ts):
// a Unix time becomes an ISO 8601 date in UTC, a named code its name. Only for tables: JSON
// output keeps what the service sent. A value the shape does not expect is left as it came.
import type { AnswerShape } from '../../../generated/answers.ts';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `1699000000` seconds -> `2023-11-03T08:26:40Z`; milliseconds only where there are some. */
export function isoTime(value: unknown, unit: 'seconds' | 'milliseconds'): string | undefined {
  const number = typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) return undefined;
  const date = new Date(unit === 'seconds' ? number * 1000 : number);
  if (Number.isNaN(date.getTime())) return undefined;
  return date.toISOString().replace('.000Z', 'Z');
}

export function readable(value: unknown, shape: AnswerShape | undefined): unknown {
  if (!shape) return value;
  if (shape.unixTime) return isoTime(value, shape.unixTime) ?? value;
  if (shape.enumNames && shape.enum) {
    const index = shape.enum.indexOf(value);
    const name = shape.enumNames[index];
    if (index >= 0 && name !== undefined) return name;
  }
  if (Array.isArray(value)) return shape.items ? value.map((item) => readable(item, shape.items)) : value;
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, entry]) => [
      key,
      readable(entry, shape.properties?.[key] ?? shape.additionalProperties),
    ]),
  );
}
