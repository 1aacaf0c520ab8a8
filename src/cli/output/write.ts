// Where an answer goes: a table on a terminal, JSON (for jq and scripts) when stdout is not a
// terminal or with --json. Amounts are printed exactly as they arrived.
import { renderValue } from './table.ts';

export function wantsJson(json: boolean | undefined): boolean {
  return json === true || !process.stdout.isTTY;
}

export function writeAnswer(value: unknown, json: boolean): void {
  process.stdout.write(`${json ? JSON.stringify(value, null, 2) : renderValue(value)}\n`);
}
