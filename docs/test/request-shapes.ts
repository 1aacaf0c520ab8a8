// The request shapes of the reference pages' operations, and a few operations that have every
// shape between them: the Chromium checks of Redoc's sections and of Try it run on a page of
// those (reference-site.test.ts), since what differs between operations in the browser is only
// this. The panel's code is one path for all (signed or not, the body's fields as JSON, the path
// filled in); Redoc renders every section with the same components. Every operation's data and
// request are checked without a browser (reference-pages.test.ts).
import { readFileSync } from 'node:fs';
import { documentModel, placedBy } from '../../model/model.ts';
import { readerSource, sampleFile } from '../samples.ts';
import type { TryItOperation } from '../try-it.ts';

/** The JSON kind of a value: string, number, boolean, null, array or object. */
const kindOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/** Each kind of value in `value`, at any depth, with the kind it is inside (`object in array`). */
function kindsIn(value: unknown, inside?: string, into = new Set<string>()): Set<string> {
  const kind = kindOf(value);
  if (inside) into.add(`${kind} in ${inside}`);
  if (kind === 'array') for (const item of value as unknown[]) kindsIn(item, kind, into);
  if (kind === 'object') for (const item of Object.values(value as object)) kindsIn(item, kind, into);
  return into;
}

/** The longest line of an operation's sample, as its page shows it. */
const widestLine = (operationId: string): number =>
  Math.max(
    ...readerSource(readFileSync(sampleFile(operationId), 'utf8'))
      .split('\n')
      .map((line) => line.length),
  );

/** What the browser does differently for an operation sent from the Try it panel, and shown by Redoc. */
export function requestShapes(operation: TryItOperation): string[] {
  const fields = operation.examples[0]?.fields ?? {};
  const names = Object.keys(fields);
  const responses = (documentModel().operation(operation.operationId).object.responses ?? {}) as Record<
    string,
    { content?: { 'application/json'?: { examples?: Record<string, Record<string, unknown>> } } }
  >;
  const refuses = Object.values(responses).some((response) =>
    Object.values(response?.content?.['application/json']?.examples ?? {}).some(
      (example) => example['x-refused-while'] !== undefined,
    ),
  );
  return [
    operation.signed ? 'signed' : operation.token ? 'a token another operation issues' : 'public',
    `method ${operation.method}`,
    ...(operation.pathParams.length > 0 ? ['path parameters'] : []),
    ...(!operation.signed && !operation.token && names.some((name) => !operation.pathParams.includes(name))
      ? ['a query']
      : []),
    ...(names.length === 0 ? ['no fields'] : []),
    ...[...kindsIn(fields)].map((kind) => `a field's ${kind}`),
    ...(placedBy(documentModel(), operation.operationId, fields) ? ['an order placed first'] : []),
    ...(refuses ? ['a refusal documented for a state of the account'] : []),
  ];
}

/**
 * Few operations of `all` that have every request shape of `all` between them (the first to add
 * the most shapes not had yet, each time), and the one whose sample has the widest line: the
 * panel shows it whole or not at all.
 */
export function oneOfEachShape(all: readonly TryItOperation[]): TryItOperation[] {
  const shapes = new Map(all.map((operation) => [operation, requestShapes(operation)]));
  const widest = [...all].sort((a, b) => widestLine(b.operationId) - widestLine(a.operationId))[0];
  const chosen: TryItOperation[] = widest ? [widest] : [];
  const had = new Set(widest ? shapes.get(widest) : []);
  for (;;) {
    const gain = (operation: TryItOperation) =>
      (shapes.get(operation) ?? []).filter((shape) => !had.has(shape)).length;
    const best = all.reduce<TryItOperation | undefined>(
      (sofar, operation) => (gain(operation) > (sofar ? gain(sofar) : 0) ? operation : sofar),
      undefined,
    );
    if (!best) return chosen;
    chosen.push(best);
    for (const shape of shapes.get(best) ?? []) had.add(shape);
  }
}
