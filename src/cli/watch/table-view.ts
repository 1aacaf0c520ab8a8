// The live view of every channel but depth: the newest rows of its updates (rows.ts) as a table
// that scrolls, the newest at the bottom, as many as the terminal has rows. It fits the width as
// txc's tables do (output/table.ts: text cut with an ellipsis, amounts never); where even that
// does not fit, the columns on the right are left out (the status line says how many), and as a
// last resort the lines are cut.
import type { StreamValueShape } from '../../../generated/streams.ts';
import { cut, renderTable } from '../output/table.ts';
import type { LiveBody } from './live-view.ts';
import { type Row, updateRows } from './rows.ts';

/** Rows kept: more than any terminal shows. */
const keptRows = 1000;

export interface TableLines {
  lines: string[];
  /** Columns left out to fit the width. */
  hidden: number;
}

/** The rows as a table within `width`: a header line and a line a row. */
export function tableLines(rows: readonly Row[], width: number): TableLines {
  const headers = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  for (let shown = headers.length; shown >= 1; shown--) {
    const kept = headers.slice(0, shown);
    const lines = renderTable(
      kept,
      rows.map((row) => kept.map((header) => row[header])),
      { width },
    ).split('\n');
    // A table that does not fit turns into `key  value` lines: one line a row is what scrolls.
    if (lines.length === rows.length + 1 && lines.every((line) => line.length <= width)) {
      return { lines, hidden: headers.length - shown };
    }
  }
  const [first = ''] = headers;
  const lines = renderTable(
    [first],
    rows.map((row) => [row[first]]),
  ).split('\n');
  return { lines: lines.map((line) => cut(line, width)), hidden: Math.max(0, headers.length - 1) };
}

/** A channel's body as the newest rows of its updates, named by `shape`. */
export function tableBody(channel: string, params: unknown, shape: StreamValueShape | undefined): LiveBody {
  const rows: Row[] = [];
  return {
    render(width, height) {
      // Below the header, as many of the newest as fit.
      const count = height - 1;
      if (rows.length === 0 || count <= 0) return { lines: [] };
      const { lines, hidden } = tableLines(rows.slice(-count), width);
      return { lines, ...(hidden > 0 && { note: `${hidden} columns left out (--json shows all)` }) };
    },
    async run(subscribe, updated) {
      for await (const update of subscribe(channel, params)) {
        rows.push(...updateRows(update, shape));
        if (rows.length > keptRows) rows.splice(0, rows.length - keptRows);
        updated();
      }
    },
  };
}
