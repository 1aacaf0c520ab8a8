// Files kept across processes, each whole: what one process computed (a parse, a compiled
// validator) and any later one may read instead of computing it again. They live under
// node_modules/.cache, beside the other tools' caches, so `npm ci` starts them afresh.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The directory of the kept files of one kind (named with what makes them differ, e.g. a version). */
export function keptFilesDirectory(kind: string): string {
  return join(fileURLToPath(new URL('..', import.meta.url)), 'node_modules', '.cache', kind);
}

/**
 * Writes `text` to `file`, its directory made if need be: written aside, then renamed, so a
 * process reading it at the same time sees all of it or nothing. Throws when it cannot write
 * (a read-only checkout): the caller then goes on without keeping it.
 */
export function keepWhole(file: string, text: string): void {
  mkdirSync(join(file, '..'), { recursive: true });
  const aside = `${file}.${process.pid}.tmp`;
  writeFileSync(aside, text);
  renameSync(aside, file);
}
