// The watch loop of `npm start` on a temporary copy of the project's documents, each cut to a few
// operations: a save shows in
// the open docs page (which is told to reload), in generated/, in a mock's answer and in the
// sandbox's; a save that breaks lint changes nothing served and says where the problem is; a
// sample's save rebuilds the docs only; a stream document's save rebuilds the stream pages and
// generated/, and one that breaks the AsyncAPI parser's lint changes nothing served; a guide's
// save rebuilds the guides' pages and nothing else.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamPageName } from '../../docs/layout.ts';
import { type DevServer, startDevServer } from '../../docs/watch.ts';
import { streamChannels } from '../../generated/streams.ts';
import { type ApiDocument, loadApiDocuments, pathItemFile, projectRoot } from '../../model/document.ts';
import { at, recordAt, stringAt } from '../../model/json.ts';
import { pickFreePorts } from '../../scripts/port-in-use.ts';
import { keepFewOperations } from '../few-operations.ts';

const copy = mkdtempSync(join(tmpdir(), 'watch-'));
for (const part of ['redocly.yaml', 'openapi', 'asyncapi', 'generated', 'docs/guides']) {
  cpSync(join(projectRoot, part), join(copy, part), { recursive: true });
}
const wholePublic =
  loadApiDocuments(copy).find((api) => api.name === 'public-v4') ??
  (loadApiDocuments(copy)[0] as ApiDocument);

/**
 * The first GET operation of the document with a named example of its 200 answer, that example's
 * first string, and the file the operation is written in (its own, under openapi/paths/).
 */
function answeredOperation(api: ApiDocument): {
  path: string;
  operationId: string;
  word: string;
  file: string;
} {
  for (const [path, item] of Object.entries(recordAt(api.dereferenced, 'paths'))) {
    const media = Object.values(recordAt(item, 'get', 'responses', '200', 'content'))[0];
    const example = Object.values(recordAt(media, 'examples'))[0];
    const word = JSON.stringify(at(example, 'value') ?? null).match(/"([A-Za-z]+)"/)?.[1];
    const operationId = stringAt(item, 'get', 'operationId');
    if (word && operationId) return { path, operationId, word, file: pathItemFile(api, path) };
  }
  throw new Error(`${api.file} has no GET operation with a string in a 200 example`);
}

const answered = answeredOperation(wholePublic);
// Each document keeps a few operations (the stream token's and the one the tests edit among
// them): what the loop does with a document does not depend on how many operations it has, and
// each rebuild of a whole document (its page, its mock, the sandbox reading it) was most of this
// file's time.
keepFewOperations(copy, { operationIds: [answered.operationId] });
const apis = loadApiDocuments(copy);
const publicApi = apis.find((api) => api.name === wholePublic.name) as ApiDocument;
const documentFile = join(copy, publicApi.file);
const typesFile = join(copy, 'generated', `${publicApi.name}.ts`);

const logLines: string[] = [];
/** What the test reports (the budgets' figures), beside vitest's own output. */
const log = (line: string) => process.stdout.write(`${line}\n`);
let dev: DevServer;
let reloads = 0;
const events = new AbortController();

async function listenForReloads(url: string): Promise<void> {
  const response = await fetch(new URL('/__live-reload', url), { signal: events.signal });
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  void (async () => {
    try {
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) return;
        reloads += decoder.decode(chunk.value).split('data: reload').length - 1;
      }
    } catch {
      // aborted at the end of the test
    }
  })();
}

const get = async (url: string): Promise<string> => {
  const response = await fetch(url);
  return response.text();
};

beforeAll(async () => {
  const [sandboxPort = 0, ...ports] = await pickFreePorts(apis.length + 1);
  const mockPorts = Object.fromEntries(apis.map((api, index) => [api.name, ports[index] as number]));
  dev = await startDevServer({
    root: copy,
    docsPort: 0,
    mockPorts,
    sandboxPort,
    debounceMs: 100,
    log: (line) => logLines.push(line),
    // Every line of the children, so that each start of the sandbox shows ("Sandbox listening").
    verbose: true,
  });
  const first = await dev.nextBuild();
  expect(first).toMatchObject({ ok: true, problems: [] });
  await listenForReloads(dev.docsUrl);
});

afterAll(async () => {
  events.abort();
  await dev?.close();
  rmSync(copy, { recursive: true, force: true });
});

describe('the watch loop of npm start', () => {
  const { path, word, file } = answered;
  const operationFile = join(copy, file);
  const edited = `${word}edited`;
  const page = () => get(new URL(`${publicApi.name}.html`, dev.docsUrl).href);
  const mockAnswer = () => get(`${dev.mockUrls[publicApi.name]}${path}`);
  const cliHelpPage = () => get(new URL('cli.html', dev.docsUrl).href);
  // A stream channel, its file, its document's page and the channel facts generated/ holds.
  const streamChannel = Object.values(
    streamChannels,
  )[0] as (typeof streamChannels)[keyof typeof streamChannels];
  const channelFile = join(copy, streamChannel.file);
  const streamFactsFile = join(copy, 'generated/streams.ts');
  const streamPage = () => get(new URL(`${streamPageName(streamChannel.document)}.html`, dev.docsUrl).href);
  // The sandbox answers a public GET with the operation's first named 2xx example.
  const sandboxAnswer = () => get(`${dev.sandboxUrl}${path}`);

  it('serves pages that reload themselves, a mock per document and the sandbox', async () => {
    expect(await page()).toContain("new EventSource('/__live-reload')");
    expect(await cliHelpPage()).toContain('<h1>The <code>txc</code> command line</h1>');
    expect(await mockAnswer()).toContain(`"${word}"`);
    expect(await sandboxAnswer()).toContain(`"${word}"`);
  });

  it('follows a saved operation file into the docs, generated/, the mock and the sandbox', async () => {
    const before = {
      reloads,
      sandboxStarts: logLines.filter((line) => /Sandbox listening/.test(line)).length,
    };
    writeFileSync(
      operationFile,
      readFileSync(operationFile, 'utf8').replace(new RegExp(`\\b${word}\\b`, 'g'), edited),
    );
    const outcome = await dev.nextBuild();
    expect(outcome).toMatchObject({ ok: true });
    expect(await page()).toContain(edited);
    expect(reloads).toBeGreaterThan(before.reloads);
    expect(readFileSync(typesFile, 'utf8')).toContain(`"${edited}"`);
    expect(await mockAnswer()).toContain(`"${edited}"`);
    expect(logLines.filter((line) => /Sandbox listening/.test(line)).length).toBe(before.sandboxStarts + 1);
    expect(await sandboxAnswer()).toContain(`"${edited}"`);
    for (const step of ['codegen', `page ${publicApi.name}`, `mock ${publicApi.name}`, 'sandbox'])
      expect(outcome.done).toHaveProperty([step]);
    log(
      `schema edit: generated/ after ${outcome.done.codegen} ms, docs page after ${outcome.done[`page ${publicApi.name}`]} ms, mock after ${outcome.done[`mock ${publicApi.name}`]} ms, all after ${outcome.ms} ms`,
    );
  });

  it('keeps the last good docs and mocks when a save breaks lint, and names the file and line', async () => {
    const good = readFileSync(operationFile, 'utf8');
    const generated = readFileSync(typesFile, 'utf8');
    const goodChannel = readFileSync(channelFile, 'utf8');
    const streamsGenerated = readFileSync(streamFactsFile, 'utf8');
    // Every operation must say whether it is retry-safe (redocly.yaml): misspell the key. In the
    // same save, a stream channel breaks the AsyncAPI parser's lint: an address must be a string.
    writeFileSync(
      operationFile,
      good.replace('x-retry-safe:', 'x-retry-safe-typo:').replaceAll(edited, 'broken'),
    );
    writeFileSync(
      channelFile,
      goodChannel.replace(/^address: .*$/m, 'address: 42').replace(streamChannel.summary, 'Broken summary.'),
    );
    const outcome = await dev.nextBuild();
    expect(outcome.ok).toBe(false);
    expect(outcome.problems).toEqual([
      expect.stringMatching(new RegExp(`^${file}:\\d+:\\d+ error .*x-retry-safe`)),
      expect.stringMatching(new RegExp(`^${streamChannel.file}:\\d+:\\d+ .*address`)),
    ]);
    for (const problem of outcome.problems) expect(logLines).toContain(problem);
    expect(logLines.at(-1)).toMatch(/lint failed: the last good docs and mocks keep serving/);
    expect(await page()).toContain(edited);
    expect(await mockAnswer()).toContain(`"${edited}"`);
    expect(readFileSync(typesFile, 'utf8')).toBe(generated);
    expect(await streamPage()).toContain(streamChannel.summary);
    expect(await streamPage()).not.toContain('Broken summary.');
    expect(readFileSync(streamFactsFile, 'utf8')).toBe(streamsGenerated);

    // Saved again, still broken: the same problems are not printed a second time.
    writeFileSync(operationFile, `${readFileSync(operationFile, 'utf8')}\n`);
    expect(await dev.nextBuild()).toMatchObject({ ok: false, problems: outcome.problems });
    for (const problem of outcome.problems)
      expect(logLines.filter((line) => line === problem)).toHaveLength(1);
    expect(logLines.at(-2)).toBe('still 2 problem(s), as above');

    writeFileSync(operationFile, good);
    writeFileSync(channelFile, goodChannel);
    expect(await dev.nextBuild()).toMatchObject({ ok: true });
    expect(logLines).toContain('the documents are clean again');
  });

  it('a description edit rebuilds its own page, types and mock, nothing of the other document', async () => {
    const good = readFileSync(documentFile, 'utf8');
    const described = good.replace(/^(\s+description: )([A-Z][^'"|>\n]*)$/m, '$1$2 Watch-test description.');
    expect(described).not.toBe(good);
    const before = reloads;
    writeFileSync(documentFile, described);
    const outcome = await dev.nextBuild();
    expect(outcome).toMatchObject({ ok: true });
    expect(await page()).toContain('Watch-test description.');
    expect(reloads).toBeGreaterThan(before);
    const otherApis = apis.filter((api) => api !== publicApi).map((api) => api.name);
    expect(Object.keys(outcome.done).sort()).toEqual(
      ['codegen', 'lint', `mock ${publicApi.name}`, `page ${publicApi.name}`, 'sandbox'].sort(),
    );
    expect(outcome.skipped.sort()).toEqual(
      [
        ...otherApis.flatMap((name) => [`page ${name}`, `mock ${name}`]),
        'page cli',
        // The guides read no document.
        'page guides',
        // The stream documents share the HTTP API's schemas, not its root documents.
        'lint streams',
        'page streams',
      ].sort(),
    );
    // The times the budgets are about (measured, not asserted): to the page, to everything.
    log(
      `description edit: docs page served after ${outcome.done[`page ${publicApi.name}`]} ms, all after ${outcome.ms} ms`,
    );
  });

  it('a stream document save rebuilds the stream pages and generated/, nothing of the HTTP side', async () => {
    const good = readFileSync(channelFile, 'utf8');
    const summarized = good.replace(
      `summary: ${streamChannel.summary}`,
      `summary: ${streamChannel.summary} Watch-test summary.`,
    );
    expect(summarized).not.toBe(good);
    const before = reloads;
    writeFileSync(channelFile, summarized);
    const outcome = await dev.nextBuild();
    expect(outcome).toMatchObject({ ok: true });
    expect(await streamPage()).toContain('Watch-test summary.');
    expect(reloads).toBeGreaterThan(before);
    expect(readFileSync(streamFactsFile, 'utf8')).toContain('Watch-test summary.');
    // The sandbox reads generated/, which changed. Left so: the documents are clean.
    expect(Object.keys(outcome.done).sort()).toEqual(
      ['codegen', 'lint streams', 'page streams', 'sandbox'].sort(),
    );
    expect(outcome.skipped).toEqual(
      expect.arrayContaining(['lint', ...apis.map((api) => `page ${api.name}`)]),
    );
    log(
      `stream document edit: stream pages served after ${outcome.done['page streams']} ms, all after ${outcome.ms} ms`,
    );
  });

  it("a guide's save rebuilds the guides' pages, nothing else", async () => {
    const guideFile = join(copy, 'docs', 'guides', 'hooks.md');
    const good = readFileSync(guideFile, 'utf8');
    const before = reloads;
    writeFileSync(guideFile, `${good}\nWatch-test paragraph.\n`);
    const outcome = await dev.nextBuild();
    expect(outcome).toMatchObject({ ok: true });
    expect(await get(new URL('guide-hooks.html', dev.docsUrl).href)).toContain(
      '<p>Watch-test paragraph.</p>',
    );
    expect(reloads).toBeGreaterThan(before);
    expect(Object.keys(outcome.done)).toEqual(['page guides']);
    // The txc page is carried over from the served site, not asked of txc again.
    expect(await cliHelpPage()).toContain('<h1>The <code>txc</code> command line</h1>');
    log(`guide edit: guide pages served after ${outcome.done['page guides']} ms`);
  });

  it('a save that changes nothing, or a file no document reads, skips every step', async () => {
    writeFileSync(documentFile, readFileSync(documentFile, 'utf8'));
    const same = await dev.nextBuild();
    expect(same).toMatchObject({ ok: true, done: {} });
    expect(same.skipped).toContain('codegen');
    expect(same.skipped).toContain('lint');
    // Watched at any depth: a split document keeps its parts in directories under openapi/.
    mkdirSync(join(copy, 'openapi', 'components', 'schemas'), { recursive: true });
    writeFileSync(join(copy, 'openapi', 'components', 'schemas', 'Unused.yaml'), 'type: string\n');
    const nested = await dev.nextBuild();
    expect(nested).toMatchObject({ ok: true, done: {} });
    expect(nested.skipped.sort()).toEqual(same.skipped.sort());
  });
});
