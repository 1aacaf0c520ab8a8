// A readable rendering of any JSON answer for a terminal: arrays of objects and objects of objects
// become tables, decimal strings line up on the decimal point and are otherwise left exactly as
// they arrived (never parsed as numbers), plain values print as they are.
const decimal = /^-?[0-9]+(\.[0-9]+)?$/;

type Json = unknown;

const isObject = (value: Json): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const cellText = (value: Json): string =>
  value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/** Pads a column's cells: decimals aligned on the point, numbers to the right, text to the left. */
function alignColumn(cells: Json[]): string[] {
  const present = cells.filter((cell) => cell !== undefined);
  if (present.length > 0 && present.every((cell) => typeof cell === 'string' && decimal.test(cell))) {
    const parts = cells.map((cell) => {
      const [whole = '', fraction] = cellText(cell).split('.');
      return { whole, fraction: fraction === undefined ? '' : `.${fraction}` };
    });
    const wholeWidth = Math.max(...parts.map((part) => part.whole.length));
    const fractionWidth = Math.max(...parts.map((part) => part.fraction.length));
    return parts.map((part, index) =>
      cells[index] === undefined ? '' : part.whole.padStart(wholeWidth) + part.fraction.padEnd(fractionWidth),
    );
  }
  const texts = cells.map(cellText);
  if (present.length > 0 && present.every((cell) => typeof cell === 'number')) {
    const width = Math.max(...texts.map((text) => text.length));
    return texts.map((text) => text.padStart(width));
  }
  return texts;
}

/** Columns of cells under headers, two spaces apart, trailing spaces trimmed. */
export function renderTable(headers: string[], rows: Json[][]): string {
  const columns = headers.map((header, index) => {
    const cells = alignColumn(rows.map((row) => row[index]));
    const width = Math.max(header.length, ...cells.map((cell) => cell.length));
    return { header: header.padEnd(width), cells: cells.map((cell) => cell.padEnd(width)) };
  });
  const lines = [
    columns.map((column) => column.header).join('  '),
    ...rows.map((_, row) => columns.map((column) => column.cells[row]).join('  ')),
  ];
  return lines.map((line) => line.trimEnd()).join('\n');
}

function objectRows(objects: Record<string, Json>[]): { headers: string[]; rows: Json[][] } {
  const headers = [...new Set(objects.flatMap((object) => Object.keys(object)))];
  return { headers, rows: objects.map((object) => headers.map((header) => object[header])) };
}

/** Any JSON answer as text for a terminal. */
export function renderValue(value: Json): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '(none)';
    if (value.every(isObject)) {
      const { headers, rows } = objectRows(value);
      return renderTable(headers, rows);
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
    );
  }
  const plain = entries.filter(([, entry]) => !isObject(entry) && !Array.isArray(entry));
  const nested = entries.filter(([, entry]) => isObject(entry) || Array.isArray(entry));
  const blocks: string[] = [];
  if (plain.length > 0) {
    const cells = alignColumn(plain.map(([, entry]) => entry));
    const width = Math.max(...plain.map(([key]) => key.length));
    blocks.push(plain.map(([key], index) => `${key.padEnd(width)}  ${cells[index]}`.trimEnd()).join('\n'));
  }
  for (const [key, entry] of nested) blocks.push(`${key}:\n${renderValue(entry)}`);
  return blocks.join('\n\n');
}
