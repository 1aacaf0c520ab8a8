// An update as rows of a table, for the live view: its params flattened into named cells, the names
// from the update's shape (generated/streams.ts: a tuple's positions are named by x-field-name)
// and from its objects' keys. A list of objects or tuples (the trades of a trades update, the
// candles of a kline update, the records of a positions update) gives a row each, with the values
// beside it (the market) repeated; a record of records keyed by name (a balance per asset) gives a
// row per key, the key in a column with an empty header. Times marked x-unix-time read as ISO 8601
// and named codes by their name, as in txc's tables; amounts stay the strings they came as.
import type { StreamValueShape } from '../../../generated/streams.ts';
import { isoTime } from '../output/readable.ts';

export type Row = Record<string, unknown>;

interface Flat {
  rows: Row[];
  /** Whether the rows are a list's, one per item (else one row of cells). */
  expands: boolean;
  /** The value as one cell, for a second list beside the first (it cannot give rows too). */
  whole: Row;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isComposite = (value: unknown) => typeof value === 'object' && value !== null;

/** A value as a person reads it: a time as a date, a code by its name or meaning. */
function shown(value: unknown, shape: StreamValueShape | undefined): unknown {
  if (shape?.unixTime) return isoTime(value, shape.unixTime) ?? value;
  const index = shape?.enum?.indexOf(value) ?? -1;
  const name = index >= 0 ? (shape?.enumNames?.[index] ?? shape?.enumDescriptions?.[index]) : undefined;
  return name ?? value;
}

const cell = (name: string, value: unknown, shape?: StreamValueShape): Flat => {
  const row = { [name]: shown(value, shape) };
  return { rows: [row], expands: false, whole: row };
};

/** Parts side by side: one list among them gives the rows, the others' cells are on each. */
function combine(parts: Flat[], name: string, value: unknown): Flat {
  let rows: Row[] = [{}];
  let expands = false;
  for (const part of parts) {
    if (part.expands && !expands) {
      const [base] = rows;
      rows = part.rows.map((row) => ({ ...base, ...row }));
      expands = true;
    } else {
      const cells = part.expands ? part.whole : part.rows[0];
      rows = rows.map((row) => ({ ...row, ...cells }));
    }
  }
  return { rows, expands, whole: { [name]: value } };
}

function flatten(value: unknown, shape: StreamValueShape | undefined, name: string): Flat {
  if (Array.isArray(value)) {
    if (shape?.positions) {
      const positions = shape.positions;
      return combine(
        value.map((item, index) =>
          flatten(item, positions[index], positions[index]?.name ?? `${name}.${index}`),
        ),
        name,
        value,
      );
    }
    // A list of plain values is one cell; a list of objects or tuples, a row each.
    if (!value.some(isComposite)) return cell(name, value);
    const rows = value.flatMap((item) => flatten(item, shape?.items, name).rows);
    return { rows, expands: true, whole: { [name]: value } };
  }
  if (!isObject(value)) return cell(name, value, shape);
  const entries = Object.entries(value);
  // Records keyed by a name (a balance per asset): a row each, the key first.
  if (!shape?.properties && entries.length > 0 && entries.every(([, entry]) => isObject(entry))) {
    const rows = entries.flatMap(([key, entry]) =>
      flatten(entry, shape?.additionalProperties, key).rows.map((row) => ({ '': key, ...row })),
    );
    return { rows, expands: true, whole: { [name]: value } };
  }
  return combine(
    entries.map(([key, entry]) => flatten(entry, shape?.properties?.[key], key)),
    name,
    value,
  );
}

/** The rows an update shows as, each a record of column name to cell. */
export function updateRows(update: unknown, shape: StreamValueShape | undefined): Row[] {
  return flatten(update, shape, 'value').rows;
}
