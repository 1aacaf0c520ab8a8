// Where an answer goes: a table on a terminal, JSON (for jq and scripts) when stdout is not a
// terminal or with --json. Amounts are printed exactly as they arrived; JSON is the answer as
// the service sent it, while a table shows dates and named codes as a person reads them.
import { answerShapes } from '../../../generated/answers.ts';
import { readable } from './readable.ts';
import { renderValue } from './table.ts';

export function wantsJson(json: boolean | undefined): boolean {
  return json === true || !process.stdout.isTTY;
}

/** The terminal's width: what stdout reports, else COLUMNS, else none (no limit). */
export function terminalWidth(): number | undefined {
  const reported = process.stdout.isTTY ? process.stdout.columns : undefined;
  if (reported !== undefined && reported > 0) return reported;
  const columns = Number(process.env.COLUMNS);
  return Number.isSafeInteger(columns) && columns > 0 ? columns : undefined;
}

/** Prints an operation's answer; its shape in the documents says which fields are dates or codes. */
export function writeAnswer(value: unknown, json: boolean, operationId?: string): void {
  const text = json
    ? JSON.stringify(value, null, 2)
    : renderValue(readable(value, operationId === undefined ? undefined : answerShapes[operationId]), {
        width: terminalWidth(),
      });
  process.stdout.write(`${text}\n`);
}
