// What each step of `npm start`'s watch loop reads, and a hash of it, so that a step whose inputs
// did not change is skipped: codegen when the documents are as they were, a docs page when its
// document (with every file it $refs, samples included) is, a mock when its document is, the
// sandbox when the documents and generated/ are. A document may be split over many files under
// openapi/ (Redocly's split layout): its inputs are found by following its $refs.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseYaml } from '../model/parse-yaml.ts';

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
 * The files a YAML or JSON text $refs (each as written, without its fragment), by the text. Keyed
 * by content, not path: the docs build reads the same parts from a new temporary copy each time.
 */
const referencesByText = new Map<string, string[]>();
/** Enough for every part of the documents and the versions a long `npm start` saves of a few. */
const keptTexts = 5000;

/**
 * The files that the YAML or JSON file at `path` $refs (absolute paths); undefined when it is
 * missing or does not parse. The watch loop asks for every step of every rebuild: a text is
 * parsed once.
 */
function referencedFiles(path: string): string[] | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  let targets = referencesByText.get(text);
  if (targets === undefined) {
    let parsed: unknown;
    try {
      parsed = parseYaml(text);
    } catch {
      return undefined;
    }
    targets = refsOf(parsed)
      .map((ref) => ref.split('#')[0] ?? '')
      .filter((target) => target !== '' && !/^[a-z]+:\/\//i.test(target));
    if (referencesByText.size >= keptTexts) referencesByText.clear();
    referencesByText.set(text, targets);
  }
  return targets.map((target) => resolve(dirname(path), target));
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
    if (!/\.(ya?ml|json)$/.test(path)) return;
    for (const target of referencedFiles(path) ?? []) visit(relative(root, target));
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
