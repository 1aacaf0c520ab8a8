// What each step of `npm start`'s watch loop reads, and a hash of it, so that a step whose inputs
// did not change is skipped: codegen when the documents are as they were, a docs page when its
// document (with every file it $refs, samples included) is, a mock when its document is, the
// sandbox when the documents and generated/ are. A document may be split over many files under
// openapi/ (Redocly's split layout): its inputs are found by following its $refs.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parse } from 'yaml';

/** Every `$ref` value in a parsed YAML or JSON value. */
function refsOf(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsOf(item, into);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') into.push(item);
      else refsOf(item, into);
    }
  }
  return into;
}

/**
 * The $refs of each file parsed so far, by its path, with the text they were read from: every step
 * of a rebuild asks for its inputs (a dozen walks over the same files), and parsing them was a
 * fifth of `npm start`'s CPU. A file whose text changed is parsed again.
 */
const parsedRefs = new Map<string, { text: string; refs: string[] }>();

/** The $refs of the YAML or JSON file `path`; none if it cannot be read or does not parse. */
function refsOfFile(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  const known = parsedRefs.get(path);
  if (known?.text === text) return known.refs;
  let refs: string[] = [];
  try {
    refs = refsOf(parse(text));
  } catch {
    // Not followed: lint reports it.
  }
  parsedRefs.set(path, { text, refs });
  return refs;
}

/**
 * The files (relative to `root`) that the document `file` reads: itself, and every file its
 * $refs reach, transitively. A file that is not YAML or JSON (a code sample) is read, not
 * followed; a file that does not parse is an input still (lint reports it).
 */
export function documentInputs(root: string, file: string): string[] {
  const seen = new Set<string>();
  const visit = (relativePath: string) => {
    if (seen.has(relativePath)) return;
    seen.add(relativePath);
    const path = join(root, relativePath);
    if (!/\.(ya?ml|json)$/.test(path) || !existsSync(path)) return;
    for (const ref of refsOfFile(path)) {
      const target = ref.split('#')[0];
      if (!target || /^[a-z]+:\/\//i.test(target)) continue;
      visit(relative(root, resolve(dirname(path), target)));
    }
  };
  visit(file);
  return [...seen].sort();
}

/** Every file under `directory` (relative to `root`), recursively, sorted. */
export function filesUnder(root: string, directory: string): string[] {
  if (!existsSync(join(root, directory))) return [];
  return readdirSync(join(root, directory), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

/** A hash of the names and contents of `files` (relative to `root`); a missing file counts as such. */
export function hashFiles(root: string, files: Iterable<string>): string {
  const hash = createHash('sha256');
  for (const file of [...new Set(files)].sort()) {
    const path = join(root, file);
    hash.update(`${file}\u0000`);
    hash.update(existsSync(path) ? readFileSync(path) : '\u0000missing');
    hash.update('\u0000');
  }
  return hash.digest('hex');
}

/** Remembers the inputs' hash each step last succeeded with; answers whether a step is due. */
export class InputHashes {
  private readonly done = new Map<string, string>();

  /** The hash of `files` if it differs from the one `step` last succeeded with; undefined if it does not. */
  changed(step: string, root: string, files: Iterable<string>): string | undefined {
    const hash = hashFiles(root, files);
    return this.done.get(step) === hash ? undefined : hash;
  }

  /** Records that `step` succeeded with inputs of this hash. */
  succeeded(step: string, hash: string): void {
    this.done.set(step, hash);
  }

  /** Forgets `step`: it runs on the next build whatever its inputs. */
  forget(step: string): void {
    this.done.delete(step);
  }
}
