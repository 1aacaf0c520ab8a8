// A caller's body is copied once into plain JSON data before it is validated and signed, so that
// what is checked is exactly what is serialized and signed: no getter runs twice, no toJSON
// replaces the body, no inherited field slips past validation, and nothing the caller passes
// makes JSON.stringify throw (a BigInt, a cycle) outside the call's result.

export interface NotPlainData {
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
): { value: unknown } | { problem: NotPlainData } {
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
