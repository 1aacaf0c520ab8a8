// `npm run sandbox` (sandbox/main.ts) as a user runs it: on a free port, printing its URL and
// the default fixture's credentials in .env form.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../model/document.ts';
import { environmentVariables, streamVariables } from '../../model/environment.ts';
import { runScript } from '../../scripts/run-node.ts';
import { call, defaultFixture } from './helpers.ts';
import { TestStream } from './stream-client.ts';

const children: ChildProcess[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
  rmSync(scratch, { recursive: true, force: true });
});

/** Starts main.ts and resolves with its output once it has printed `until`. */
function start(env: Record<string, string>, until: RegExp) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'sandbox/main.ts')], {
    cwd: projectRoot,
    env: { ...process.env, SANDBOX_QUIET: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  return new Promise<{ child: ChildProcess; output: () => string }>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      if (until.test(output)) resolve({ child, output: () => output });
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${output}`)));
  });
}

const line = (output: string, name: string) => new RegExp(`^${name}=(.+)$`, 'm').exec(output)?.[1];

/** The fixture's key for SANDBOX_FIXTURE: the default fixture's first, with a secret of its own. */
const fixtureKey = () => {
  const fixture = defaultFixture();
  const key = fixture.keys[0];
  if (!key) throw new Error('no key');
  key.secret = 'a-secret-that-must-not-be-printed';
  return { fixture, key };
};

/**
 * One process for the two settings read at start-up, SANDBOX_FIXTURE and SANDBOX_FAULTS (a start
 * is about two CPU-seconds): the faults touch only pingApi, which the fixture's test does not
 * call, and the fixture differs from the default one only in a secret, which the faults' test
 * does not use.
 */
let configured: ReturnType<typeof start> | undefined;
function fixtureAndFaultsSandbox() {
  if (!configured) {
    const path = join(scratch, 'fixture.json');
    writeFileSync(path, JSON.stringify(fixtureKey().fixture));
    const faults = JSON.stringify({ status5xx: 1, operations: ['pingApi'] });
    configured = start(
      { SANDBOX_PORT: '0', SANDBOX_FIXTURE: path, SANDBOX_FAULTS: faults },
      /stops the sandbox\.\n/,
    );
  }
  return configured;
}

describe('npm run sandbox', () => {
  it('prints its URL, credentials that work, its plans and markets, and stops on SIGTERM', async () => {
    const { child, output } = await start({ SANDBOX_PORT: '0' }, /stops the sandbox\.\n/);
    // Every start-up line a comment or KEY=VALUE: the output is a .env file.
    const lines = output().trimEnd().split('\n');
    expect(lines.filter((text) => !/^(#.*|[A-Z_][A-Z0-9_]*=.*)$/.test(text))).toEqual([]);
    for (const plan of defaultFixture().plans) expect(output()).toContain(plan.id);
    for (const market of defaultFixture().markets) expect(output()).toContain(market.name);
    const url = /Sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output())?.[1];
    expect(url).toBeDefined();
    expect(line(output(), environmentVariables.baseUrl)).toBe(url);
    const apiKey = line(output(), environmentVariables.apiKey);
    const secret = line(output(), environmentVariables.apiSecret);
    expect(defaultFixture().keys.some((key) => key.apiKey === apiKey && key.secret === secret)).toBe(true);
    const reply = await call(
      url as string,
      { apiKey: apiKey as string, secret: secret as string },
      'getMainBalance',
    );
    expect(reply.status).toBe(200);
    // The streams, on the same origin: the line names their URL, and a ping there is answered.
    const streamUrl = /^# Streams \(WebSocket, same origin\): (ws:\/\/\S+?);/m.exec(output())?.[1];
    expect(streamUrl).toBe(`${(url as string).replace(/^http/, 'ws')}/ws`);
    expect(line(output(), streamVariables.url)).toBe(streamUrl);
    const stream = await TestStream.open(streamUrl as string);
    expect((await stream.request('ping', [])).result).toBe('pong');
    await stream.close();
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('with SANDBOX_FIXTURE it serves that fixture and prints no secret', async () => {
    const { key } = fixtureKey();
    const { output } = await fixtureAndFaultsSandbox();
    expect(output()).toMatch(/^# Fixture .*fixture\.json: use the secrets it holds \(not printed\)\.$/m);
    expect(output()).not.toContain(key.secret);
    expect(line(output(), environmentVariables.apiSecret)).toBeUndefined();
    const url = /Sandbox listening on (http:\/\/\S+)/.exec(output())?.[1] as string;
    expect((await call(url, key, 'getMainBalance')).status).toBe(200);
  });

  it('SANDBOX_FAULTS applies at start-up', async () => {
    const { output } = await fixtureAndFaultsSandbox();
    const url = /Sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output())?.[1] as string;
    expect((await fetch(`${url}/api/v4/public/ping`)).status).toBe(503);
    expect((await fetch(`${url}/api/v4/public/ping`)).status).toBe(200);
  });

  it('refuses an invalid fixture with the reasons', async () => {
    const fixture = defaultFixture();
    const [plan] = fixture.plans;
    if (!plan) throw new Error('no plan');
    plan.minAmount = '1e3';
    const path = join(scratch, 'bad.json');
    writeFileSync(path, JSON.stringify(fixture));
    await expect(start({ SANDBOX_PORT: '0', SANDBOX_FIXTURE: path }, /listening/)).rejects.toThrow(
      /minAmount/,
    );
  });

  it('a port in use is one line naming it and SANDBOX_PORT, exit code 1', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const { code, stdout, stderr } = await runScript([join(projectRoot, 'sandbox/main.ts')], {
        env: { ...process.env, SANDBOX_QUIET: '1', SANDBOX_PORT: String(port) },
      });
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n')).toEqual([
        `sandbox: port ${port} on 127.0.0.1 is in use; set SANDBOX_PORT to another port (0 picks a free one)`,
      ]);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
