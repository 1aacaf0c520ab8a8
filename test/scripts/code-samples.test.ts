// The documents' copy with their samples (scripts/code-samples.ts documentsWithSamples): when a
// document of the root does not load, as after a save the watch loop refuses, the copy made before
// the failure is removed, not left in the temporary directory for every such save.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadApiDocuments, pathItemFile, projectRoot } from '../../model/document.ts';
import { recordAt } from '../../model/json.ts';
import { documentsWithSamples } from '../../scripts/code-samples.ts';
import { keepFewOperations } from '../few-operations.ts';

const scratch = mkdtempSync(join(tmpdir(), 'txc-samples-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs `work` with the temporary directory (os.tmpdir(), read from TMPDIR) set to `dir`. */
function withTemporaryDirectory<T>(dir: string, work: () => T): T {
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    return work();
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
}

describe('documentsWithSamples', () => {
  it('removes its copy when a document does not load, and leaves a copy to remove when it does', () => {
    const root = join(scratch, 'root');
    for (const part of ['openapi', 'redocly.yaml'])
      cpSync(join(projectRoot, part), join(root, part), { recursive: true });
    // How many operations the documents have does not matter here.
    keepFewOperations(root);
    const temporary = join(scratch, 'tmp');
    mkdirSync(temporary);

    const copy = withTemporaryDirectory(temporary, () => documentsWithSamples(root));
    expect(readdirSync(temporary)).toHaveLength(1);
    copy.remove();
    expect(readdirSync(temporary)).toEqual([]);

    const [api] = loadApiDocuments(root);
    const [path] = Object.keys(recordAt(api?.dereferenced, 'paths'));
    if (!api || !path) throw new Error('the project has no document with a path');
    writeFileSync(join(root, pathItemFile(api, path)), 'get: [unclosed\n');
    expect(() => withTemporaryDirectory(temporary, () => documentsWithSamples(root))).toThrow();
    expect(readdirSync(temporary)).toEqual([]);
  });
});
