// Narrowing helpers for parsed YAML and JSON: the documents are read as `unknown` and every
// consumer looks inside through these, so a missing or mistyped node is a value, never a crash
// or an `any`.

export type JsonRecord = Readonly<Record<string, unknown>>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The node at `path` below `value`, or undefined where a step is missing. */
export function at(value: unknown, ...path: (string | number)[]): unknown {
  let node = value;
  for (const step of path) {
    if (Array.isArray(node) && typeof step === 'number') node = node[step];
    else if (isRecord(node)) node = node[String(step)];
    else return undefined;
  }
  return node;
}

/** The object at `path`, or an empty one. */
export function recordAt(value: unknown, ...path: (string | number)[]): JsonRecord {
  const node = at(value, ...path);
  return isRecord(node) ? node : {};
}

/** The object at `path`, or undefined. */
export function optionalRecordAt(value: unknown, ...path: (string | number)[]): JsonRecord | undefined {
  const node = at(value, ...path);
  return isRecord(node) ? node : undefined;
}

/** The array at `path`, or an empty one. */
export function arrayAt(value: unknown, ...path: (string | number)[]): readonly unknown[] {
  const node = at(value, ...path);
  return Array.isArray(node) ? node : [];
}

/** The string at `path`, or undefined. */
export function stringAt(value: unknown, ...path: (string | number)[]): string | undefined {
  const node = at(value, ...path);
  return typeof node === 'string' ? node : undefined;
}

/** The number at `path`, or undefined. */
export function numberAt(value: unknown, ...path: (string | number)[]): number | undefined {
  const node = at(value, ...path);
  return typeof node === 'number' ? node : undefined;
}

/** The keys a JSON pointer (`/data/token`, without the `#`) steps through, unescaped; none for ''. */
export function pointerSteps(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((step) => step.replaceAll('~1', '/').replaceAll('~0', '~'));
}
