// The package as a user installs it: `npm pack`, installed into a consumer outside the repository,
// then used there on every runtime the README lists, from CommonJS, by strict TypeScript projects,
// in a browser bundle built with esbuild's defaults, and through the openapi-fetch middleware.
// Every signed call goes to the sandbox, which verifies the signature.
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../docs/page-check.ts';
import { type StaticServer, serveStatic } from '../../docs/serve.ts';
import { projectRoot } from '../../model/document.ts';
import { credentialKey, loadFixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { cleanEnvironment, installRuntimes, type Runtime } from '../../scripts/runtimes.ts';
import { createPrivateClient } from '../../src/index.ts';

const key = credentialKey(loadFixture());
let consumer: string;
let tarball: string;
let runtimes: Runtime[];
let sandbox: Sandbox;
let expectedBalance: unknown;

function consumerEnvironment() {
  return cleanEnvironment({ TXC_BASE_URL: sandbox.url, TXC_API_KEY: key.apiKey, TXC_API_SECRET: key.secret });
}

/** Runs a command in the consumer, asynchronously: the sandbox answers from this same process. */
function run(command: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const [binary, ...args] = command as [string, ...string[]];
  return new Promise((resolve) => {
    execFile(
      binary,
      args,
      { cwd: consumer, env: consumerEnvironment(), timeout: 60_000 },
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
  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', consumer], {
    cwd: projectRoot,
    encoding: 'utf8',
    env: cleanEnvironment(),
  });
  tarball = join(consumer, packed.trim().split('\n').pop() as string);
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
}, 240_000);

afterAll(async () => {
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
    expect(files).toContain('openapi/private-v4.yaml');
    expect(files).toContain('LICENSE');
    const unexpected = files.filter(
      (file) =>
        !/^(dist\/(src\/.+|generated\/.+|model\/environment)\.(js|d\.ts|js\.map)|openapi\/(public|private)-v4\.yaml|README\.md|LICENSE|package\.json)$/.test(
          file,
        ),
    );
    expect(unexpected).toEqual([]);
  });
});

describe('a signed call from the installed package', () => {
  it.each(['node 20', 'node 22', 'node 24', 'node 26', 'bun', 'deno'])('on %s', async (name) => {
    const runtime = runtimes.find((candidate) => candidate.name === name) as Runtime;
    const result = await run(runtime.run('call.mjs'));
    expect(result.stderr).not.toContain(key.secret);
    expect(result.status, result.stderr).toBe(0);
    expect(lastJsonLine(result.stdout)).toEqual({
      balance: expectedBalance,
      ping: ['pong'],
      refused: { kind: 'invalid-request', field: 'ticker' },
    });
  });
});

describe('CommonJS', () => {
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

describe('strict TypeScript consumers', () => {
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
    for (const part of ['src/client.js', 'src/engine.js', 'src/transport/undici.js', 'generated/routes.js']) {
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
    expect(inputs.filter((input) => /undici|^node:/.test(input))).toEqual([]);
    writeFileSync(
      join(consumer, 'site/index.html'),
      '<!doctype html><meta charset="utf-8"><script type="module" src="page.js"></script>',
    );
    page = await serveStatic(join(consumer, 'site'));
    const origin = `http://127.0.0.1:${page.port}`;
    corsSandbox = await startSandbox({ port: 0, corsOrigins: [origin] });
    // Chromium resolves the page's second name to the same local server; it is not a secure context.
    browser = await launchChromium([`--host-resolver-rules=MAP ${pageHost} 127.0.0.1`]);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await page?.close();
    await corsSandbox?.close();
  });

  async function openPage(origin: string) {
    const context = await browser.newContext();
    // Nothing leaves this machine.
    await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/]|insecure\.test[:/])/, (route) => route.abort());
    const tab = await context.newPage();
    const query = new URLSearchParams({ key: key.apiKey, secret: key.secret, baseUrl: corsSandbox.url });
    await tab.goto(`${origin}/index.html?${query}`);
    await tab.waitForSelector('body[data-done="true"]', { state: 'attached', timeout: 20_000 });
    const result = await tab.evaluate(() => (globalThis as { result?: unknown }).result);
    await context.close();
    return result;
  }

  it('makes a signed call through CORS with Web Crypto, verified by the sandbox', async () => {
    expect(await openPage(`http://127.0.0.1:${page.port}`)).toEqual({ data: expectedBalance });
  });

  it('outside a secure context, creating a private client is a ConfigurationError that says why', async () => {
    const result = (await openPage(`http://${pageHost}:${page.port}`)) as Record<string, string>;
    expect(result.thrown).toBe('ConfigurationError');
    expect(result.field).toBe('apiSecret');
    expect(result.message).toMatch(/secure context/);
  });
});
