// A lint `npm run lint` found clean (scripts/redocly-cli.ts, scripts/stream-lint-cli.ts remember it
// under the keys of scripts/clean-lints.ts) is one `npm start`'s build (docs/dev-build.ts) takes
// without linting again: both read the same keys. Shown on a copy whose documents are broken:
// once its files are marked clean, the build's lints pass without running; an edit makes another
// key, which is linted.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { lint, lintStreams } from '../../docs/dev-build.ts';
import { projectRoot } from '../../model/document.ts';
import { type StreamDocumentName, streamDocumentFiles } from '../../model/streams.ts';
import { apiLintKey, lintedClean, rememberClean, streamLintKey } from '../../scripts/clean-lints.ts';

const copy = mkdtempSync(join(tmpdir(), 'clean-lints-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));
for (const part of ['redocly.yaml', 'openapi', 'asyncapi'])
  cpSync(join(projectRoot, part), join(copy, part), { recursive: true });
// The public document alone: a key reads every file a document references, and the private one's
// many files would only make the same point slower.
const config = parseDocument(readFileSync(join(copy, 'redocly.yaml'), 'utf8'));
for (const name of Object.keys(config.toJS().apis)) if (name !== 'public-v4') config.deleteIn(['apis', name]);
writeFileSync(join(copy, 'redocly.yaml'), config.toString());
// A top-level field neither specification has, which both lints refuse; with a marker no document
// holds, so that these keys are this copy's alone.
const breakFile = (file: string) =>
  writeFileSync(join(copy, file), `${readFileSync(join(copy, file), 'utf8')}\nnot-a-field: ${copy}\n`);

describe("npm run lint's clean lints, taken by npm start's build", () => {
  it('the OpenAPI lint', async () => {
    breakFile('openapi/public-v4.yaml');
    const key = apiLintKey(copy);
    expect(lintedClean('lint-clean', key)).toBe(false);
    await rememberClean('lint-clean', key);
    expect(await lint(copy)).toEqual({ ok: true, problems: [] });
  });

  it('the stream lint, each document by its own key', async () => {
    const names = Object.keys(streamDocumentFiles) as StreamDocumentName[];
    breakFile(streamDocumentFiles[names[0] as StreamDocumentName]);
    for (const name of names) await rememberClean('stream-lint-clean', streamLintKey(copy, name));
    expect(await lintStreams(copy)).toEqual({ ok: true, problems: [] });
    // Another edit: another key, linted, and the break is found.
    breakFile(streamDocumentFiles[names[1] as StreamDocumentName]);
    expect(lintedClean('stream-lint-clean', streamLintKey(copy, names[1] as StreamDocumentName))).toBe(false);
  });
});
