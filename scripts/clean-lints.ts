// A clean lint, remembered on disk (scripts/output-cache.ts) by a hash of every file it read, so
// that the next process to lint the same files does not run the lint again: `npm run lint`
// remembers what it found clean, and `npm start`'s first build (docs/dev-build.ts) then skips it,
// as it skips its own lint of files it linted clean before. Both use these keys, so a lint by one
// counts for the other; a lint with problems is never remembered.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { projectRoot } from '../model/document.ts';
import { recordAt, stringAt } from '../model/json.ts';
import type { StreamDocumentName } from '../model/streams.ts';
import { streamDocumentFiles } from '../model/streams.ts';
import { documentInputs } from './input-hashes.ts';
import { cachedOutput, keepOutput, outputKey } from './output-cache.ts';

/**
 * Every file the OpenAPI documents named in `root`'s redocly.yaml read, relative to it: found by
 * their references alone, without reading the documents whole (a key is worked out on every lint).
 */
function apiInputs(root: string): string[] {
  const apis = recordAt(parse(readFileSync(join(root, 'redocly.yaml'), 'utf8')), 'apis');
  return Object.values(apis).flatMap((api) => {
    const file = stringAt(api, 'root');
    return file ? documentInputs(root, file) : [];
  });
}

/** The key of Redocly's lint of every OpenAPI document of `root`, with its rules and ignore file. */
export function apiLintKey(root: string): string {
  const files = [...apiInputs(root), 'redocly.yaml', '.redocly.lint-ignore.yaml'];
  return outputKey([{ root, files }]);
}

/**
 * The key of the AsyncAPI parser's lint of one stream document of `root`: its own files, the
 * OpenAPI documents' (the token operation it names is looked up there) and the lint's code.
 */
export function streamLintKey(root: string, name: StreamDocumentName): string {
  return outputKey(
    [
      { root, files: [...documentInputs(root, streamDocumentFiles[name]), ...apiInputs(root)] },
      { root: projectRoot, files: ['scripts/stream-lint.ts'] },
    ],
    name,
  );
}

/** Whether a lint of these files, by this key, was clean before. */
export const lintedClean = (kind: 'lint-clean' | 'stream-lint-clean', key: string): boolean =>
  cachedOutput(kind, key) !== undefined;

/** Remembers that the lint by this key was clean. */
export async function rememberClean(kind: 'lint-clean' | 'stream-lint-clean', key: string): Promise<void> {
  await keepOutput(kind, key, (file) => writeFileSync(file, ''));
}
