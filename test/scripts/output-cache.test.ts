// The outputs kept across processes (scripts/output-cache.ts): found again only for the very same
// inputs (an edit to any input file, a changed option or other tools installed make a new key),
// always whole, and only the newest few of each kind kept.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedOutput, keepOutput, outputCacheDirectory, outputKey } from '../../scripts/output-cache.ts';

const root = mkdtempSync(join(tmpdir(), 'txc-output-cache-'));
// Kinds of this run's own: the project's real entries are not touched.
const kind = (name: string) => `test-${process.pid}-${name}`;
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  for (const name of readdirSync(outputCacheDirectory))
    if (name.startsWith(`test-${process.pid}-`)) rmSync(join(outputCacheDirectory, name), { force: true });
});

writeFileSync(join(root, 'document.yaml'), 'openapi: 3.1.0\n');
writeFileSync(join(root, 'part.yaml'), 'type: string\n');
const inputs = [{ root, files: ['document.yaml', 'part.yaml'] }];

describe('outputKey', () => {
  it('is the same for the same files, and differs when a file, the file list or an option does', () => {
    const key = outputKey(inputs, 'options');
    expect(outputKey(inputs, 'options')).toBe(key);
    expect(outputKey(inputs, 'other options')).not.toBe(key);
    expect(outputKey([{ root, files: ['document.yaml'] }], 'options')).not.toBe(key);
    writeFileSync(join(root, 'part.yaml'), 'type: number\n');
    expect(outputKey(inputs, 'options')).not.toBe(key);
    writeFileSync(join(root, 'part.yaml'), 'type: string\n');
    expect(outputKey(inputs, 'options')).toBe(key);
  });

  it('counts a missing input file as such', () => {
    const key = outputKey(inputs);
    expect(outputKey([{ root, files: ['document.yaml', 'part.yaml', 'absent.yaml'] }])).not.toBe(key);
  });
});

describe('keepOutput and cachedOutput', () => {
  it('finds what was kept under its key only', async () => {
    const key = outputKey(inputs);
    expect(cachedOutput(kind('page'), key)).toBeUndefined();
    const kept = await keepOutput(kind('page'), key, (file) => writeFileSync(file, '<html>page</html>'));
    expect(cachedOutput(kind('page'), key)).toBe(kept);
    expect(readFileSync(kept, 'utf8')).toBe('<html>page</html>');
    expect(cachedOutput(kind('other'), key)).toBeUndefined();
    expect(cachedOutput(kind('page'), outputKey(inputs, 'changed'))).toBeUndefined();
  });

  it('keeps nothing, not even a part, when the writer fails', async () => {
    const key = outputKey(inputs, 'failing');
    await expect(
      keepOutput(kind('failing'), key, (file) => {
        writeFileSync(file, 'half a page');
        throw new Error('build-docs failed');
      }),
    ).rejects.toThrow('build-docs failed');
    expect(cachedOutput(kind('failing'), key)).toBeUndefined();
    expect(readdirSync(outputCacheDirectory).filter((name) => name.startsWith(kind('failing')))).toEqual([]);
  });

  it('removes a draft whose writer no longer runs, and not one being written', async () => {
    // The pid of a process that has ended (not handed out again this soon).
    const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    const stale = join(outputCacheDirectory, `${kind('drafts')}-old.${ended.stdout}.draft`);
    const ours = join(outputCacheDirectory, `${kind('drafts')}-new.${process.pid}.draft`);
    writeFileSync(stale, 'cut short');
    writeFileSync(ours, 'being written');
    await keepOutput(kind('drafts'), outputKey(inputs), (file) => writeFileSync(file, 'whole'));
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(ours)).toBe(true);
    rmSync(ours);
  });

  it('keeps the eight most recently used entries of a kind', async () => {
    const keys = Array.from({ length: 10 }, (_, index) => outputKey(inputs, `edit ${index}`));
    // Each used a second after the one before (explicit times: no two alike on any file system).
    const start = Date.now() / 1000 - 1000;
    for (const [index, key] of keys.entries()) {
      const file = await keepOutput(kind('lint'), key, (draft) => writeFileSync(draft, ''));
      utimesSync(file, start + index, start + index);
    }
    const kept = readdirSync(outputCacheDirectory).filter((name) => name.startsWith(`${kind('lint')}-`));
    expect(kept).toHaveLength(8);
    // The two oldest went; the newest is there.
    expect(cachedOutput(kind('lint'), keys[9] as string)).toBeDefined();
    expect(kept.some((name) => name.endsWith(keys[0] as string))).toBe(false);
  });
});
