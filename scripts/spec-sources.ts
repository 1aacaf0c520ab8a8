// Where the two sides of a spec diff come from: the documents named in redocly.yaml, as they are
// at a git ref (every file read with `git show REF:path`, so nothing is checked out) and in the
// working tree, each dereferenced: a change to any file a document is made of (an operation's own
// file under openapi/paths/, a shared component) is a change to the document.
import { execFileSync } from 'node:child_process';
import { dereference, type FileReader, workingTreeReader } from '../model/document.ts';
import { parseYaml } from '../model/parse-yaml.ts';

export interface DocumentSource {
  /** The document's name in redocly.yaml. */
  name: string;
  /** The root document, relative to the project root. */
  file: string;
  /** The document with every reference to another part resolved. */
  document: unknown;
}

function git(root: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', args, {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

export interface BaseRef {
  ref: string;
  /** How it was chosen, for the reader: `tag v4.0.0`, `merge base with main`. */
  how: string;
}

/**
 * The ref a change is measured against: the last tag reachable from HEAD, else the merge base of
 * HEAD and `main` (or `origin/main`). Undefined when there is neither (a shallow clone, a fresh
 * repository without main). On main itself the merge base is HEAD.
 */
export function defaultBaseRef(root: string): BaseRef | undefined {
  const tag = git(root, ['describe', '--tags', '--abbrev=0', 'HEAD']);
  if (tag) return { ref: tag, how: `last tag ${tag}` };
  for (const branch of ['main', 'origin/main']) {
    const base = git(root, ['merge-base', 'HEAD', branch]);
    if (base) return { ref: base, how: `merge base with ${branch} (${base.slice(0, 12)})` };
  }
  return undefined;
}

/** Whether `ref` names a commit in the repository at `root`. */
export function refExists(root: string, ref: string): boolean {
  return git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]) !== undefined;
}

/** The documents of redocly.yaml that exist, read through `read`; none when there is no redocly.yaml. */
function documentsFrom(read: FileReader): DocumentSource[] {
  const config = read('redocly.yaml');
  if (config === undefined) return [];
  const apis = ((parseYaml(config) as { apis?: unknown } | null)?.apis ?? {}) as Record<
    string,
    { root: string }
  >;
  return Object.entries(apis).flatMap(([name, api]) => {
    const text = read(api.root);
    if (text === undefined) return [];
    return [{ name, file: api.root, document: dereference(parseYaml(text), { file: api.root, read }) }];
  });
}

/** The documents as committed at `ref`. */
export function documentsAtRef(root: string, ref: string): DocumentSource[] {
  return documentsFrom((path) => git(root, ['show', `${ref}:./${path}`]));
}

/** The documents in the working tree, saved changes included. */
export function workingDocuments(root: string): DocumentSource[] {
  return documentsFrom(workingTreeReader(root));
}
