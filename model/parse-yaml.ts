// YAML parsed once per text, not once per process. Reading the documents is mostly parsing their
// YAML (about 0.7 s of CPU for the 240 files), and every tool that reads them is a process of its
// own: the sandbox, the watch loop, txc's generator, each test worker. Measured across `npm test`,
// the same texts were parsed about 20,000 times, 85 CPU seconds. A parse depends on the text
// alone, so its value is kept on disk under the text's hash, as JSON, and read back by any process
// that meets the same text: an edited file is a new text, and a new parse.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';
import { keepWhole, keptFilesDirectory } from './kept-files.ts';

const yamlVersion = (createRequire(import.meta.url)('yaml/package.json') as { version: string }).version;

/** A new version of the parser starts a new directory, as its values may differ. */
const cacheDir = keptFilesDirectory(`txc-parsed-yaml-${yamlVersion}`);

/** Where the value of `text` is kept once parsed. */
export function parsedYamlFile(text: string): string {
  return join(cacheDir, `${createHash('sha256').update(text).digest('hex')}.json`);
}

/**
 * The value of a YAML (or JSON) text, as `parse` from the yaml package gives it: a fresh value on
 * each call, free to change. A text that does not parse throws as `parse` does, and is not kept.
 */
export function parseYaml(text: string): unknown {
  const file = parsedYamlFile(text);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // Not kept yet (or a torn write from a crash, which JSON.parse refuses): parsed below.
  }
  const value: unknown = parse(text);
  const json = JSON.stringify(value);
  // Kept only when JSON gives back the very value (a YAML-only value, such as .inf, is not).
  if (json !== undefined && isDeepStrictEqual(JSON.parse(json), value)) {
    try {
      keepWhole(file, json);
    } catch {
      // A read-only checkout parses every time, as before.
    }
  }
  return value;
}
