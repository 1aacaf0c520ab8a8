// The package as a user installs it: `npm pack`, installed into a consumer outside the repository,
// then used there on every runtime the README lists, from CommonJS, by strict TypeScript projects,
// in a browser bundle built with esbuild's defaults, and through the openapi-fetch middleware.
// Every signed call goes to the sandbox, which verifies the signature. The same processes and page
// then use the stream client, with their runtime's WebSocket, against the stream mock.
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { launchChromium } from '../../docs/page-check.ts';
import { type StaticServer, serveStatic } from '../../docs/serve.ts';
import { redoclyBin } from '../../docs/site.ts';
import { streamChannels } from '../../generated/streams.ts';
import { type ApiDocument, dereference, loadApiDocuments, projectRoot } from '../../model/document.ts';
import { isRecord, type JsonRecord } from '../../model/json.ts';
import { credentialKey, loadFixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { documentsWithSamples } from '../../scripts/code-samples.ts';
import { buildAndPack, tarballVariable } from '../../scripts/package-tarball.ts';
import { cleanEnvironment, installRuntimes, type Runtime } from '../../scripts/runtimes.ts';
import { type OutgoingMessage, type StreamMock, startStreamMock } from '../../scripts/stream-mock.ts';
import { timeLimits } from '../../scripts/time-limits.ts';
import { createPrivateClient } from '../../src/index.ts';
import { type StreamsUsed, useStreams } from './consumer/streams.mjs';

const key = credentialKey(loadFixture());
let consumer: string;
let tarball: string;
let runtimes: Runtime[];
let sandbox: Sandbox;
let expectedBalance: unknown;
let streamMock: StreamMock;
/** The stream mock's line for each request it took, in order. */
const streamMockLog: string[] = [];
let expectedStreams: StreamsUsed;

const depthUpdate = streamChannels.depth.updates[0]?.message;

/**
 * The mock pushes the depth channel's examples in turn, a whole book and a change, which the
 * documents show apart: the change follows an update that is not the whole book's. Here each change
 * is made to follow the whole book pushed before it, so that a book is kept from the two (a broken
 * sequence is the order book's own tests', test/streams/order-book.test.ts).
 */
function depthInSequence() {
  let wholeBookId = 0;
  return (message: JsonRecord, about: OutgoingMessage): unknown => {
    if (about.kind !== 'update' || about.message !== depthUpdate) return message;
    const [fullReload, book, market] = message.params as [boolean, JsonRecord, string];
    if (fullReload) {
      wholeBookId = book.update_id as number;
      return message;
    }
    const follows = { ...book, past_update_id: wholeBookId, update_id: wholeBookId + 1 };
    return { ...message, params: [fullReload, follows, market] };
  };
}

/** What leaving a subscription and then the order book sends, as the mock logs it. */
const channelRequests = [
  'lastprice_subscribe',
  'lastprice_unsubscribe',
  'depth_subscribe',
  'depth_unsubscribe',
];

/** The channel requests (subscribe, unsubscribe) the mock took since its log had `from` lines. */
function channelRequestsSince(from: number): string[] {
  return streamMockLog
    .slice(from)
    .map((line) => line.split(' ')[0] as string)
    .filter((method) => method.includes('_'));
}

/** What a consumer's stream part must give on a runtime: the repository's own, with its WebSocket. */
const streamsWith = (webSocket: string) => ({ ...expectedStreams, webSockets: [webSocket] });

function consumerEnvironment() {
  return cleanEnvironment({ TXC_BASE_URL: sandbox.url, TXC_API_KEY: key.apiKey, TXC_API_SECRET: key.secret });
}

/** Runs a command in the consumer, asynchronously: the sandbox answers from this same process. */
function run(
  command: string[],
  extraEnvironment: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const [binary, ...args] = command as [string, ...string[]];
  return new Promise((resolve) => {
    execFile(
      binary,
      args,
      { cwd: consumer, env: { ...consumerEnvironment(), ...extraEnvironment }, timeout: timeLimits.runMs },
      (error, stdout, stderr) => {
        const status = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ status, stdout, stderr });
      },
    );
  });
}

function lastJsonLine(output: string): unknown {
  const lines = output.trim().split('\n');
  return JSON.parse(lines[lines.length - 1] as string);
}

beforeAll(async () => {
  consumer = mkdtempSync(join(tmpdir(), 'txc-consumer-'));
  // Within `npm test`, check:package has just built and packed it: install that very tarball.
  const packed = process.env[tarballVariable];
  if (packed && existsSync(packed)) {
    tarball = join(consumer, basename(packed));
    copyFileSync(packed, tarball);
  } else tarball = buildAndPack(projectRoot, consumer, cleanEnvironment());
  cpSync(join(projectRoot, 'test/package/consumer'), consumer, { recursive: true });
  const openapiFetch = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')).dependencies[
    'openapi-fetch'
  ];
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, `openapi-fetch@${openapiFetch}`],
    { cwd: consumer, stdio: 'pipe', env: cleanEnvironment() },
  );
  runtimes = installRuntimes();
  sandbox = await startSandbox({ port: 0 });
  // What the repository's own client gets: the installed package must get the same.
  const client = createPrivateClient({ apiKey: key.apiKey, apiSecret: key.secret, baseUrl: sandbox.url });
  expectedBalance = (await client.POST('/api/v4/main-account/balance')).data;
  await client.close();
  expect(expectedBalance).toBeTypeOf('object');
  // Pushed ten times the documents' pace: the depth change comes 10 ms after the whole book.
  streamMock = await startStreamMock({
    pace: 0.1,
    outgoing: depthInSequence(),
    log: (line) => streamMockLog.push(line),
  });
  expectedStreams = await useStreams(streamMock.url);
});

afterAll(async () => {
  await streamMock?.close();
  await sandbox?.close();
  if (consumer) rmSync(consumer, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('holds the built code, its declarations, the documents, README and LICENSE, and nothing else', () => {
    // Of model/, only the environment variables' names, which txc reads.
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
    const files = listing.map((entry) => entry.replace(/^package\//, ''));
    expect(files).toContain('dist/src/index.js');
    expect(files).toContain('dist/src/index.d.ts');
    expect(files).toContain('dist/generated/operations.js');
    expect(files).toContain('dist/model/environment.js');
    expect(files).toContain('dist/openapi/private-v4.yaml');
    expect(files).toContain('dist/openapi/public-v4.yaml');
    expect(files).toContain('LICENSE');
    const unexpected = files.filter(
      (file) =>
        !/^(dist\/(src\/.+|generated\/.+|model\/environment)\.(js|d\.ts|js\.map)|dist\/openapi\/(public|private)-v4\.yaml|README\.md|LICENSE|package\.json)$/.test(
          file,
        ),
    );
    expect(unexpected).toEqual([]);
  });
});

describe('the shipped OpenAPI documents', () => {
  const shipped = (api: ApiDocument) =>
    createRequire(join(consumer, 'package.json')).resolve(`txc-api-v4/openapi/${api.name}.yaml`);
  const references = (node: unknown): string[] =>
    Array.isArray(node)
      ? node.flatMap(references)
      : isRecord(node)
        ? Object.entries(node).flatMap(([key, value]) =>
            key === '$ref' && typeof value === 'string' ? [value] : references(value),
          )
        : [];
  /** The project's documents as the build bundles them: each operation given its derived sample. */
  const withSamples = documentsWithSamples(projectRoot);
  afterAll(() => withSamples.remove());
  const expectedOf = (api: ApiDocument) =>
    loadApiDocuments(withSamples.dir).find((candidate) => candidate.name === api.name)?.dereferenced;

  it.each(loadApiDocuments().map((api) => [api.name, api] as const))(
    '%s is one file, at its export, with no reference to another file, and says what the sources say',
    (_, api) => {
      const document: unknown = parse(readFileSync(shipped(api), 'utf8'));
      const external = references(document).filter((ref) => !ref.startsWith('#/'));
      expect(external).toEqual([]);
      expect(references(api.document).filter((ref) => !ref.startsWith('#/')).length).toBeGreaterThan(0);
      // Dereferenced without any file to read, it is the document the repository's parts make up.
      expect(dereference(document)).toEqual(expectedOf(api));
    },
  );

  it("each passes the repository's own lint rules, as it is shipped", async () => {
    const files = loadApiDocuments().map(shipped);
    const result = await run([redoclyBin, 'lint', ...files, '--config', join(projectRoot, 'redocly.yaml')], {
      REDOCLY_TELEMETRY: 'off',
      REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    });
    expect(result.status, result.stdout + result.stderr).toBe(0);
    for (const file of files)
      expect(result.stdout + result.stderr).toContain(`${relative(consumer, file)}: validated`);
  });
});

describe('the stream client from the sources, against the stream mock', () => {
  it('gives each request its answer, an update, the unsubscribes, and a book from a whole book and a change', () => {
    // What every runtime's installed package must give too: checked here on its own account.
    const { books, update } = expectedStreams;
    // The mock serves the streams at one path: another is refused (400), with no close frame.
    expect(expectedStreams.refused).toEqual({
      name: 'StreamConnectionError',
      cause: 'StreamConnectionError',
      code: 1006,
    });
    expect(expectedStreams).toMatchObject({ notInRoot: true, pong: 'pong', resnapshots: [] });
    expect(expectedStreams.time).toBeTypeOf('number');
    expect(update).toEqual(['BTC_USDT', expect.stringMatching(/^\d+(\.\d+)?$/)]);
    expect(expectedStreams.afterUnsubscribe).toBe('pong');
    expect(expectedStreams.afterBook).toBe(expectedStreams.time);
    const [whole, changed] = books;
    expect(whole?.bids.length).toBeGreaterThan(0);
    expect(changed?.updateId).toBe((whole?.updateId as number) + 1);
    expect(changed).not.toEqual({ ...whole, updateId: changed?.updateId });
    expect(channelRequestsSince(0)).toEqual(channelRequests);
  });
});

// One after another: every runtime signs with the same key, whose nonces must arrive in order.
describe('a signed call and the streams from the installed package', () => {
  it.each(['node 20', 'node 22', 'node 24', 'node 26', 'bun', 'deno'])('on %s', async (name) => {
    const runtime = runtimes.find((candidate) => candidate.name === name) as Runtime;
    const from = streamMockLog.length;
    const result = await run(runtime.run('call.mjs'), { TXC_STREAM_URL: streamMock.url });
    expect(result.stderr).not.toContain(key.secret);
    expect(result.status, result.stderr).toBe(0);
    expect(lastJsonLine(result.stdout)).toEqual({
      balance: expectedBalance,
      ping: ['pong'],
      refused: { kind: 'invalid-request', field: 'ticker' },
      // Node 20 has no WebSocket of its own: undici's; every other runtime its own.
      streams: streamsWith(name === 'node 20' ? 'undici' : 'global'),
    });
    // Leaving a subscription, and the order book, unsubscribed: the mock read both.
    expect(channelRequestsSince(from)).toEqual(channelRequests);
  });
});

// Neither of these calls the sandbox: each is a process of its own, and they run side by side.
describe.concurrent('CommonJS', () => {
  it.each(['node 20', 'node 22', 'node 24', 'node 26'])('require() loads the package on %s', async (name) => {
    const runtime = runtimes.find((candidate) => candidate.name === name) as Runtime;
    const result = await run(runtime.run('require.cjs'));
    expect(result.status, result.stderr).toBe(0);
    expect(lastJsonLine(result.stdout)).toMatchObject({
      createPrivateClient: 'function',
      createSigningMiddleware: 'function',
      invest: 1,
    });
  });
});

describe.concurrent('strict TypeScript consumers', () => {
  it.each(['nodenext', 'bundler'])('type-check with moduleResolution %s', async (mode) => {
    const result = await run([
      process.execPath,
      join(projectRoot, 'node_modules/typescript/bin/tsc'),
      '-p',
      `tsconfig.${mode}.json`,
    ]);
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

describe('the openapi-fetch middleware', () => {
  it("signs a plain openapi-fetch client's calls, which the sandbox accepts", async () => {
    const result = await run(runtimes[0]?.run('middleware.mjs') as string[]);
    expect(result.status, result.stderr).toBe(0);
    const output = lastJsonLine(result.stdout) as { balance: unknown; summaryStatus: number };
    expect(output.balance).toEqual(expectedBalance);
    expect(output.summaryStatus).toBe(200);
  });

  it('from txc-api-v4/middleware, a bundle holds signing and none of the client', async () => {
    const bundled = await build({
      absWorkingDir: consumer,
      entryPoints: ['middleware.mjs'],
      bundle: true,
      platform: 'node',
      format: 'esm',
      external: ['openapi-fetch'],
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const ours = Object.keys(bundled.metafile.inputs)
      .filter((input) => input.includes('txc-api-v4/dist/'))
      .map((input) => input.replace(/^.*txc-api-v4\/dist\//, ''));
    expect(ours).toContain('src/middleware.js');
    expect(ours).toContain('src/signing.js');
    const client = ['client', 'engine', 'attempts', 'hooks', 'request-checks', 'rate-window'].map(
      (name) => `src/${name}.js`,
    );
    for (const part of [...client, 'src/transport/undici.js', 'generated/routes.js']) {
      expect(ours).not.toContain(part);
    }
  });
});

describe('the txc command line, installed', () => {
  it('checks the balance through the bin npm linked', async () => {
    const result = await run([join(consumer, 'node_modules/.bin/txc'), 'balance', '--json']);
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(expectedBalance);
    expect(result.stdout + result.stderr).not.toContain(key.secret);
  });
});

describe('a browser page bundled with esbuild defaults', () => {
  let browser: Browser;
  let page: StaticServer;
  let corsSandbox: Sandbox;
  const pageHost = 'insecure.test';

  beforeAll(async () => {
    const bundled = await build({
      absWorkingDir: consumer,
      entryPoints: ['page.mjs'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      outfile: 'site/page.js',
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(bundled.metafile.inputs);
    expect(inputs.some((input) => input.includes('txc-api-v4/dist/src/transport/fetch.js'))).toBe(true);
    // The stream client's WebSocket is the browser's: `#websocket`'s default, never Node's choice.
    expect(inputs.some((input) => input.includes('txc-api-v4/dist/src/streams/websocket-global.js'))).toBe(
      true,
    );
    expect(inputs.filter((input) => /undici|^node:|websocket-node/.test(input))).toEqual([]);
    writeFileSync(
      join(consumer, 'site/index.html'),
      '<!doctype html><meta charset="utf-8"><script type="module" src="page.js"></script>',
    );
    page = await serveStatic(join(consumer, 'site'));
    const origin = `http://127.0.0.1:${page.port}`;
    corsSandbox = await startSandbox({ port: 0, corsOrigins: [origin] });
    // Chromium resolves the page's second name to the same local server; it is not a secure context.
    browser = await launchChromium([`--host-resolver-rules=MAP ${pageHost} 127.0.0.1`]);
  });

  afterAll(async () => {
    await browser?.close();
    await page?.close();
    await corsSandbox?.close();
  });

  /** Opens the page at `origin`; with `streamUrl`, it uses the stream client there too. */
  async function openPage(origin: string, streamUrl?: string) {
    const context = await browser.newContext();
    // Nothing leaves this machine.
    await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/]|insecure\.test[:/])/, (route) => route.abort());
    const tab = await context.newPage();
    const query = new URLSearchParams({ key: key.apiKey, secret: key.secret, baseUrl: corsSandbox.url });
    if (streamUrl) query.set('streamUrl', streamUrl);
    await tab.goto(`${origin}/index.html?${query}`);
    await tab.waitForSelector('body[data-done="true"]', { state: 'attached', timeout: timeLimits.runMs });
    const result = await tab.evaluate(() => (globalThis as { result?: unknown }).result);
    await context.close();
    return result;
  }

  it('makes a signed call through CORS with Web Crypto, verified by the sandbox, then uses the streams through the browser`s WebSocket', async () => {
    const from = streamMockLog.length;
    expect(await openPage(`http://127.0.0.1:${page.port}`, streamMock.url)).toEqual({
      data: expectedBalance,
      streams: streamsWith('global'),
    });
    expect(channelRequestsSince(from)).toEqual(channelRequests);
  });

  it('outside a secure context, creating a private client is a ConfigurationError that says why', async () => {
    const result = (await openPage(`http://${pageHost}:${page.port}`)) as Record<string, string>;
    expect(result.thrown).toBe('ConfigurationError');
    expect(result.field).toBe('apiSecret');
    expect(result.message).toMatch(/secure context/);
  });
});
