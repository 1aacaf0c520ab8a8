// The watch loop of `npm start` on a temporary copy of the project's documents: a save shows in
// the open docs page (which is told to reload), in generated/ and in a mock's answer; a save that
// breaks lint changes nothing served and says where the problem is; a sample's save rebuilds the
// docs only.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type DevServer, startDevServer } from '../../docs/watch.ts';
import { dereference, loadApiDocuments, projectRoot } from '../../model/document.ts';
import { at, recordAt, stringAt } from '../../model/json.ts';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

const copy = mkdtempSync(join(tmpdir(), 'watch-'));
for (const part of ['redocly.yaml', 'openapi', 'generated', 'docs/samples', 'docs/getting-started.ts']) {
  cpSync(join(projectRoot, part), join(copy, part), { recursive: true });
}
const apis = loadApiDocuments(copy);
const publicApi = apis.find((api) => api.name === 'public-v4') ?? (apis[0] as (typeof apis)[number]);
const documentFile = join(copy, publicApi.file);
const typesFile = join(copy, 'generated', `${publicApi.name}.ts`);

/** The first GET operation of the document with a named example of its 200 answer, and that example's first string. */
function answeredOperation(): { path: string; operationId: string; word: string } {
  const document = dereference(parse(readFileSync(documentFile, 'utf8')));
  for (const [path, item] of Object.entries(recordAt(document, 'paths'))) {
    const media = Object.values(recordAt(item, 'get', 'responses', '200', 'content'))[0];
    const example = Object.values(recordAt(media, 'examples'))[0];
    const word = JSON.stringify(at(example, 'value') ?? null).match(/"([A-Za-z]+)"/)?.[1];
    const operationId = stringAt(item, 'get', 'operationId');
    if (word && operationId) return { path, operationId, word };
  }
  throw new Error(`${publicApi.file} has no GET operation with a string in a 200 example`);
}

const logLines: string[] = [];
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
  // All at once, so that the kernel hands out distinct ports.
  const [sandboxPort = 0, ...ports] = await Promise.all([freePort(), ...apis.map(() => freePort())]);
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
}, 120_000);

afterAll(async () => {
  events.abort();
  await dev?.close();
  rmSync(copy, { recursive: true, force: true });
}, 30_000);

describe('the watch loop of npm start', () => {
  const { path, operationId, word } = answeredOperation();
  const edited = `${word}edited`;
  const page = () => get(new URL(`${publicApi.name}.html`, dev.docsUrl).href);
  const mockAnswer = () => get(`${dev.mockUrls[publicApi.name]}${path}`);

  it('serves pages that reload themselves, a mock per document and the sandbox', async () => {
    expect(await page()).toContain("new EventSource('/__live-reload')");
    expect(await mockAnswer()).toContain(`"${word}"`);
    expect(await get(dev.sandboxUrl as string)).toBeTypeOf('string');
  });

  it('follows a saved document into the docs, generated/ and the mock', async () => {
    const before = {
      reloads,
      sandboxStarts: logLines.filter((line) => /Sandbox listening/.test(line)).length,
    };
    writeFileSync(
      documentFile,
      readFileSync(documentFile, 'utf8').replace(new RegExp(`\\b${word}\\b`, 'g'), edited),
    );
    const outcome = await dev.nextBuild();
    expect(outcome).toMatchObject({ ok: true });
    expect(await page()).toContain(edited);
    expect(reloads).toBeGreaterThan(before.reloads);
    expect(readFileSync(typesFile, 'utf8')).toContain(`"${edited}"`);
    expect(await mockAnswer()).toContain(`"${edited}"`);
    expect(logLines.filter((line) => /Sandbox listening/.test(line)).length).toBe(before.sandboxStarts + 1);
  }, 120_000);

  it('keeps the last good docs and mocks when a save breaks lint, and names the file and line', async () => {
    const good = readFileSync(documentFile, 'utf8');
    const generated = readFileSync(typesFile, 'utf8');
    // Every operation must say whether it is retry-safe (redocly.yaml): misspell the key.
    writeFileSync(
      documentFile,
      good.replace('x-retry-safe:', 'x-retry-safe-typo:').replaceAll(edited, 'broken'),
    );
    const outcome = await dev.nextBuild();
    expect(outcome.ok).toBe(false);
    expect(outcome.problems).toEqual([
      expect.stringMatching(new RegExp(`^${publicApi.file}:\\d+:\\d+ error .*x-retry-safe`)),
    ]);
    expect(logLines).toContain(outcome.problems[0]);
    expect(logLines.at(-1)).toMatch(/lint failed: the last good docs and mocks keep serving/);
    expect(await page()).toContain(edited);
    expect(await mockAnswer()).toContain(`"${edited}"`);
    expect(readFileSync(typesFile, 'utf8')).toBe(generated);

    // Saved again, still broken: the same problem is not printed a second time.
    writeFileSync(documentFile, `${readFileSync(documentFile, 'utf8')}\n`);
    expect(await dev.nextBuild()).toMatchObject({ ok: false, problems: outcome.problems });
    expect(logLines.filter((line) => line === outcome.problems[0])).toHaveLength(1);
    expect(logLines.at(-2)).toBe('still 1 problem(s), as above');

    writeFileSync(documentFile, good);
    expect(await dev.nextBuild()).toMatchObject({ ok: true });
    expect(logLines).toContain('the documents are clean again');
  }, 120_000);

  it('rebuilds only the docs when a code sample is saved', async () => {
    const sample = join(copy, 'docs/samples', `${operationId}.ts`);
    const sandboxStarts = logLines.filter((line) => /Sandbox listening/.test(line)).length;
    writeFileSync(sample, `${readFileSync(sample, 'utf8')}// watch-test marker\n`);
    expect(await dev.nextBuild()).toMatchObject({ ok: true });
    expect(await page()).toContain('watch-test marker');
    expect(logLines.filter((line) => /^up to date in/.test(line)).at(-1)).toMatch(
      /^up to date in [0-9.]+ s: docs$/,
    );
    expect(logLines.filter((line) => /Sandbox listening/.test(line)).length).toBe(sandboxStarts);
  }, 120_000);
});
