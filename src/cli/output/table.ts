// A readable rendering of any JSON answer for a terminal: arrays of objects and objects of objects
// become tables, decimal strings line up on the decimal point and are otherwise left exactly as
// they arrived (never parsed as numbers), plain values print as they are.
//
// Given a width (the terminal's), nothing is wider: text columns (identifiers, names, dates) are
// cut with an ellipsis, widest first; amounts and numbers never are, since a cut amount reads as
// another amount. When even that does not fit, each row becomes a list of `key  value` lines.
const decimal = /^-?[0-9]+(\.[0-9]+)?$/;
const gap = '  ';
/** The narrowest a cut text column gets before the table turns into a list. */
const narrowestCut = 8;
const ellipsis = '…';

type Json = unknown;

export interface RenderOptions {
  /** The terminal's width in columns; no limit when undefined. */
  readonly width?: number | undefined;
  /**
   * Headers of text columns never cut, as amounts are not: what a reader types (a subcommand).
   * The other text columns give up the room.
   */
  readonly whole?: readonly string[] | undefined;
}

const isObject = (value: Json): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const cellText = (value: Json): string =>
  value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/** Text cut to `width` columns, its last one an ellipsis when anything was cut. */
export function cut(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}${ellipsis}`;
}

const isDecimalColumn = (present: Json[]) =>
  present.length > 0 && present.every((cell) => typeof cell === 'string' && decimal.test(cell));
const isNumberColumn = (present: Json[]) =>
  present.length > 0 && present.every((cell) => typeof cell === 'number');

interface Column {
  header: string;
  cells: string[];
  /** Amounts and numbers, and the columns a caller keeps whole: never cut. */
  fixed: boolean;
}

/** A column's cells: decimals aligned on the point, numbers to the right, text to the left. */
function column(header: string, cells: Json[]): Column {
  const present = cells.filter((cell) => cell !== undefined);
  if (isDecimalColumn(present)) {
    const parts = cells.map((cell) => {
      const [whole = '', fraction] = cellText(cell).split('.');
      return { whole, fraction: fraction === undefined ? '' : `.${fraction}` };
    });
    const wholeWidth = Math.max(...parts.map((part) => part.whole.length));
    const fractionWidth = Math.max(...parts.map((part) => part.fraction.length));
    return {
      header,
      fixed: true,
      cells: parts.map((part, index) =>
        cells[index] === undefined
          ? ''
          : part.whole.padStart(wholeWidth) + part.fraction.padEnd(fractionWidth),
      ),
    };
  }
  const texts = cells.map(cellText);
  if (isNumberColumn(present)) {
    const width = Math.max(...texts.map((text) => text.length));
    return { header, fixed: true, cells: texts.map((text) => text.padStart(width)) };
  }
  return { header, fixed: false, cells: texts };
}

const naturalWidth = (column: Column) =>
  Math.max(column.header.length, ...column.cells.map((cell) => cell.length));

/**
 * The width of each column so that the table fits `width`: text columns capped at one common
 * width, as wide as fits; undefined when a cap of `narrowestCut` is still too wide.
 */
function fitWidths(columns: Column[], width: number | undefined): number[] | undefined {
  const natural = columns.map(naturalWidth);
  const gaps = gap.length * Math.max(0, columns.length - 1);
  const total = (widths: number[]) => widths.reduce((sum, each) => sum + each, 0) + gaps;
  if (width === undefined || total(natural) <= width) return natural;
  const widest = Math.max(...natural.filter((_, index) => !columns[index]?.fixed), 0);
  for (let cap = widest - 1; cap >= narrowestCut; cap--) {
    const capped = natural.map((each, index) => (columns[index]?.fixed ? each : Math.min(each, cap)));
    if (total(capped) <= width) return capped;
  }
  return undefined;
}

/** Each row as `header  cell` lines, rows apart; an empty header's cell heads its row. */
function renderList(columns: Column[], rows: number, width: number): string {
  const named = columns.filter((each) => each.header !== '');
  const keyWidth = Math.max(0, ...named.map((each) => each.header.length));
  const valueWidth = Math.max(narrowestCut, width - keyWidth - gap.length);
  const blocks: string[] = [];
  for (let row = 0; row < rows; row++) {
    const lines = columns.map((each) => {
      const cell = (each.cells[row] ?? '').trim();
      if (each.header === '') return cut(cell, width);
      return `${each.header.padEnd(keyWidth)}${gap}${each.fixed ? cell : cut(cell, valueWidth)}`.trimEnd();
    });
    blocks.push(lines.join('\n'));
  }
  return blocks.join('\n\n');
}

function renderColumns(columns: Column[], rows: number, options: RenderOptions): string {
  const widths = fitWidths(columns, options.width);
  if (!widths) return renderList(columns, rows, options.width as number);
  const line = (text: (each: Column) => string) =>
    columns
      .map((each, index) => cut(text(each), widths[index] as number).padEnd(widths[index] as number))
      .join(gap)
      .trimEnd();
  return [
    line((each) => each.header),
    ...Array.from({ length: rows }, (_, row) => line((each) => each.cells[row] ?? '')),
  ].join('\n');
}

/** Columns of cells under headers, two spaces apart, trailing spaces trimmed, within the width. */
export function renderTable(headers: string[], rows: Json[][], options: RenderOptions = {}): string {
  const columns = headers.map((header, index) => {
    const made = column(
      header,
      rows.map((row) => row[index]),
    );
    return options.whole?.includes(header) ? { ...made, fixed: true } : made;
  });
  return renderColumns(columns, rows.length, options);
}

function objectRows(objects: Record<string, Json>[]): { headers: string[]; rows: Json[][] } {
  const headers = [...new Set(objects.flatMap((object) => Object.keys(object)))];
  return { headers, rows: objects.map((object) => headers.map((header) => object[header])) };
}

/** Plain fields as `key  value` lines, values aligned; text values cut to the width. */
function renderFields(entries: [string, Json][], options: RenderOptions): string {
  const keyWidth = Math.max(...entries.map(([key]) => key.length));
  const values = column(
    '',
    entries.map(([, entry]) => entry),
  );
  const valueWidth =
    options.width === undefined
      ? Number.POSITIVE_INFINITY
      : Math.max(narrowestCut, options.width - keyWidth - 2);
  return entries
    .map(([key], index) => {
      const cell = values.cells[index] ?? '';
      return `${key.padEnd(keyWidth)}${gap}${values.fixed ? cell : cut(cell, valueWidth)}`.trimEnd();
    })
    .join('\n');
}

/** Any JSON answer as text for a terminal. */
export function renderValue(value: Json, options: RenderOptions = {}): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '(none)';
    if (value.every(isObject)) {
      const { headers, rows } = objectRows(value);
      return renderTable(headers, rows, options);
    }
    return value.map(cellText).join('\n');
  }
  if (!isObject(value)) return cellText(value);
  const entries = Object.entries(value);
  if (entries.length === 0) return '(none)';
  // Keyed records (a balance per ticker): one row per key.
  if (
    entries.every(([, entry]) => isObject(entry) && Object.values(entry).every((cell) => !isObject(cell)))
  ) {
    const { headers, rows } = objectRows(entries.map(([, entry]) => entry as Record<string, Json>));
    return renderTable(
      ['', ...headers],
      rows.map((row, index) => [entries[index]?.[0], ...row]),
      options,
    );
  }
  const plain = entries.filter(([, entry]) => !isObject(entry) && !Array.isArray(entry));
  const nested = entries.filter(([, entry]) => isObject(entry) || Array.isArray(entry));
  const blocks: string[] = [];
  if (plain.length > 0) blocks.push(renderFields(plain, options));
  for (const [key, entry] of nested) blocks.push(`${key}:\n${renderValue(entry, options)}`);
  return blocks.join('\n\n');
}
