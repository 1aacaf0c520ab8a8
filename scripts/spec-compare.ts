// Compares every document of the working tree with the same document at a git ref: the changes
// per operation (scripts/spec-diff.ts) and each document's version on both sides.
import { at } from '../model/json.ts';
import { diffDocuments, type SpecChange } from './spec-diff.ts';
import { type BaseRef, defaultBaseRef, documentsAtRef, refExists, workingDocuments } from './spec-sources.ts';

export interface DocumentComparison {
  name: string;
  file: string;
  /** `info.version` at the ref and now; undefined where the document does not exist. */
  oldVersion?: string;
  newVersion?: string;
  /** Whether the parsed documents differ at all (descriptions and examples included). */
  differs: boolean;
  changes: SpecChange[];
}

export type Comparison =
  | { found: false; reason: string }
  | { found: true; base: BaseRef; documents: DocumentComparison[] };

/** Compares the working tree with `ref`, or with the default base (last tag, else merge base with main). */
export function compareWithRef(root: string, ref?: string): Comparison {
  let base: BaseRef | undefined;
  if (ref !== undefined) {
    if (!refExists(root, ref)) return { found: false, reason: `no commit named ${ref}` };
    base = { ref, how: ref };
  } else {
    base = defaultBaseRef(root);
    if (!base) return { found: false, reason: 'no tag and no main branch to compare with' };
  }
  const before = new Map(documentsAtRef(root, base.ref).map((source) => [source.name, source]));
  const after = new Map(workingDocuments(root).map((source) => [source.name, source]));
  const documents: DocumentComparison[] = [];
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const old = before.get(name);
    const now = after.get(name);
    documents.push({
      name,
      file: (now ?? old)?.file ?? name,
      ...(old && { oldVersion: String(at(old.document, 'info', 'version')) }),
      ...(now && { newVersion: String(at(now.document, 'info', 'version')) }),
      differs: JSON.stringify(old?.document) !== JSON.stringify(now?.document),
      changes: diffDocuments(name, old?.document ?? {}, now?.document ?? {}),
    });
  }
  return { found: true, base, documents };
}
