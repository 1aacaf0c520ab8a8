// What a tool writes from files alone (a build-docs page, a clean lint), kept on disk by a hash of
// every file it reads and of the installed tools, so that the next process to need it (the next
// `npm start`, the docs tests) does not run the tool again. The watch loop's own hashes
// (scripts/input-hashes.ts) last only as long as its process; these last across processes.
// The entries live under node_modules/.cache (gone with `npm ci`), the few newest of each kind.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../model/document.ts';
import { keptFilesDirectory } from '../model/kept-files.ts';
import { isRunning } from './child-process.ts';
import { hashFiles } from './input-hashes.ts';

/** Where the outputs are kept, beside the other kept files (model/kept-files.ts). */
export const outputCacheDirectory = keptFilesDirectory('txc-outputs');
/** Entries kept of each kind: enough for a few branches or edits back and forth. */
const keptPerKind = 8;

/**
 * The key of an output: a hash of the files it is made from (each list relative to its root),
 * of the installed tools (package-lock.json) and of anything else it depends on (`also`).
 */
export function outputKey(inputs: { root: string; files: string[] }[], also = ''): string {
  const hash = createHash('sha256');
  for (const { root, files } of [...inputs, { root: projectRoot, files: ['package-lock.json'] }])
    hash.update(`${hashFiles(root, files)}\u0000`);
  hash.update(also);
  return hash.digest('hex').slice(0, 32);
}

/** The file that holds the `kind` output of `key`, if it is there (marked as just used). */
export function cachedOutput(kind: string, key: string): string | undefined {
  const file = join(outputCacheDirectory, `${kind}-${key}`);
  try {
    const now = new Date();
    utimesSync(file, now, now);
    return file;
  } catch {
    return undefined;
  }
}

/**
 * Keeps what `write` writes (to the file it is given) as the `kind` output of `key`; returns the
 * kept file. Written beside and renamed: a process reading it never sees half a file, and two
 * processes making the same output at once both keep a whole one.
 */
export async function keepOutput(
  kind: string,
  key: string,
  write: (file: string) => Promise<void> | void,
): Promise<string> {
  mkdirSync(outputCacheDirectory, { recursive: true });
  const file = join(outputCacheDirectory, `${kind}-${key}`);
  const draft = `${file}.${process.pid}.draft`;
  try {
    await write(draft);
    renameSync(draft, file);
  } finally {
    rmSync(draft, { force: true });
  }
  pruneKind(kind);
  return file;
}

/** Removes all but the newest few entries of `kind`, and drafts that no running process writes. */
function pruneKind(kind: string): void {
  const names = readdirSync(outputCacheDirectory).filter((name) => name.startsWith(`${kind}-`));
  for (const name of names) {
    const writer = /\.(\d+)\.draft$/.exec(name)?.[1];
    // A draft whose writer no longer runs was cut short.
    if (writer && !isRunning(Number(writer))) rmSync(join(outputCacheDirectory, name), { force: true });
  }
  const entries = names
    .filter((name) => !name.endsWith('.draft'))
    .map((name) => {
      try {
        return { name, used: statSync(join(outputCacheDirectory, name)).mtimeMs };
      } catch {
        return { name, used: 0 };
      }
    })
    .sort((a, b) => b.used - a.used);
  for (const { name } of entries.slice(keptPerKind))
    rmSync(join(outputCacheDirectory, name), { force: true });
}
