import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { leftoverGeneratedFiles } from '../../scripts/generated-files.ts';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function projectWith(files: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'txc-leftovers-'));
  roots.push(root);
  for (const file of files) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), '// generated\n');
  }
  return root;
}

describe('files in generated/ that the documents no longer produce', () => {
  it('names the sample of an operation that was deleted, and nothing the documents produce', () => {
    const root = projectWith([
      'generated/routes.ts',
      'generated/samples/pingApi.ts',
      'generated/samples/deletedOperation.ts',
    ]);
    const outputs = new Map([
      ['generated/routes.ts', ''],
      ['generated/samples/pingApi.ts', ''],
    ]);
    expect(leftoverGeneratedFiles(root, outputs)).toEqual(['generated/samples/deletedOperation.ts']);
  });

  it('finds none when generated/ holds exactly what the documents produce, or does not exist', () => {
    const root = projectWith(['generated/samples/pingApi.ts']);
    expect(leftoverGeneratedFiles(root, new Map([['generated/samples/pingApi.ts', '']]))).toEqual([]);
    expect(leftoverGeneratedFiles(join(root, 'missing'), new Map())).toEqual([]);
  });
});
