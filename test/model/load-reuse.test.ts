// loadApiDocuments reuses its last load of a root while every file it read is unchanged: an edit
// to any of them (even one that keeps the file's size) is seen at once, and no caller's changes
// to what it got reach the next caller.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ApiDocument, loadApiDocuments } from '../../model/document.ts';

const root = mkdtempSync(join(tmpdir(), 'txc-load-reuse-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const write = (file: string, text: string) => writeFileSync(join(root, file), text);
write('redocly.yaml', 'apis:\n  small:\n    root: small.yaml\n');
write(
  'small.yaml',
  'openapi: 3.1.0\ninfo: { title: Small, version: "1" }\npaths: {}\ncomponents:\n  schemas:\n    Part: { $ref: part.yaml }\n',
);
write('part.yaml', 'type: string\ndescription: first\n');

const partOf = (apis: ApiDocument[]) =>
  ((apis[0] as ApiDocument).dereferenced.components as { schemas: { Part: { description: string } } }).schemas
    .Part;

describe('loadApiDocuments', () => {
  it('sees an edit to a referenced file, even one of the same size', () => {
    expect(partOf(loadApiDocuments(root)).description).toBe('first');
    write('part.yaml', 'type: string\ndescription: other\n');
    expect(partOf(loadApiDocuments(root)).description).toBe('other');
  });

  it('gives each caller its own copy', () => {
    const first = loadApiDocuments(root);
    partOf(first).description = 'changed by a caller';
    expect(partOf(loadApiDocuments(root)).description).toBe('other');
    expect(loadApiDocuments(root)).not.toBe(loadApiDocuments(root));
  });
});
