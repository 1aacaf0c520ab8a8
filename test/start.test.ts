// `npm start` as a reader runs it: one line per service and no request log (unless --verbose),
// and a port in use is one line naming it and its variable, for every server it starts. Each
// server is a child started to end with it (test/exit-with-parent.test.ts proves such a child
// does), and the whole `npm start`, run through npm as a reader runs it, ends when npm is killed
// with SIGKILL: one run serves both (a run builds the docs and starts every server: the costliest
// process of the suite, not to be started twice).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { sandboxEnvText, writeSandboxEnv } from '../docs/sandbox-env.ts';
import { serveStatic } from '../docs/serve.ts';
import { operations } from '../generated/operations.ts';
import { projectRoot } from '../model/document.ts';
import { environmentVariables } from '../model/environment.ts';
import { credentialKey, loadFixture } from '../sandbox/fixture.ts';
import { parseEnvText } from '../sandbox/process.ts';
import { startDevProcess } from '../scripts/dev-process.ts';
import { PortInUseError, pickFreePorts, portIsFree } from '../scripts/port-in-use.ts';
import { timeLimits } from '../scripts/time-limits.ts';
import { createPrivateClient } from '../src/index.ts';
import { mainBalancePath, pingPath } from './client/paths.ts';
import {
  commandLine,
  descendantsOf,
  endsWithParent,
  isAlive,
  processGroup,
  serversBelow,
} from './process-tree.ts';

const scratch = mkdtempSync(join(tmpdir(), 'txc-start-'));
const holders: Server[] = [];
const children: ChildProcess[] = [];
/**
 * Every process seen below an npm the tests started, with its command line: to end should a test
 * fail before they did, each only while its pid is still that process (a pid is reused once gone).
 */
const remembered = new Map<number, string | undefined>();
afterAll(async () => {
  for (const child of children) {
    if (child.spawnargs[0] === 'npm' && child.pid) {
      // What npm ran (its group) goes too, should the test have failed before it ended.
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
      continue;
    }
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    }
  }
  for (const [pid, command] of remembered) {
    if (command === undefined || commandLine(pid) !== command) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  await Promise.all(holders.map((holder) => new Promise((resolve) => holder.close(resolve))));
  rmSync(scratch, { recursive: true, force: true });
});

/** A port some other server holds, as when `npm start` already runs. */
async function heldPort(): Promise<number> {
  const holder = createServer();
  holders.push(holder);
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  return (holder.address() as { port: number }).port;
}

const byNumber = (a: number, b: number) => a - b;

/** Distinct free ports, from outside the range the kernel hands to connections. */
const freePorts = pickFreePorts;

/**
 * Starts `npm start` on the environment: its program itself (`through: 'node'`), or through npm
 * as a reader's shell does (npm leading a process group of its own).
 */
function start(env: NodeJS.ProcessEnv, args: string[] = [], through: 'node' | 'npm' = 'node') {
  const [command, commandArgs] =
    through === 'npm'
      ? ['npm', ['run', '--silent', 'start', ...(args.length > 0 ? ['--', ...args] : [])]]
      : [process.execPath, ['--import', 'tsx', join(projectRoot, 'docs/start.ts'), ...args]];
  const child = spawn(command, commandArgs, {
    cwd: projectRoot,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: through === 'npm',
  });
  children.push(child);
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => {
    output.stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output.stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  // Both ends close once every process that holds them is gone: npm, and all that inherited them.
  const closed = (stream: NodeJS.ReadableStream) => new Promise((resolve) => stream.once('close', resolve));
  const outputClosed = Promise.all([closed(child.stdout), closed(child.stderr)]);
  return { child, output, exited, outputClosed };
}

/** Waits (within the limit for a server to start or stop) until `done` holds. */
async function expectSoon(done: () => boolean | Promise<boolean>): Promise<void> {
  await expect.poll(done, { timeout: timeLimits.serverStartMs, interval: 100 }).toBe(true);
}

describe('port clashes', () => {
  it('the docs server names its port and variable', async () => {
    const port = await heldPort();
    const error = await serveStatic(scratch, port, { portVariable: 'DOCS_PORT' }).catch((caught) => caught);
    expect(error).toBeInstanceOf(PortInUseError);
    expect(error.message).toBe(
      `docs: port ${port} on 127.0.0.1 is in use; set DOCS_PORT to another port (0 picks a free one)`,
    );
  });

  it('a mock or the sandbox is not started on a port in use (another server would answer for it)', async () => {
    const port = await heldPort();
    const error = await startDevProcess({
      name: 'mock public-v4',
      args: [join(scratch, 'never-started.mjs')],
      cwd: scratch,
      env: {},
      readyUrl: `http://127.0.0.1:${port}`,
      log: () => {},
      port: { number: port, variable: 'PUBLIC_MOCK_PORT' },
    }).catch((caught) => caught);
    expect(error).toBeInstanceOf(PortInUseError);
    expect(error.message).toBe(
      `mock public-v4: port ${port} on 127.0.0.1 is in use; set PUBLIC_MOCK_PORT to another port (0 picks a free one)`,
    );
  });

  // A process of its own (tsx loads every script): the slow project's limit, sized for a loaded
  // machine (scripts/time-limits.ts), applies.
  it('npm start stops before building, one line per port in use, exit code 1', async () => {
    const [docs, sandbox] = [await heldPort(), await heldPort()];
    const [publicMock, privateMock, streamMock] = await freePorts(3);
    const { output, exited } = start({
      DOCS_PORT: String(docs),
      PUBLIC_MOCK_PORT: String(publicMock),
      PRIVATE_MOCK_PORT: String(privateMock),
      STREAM_MOCK_PORT: String(streamMock),
      SANDBOX_PORT: String(sandbox),
    });
    expect(await exited).toBe(1);
    expect(output.stdout).toBe('');
    expect(output.stderr.trim().split('\n')).toEqual([
      `docs: port ${docs} on 127.0.0.1 is in use; set DOCS_PORT to another port (0 picks a free one)`,
      `sandbox: port ${sandbox} on 127.0.0.1 is in use; set SANDBOX_PORT to another port (0 picks a free one)`,
    ]);
  });
});

describe('the .env npm start writes', () => {
  const credentials = { url: 'http://127.0.0.1:1', apiKey: 'key', secret: 'secret' };

  it('is written, and rewritten over one it wrote itself', () => {
    const path = join(scratch, 'own.env');
    expect(writeSandboxEnv(path, credentials)).toBe('written');
    expect(writeSandboxEnv(path, { ...credentials, url: 'http://127.0.0.1:2' })).toBe('written');
    expect(readFileSync(path, 'utf8')).toBe(sandboxEnvText({ ...credentials, url: 'http://127.0.0.1:2' }));
  });

  it("never over a reader's own .env", () => {
    const path = join(scratch, 'theirs.env');
    writeFileSync(path, 'TXC_API_KEY=mine\n');
    expect(writeSandboxEnv(path, credentials)).toBe('kept');
    expect(readFileSync(path, 'utf8')).toBe('TXC_API_KEY=mine\n');
  });
});

describe('npm start', () => {
  it('shows one line per service and no request log without --verbose, writes the .env, runs each server as a child that ends with it, and ends whole when npm is killed with SIGKILL', async () => {
    const [docs, sandbox] = await freePorts(2);
    const envFile = join(scratch, 'start.env');
    // 0 picks a free port, for the mocks (processes of their own) as for the docs server. Through
    // npm, as a reader runs it: npm → sh → tsx → npm start's own process.
    const { child, output, exited, outputClosed } = start(
      {
        DOCS_PORT: String(docs),
        PUBLIC_MOCK_PORT: '0',
        PRIVATE_MOCK_PORT: '0',
        STREAM_MOCK_PORT: '0',
        SANDBOX_PORT: String(sandbox),
        SANDBOX_ENV_FILE: envFile,
      },
      [],
      'npm',
    );
    const npm = child.pid as number;
    await new Promise<void>((resolve, reject) => {
      const seen = () => {
        if (output.stdout.includes('  sandbox ')) resolve();
      };
      child.stdout?.on('data', seen);
      seen();
      void exited.then(() => reject(new Error(`npm start ended: ${output.stdout}${output.stderr}`)));
    });
    const tree = descendantsOf(npm);
    for (const pid of tree) remembered.set(pid, commandLine(pid));
    const publicMock = Number(/^ {2}mock public-v4 +http:\/\/127\.0\.0\.1:(\d+)/m.exec(output.stdout)?.[1]);
    const privateMock = Number(/^ {2}mock private-v4 +http:\/\/127\.0\.0\.1:(\d+)/m.exec(output.stdout)?.[1]);
    expect(publicMock).toBeGreaterThan(0);
    expect(privateMock).toBeGreaterThan(0);
    expect(privateMock).not.toBe(publicMock);
    const streamMock = Number(/^ {2}stream mock +ws:\/\/127\.0\.0\.1:(\d+)\/ws /m.exec(output.stdout)?.[1]);
    expect(streamMock).toBeGreaterThan(0);
    const ports = [Number(docs), publicMock, privateMock, streamMock, Number(sandbox)];
    // Below npm, npm start's own process serves the docs, and every other server it runs (the
    // mocks and the sandbox) is its own child, started to end with it whatever ends it, SIGKILL
    // included: the preload and the parent channel, which test/exit-with-parent.test.ts proves end
    // such a child. Nothing else below npm listens.
    const below = serversBelow(npm);
    expect(below.flatMap((server) => server.ports).sort(byNumber)).toEqual([...ports].sort(byNumber));
    const own = below.find((server) => server.ports.includes(Number(docs)));
    expect(own?.ports).toEqual([Number(docs)]);
    const starter = own?.pid as number;
    const servers = below.filter((server) => server !== own);
    expect(servers).toHaveLength(4);
    for (const server of servers) {
      expect(server.parent, String(server.ports)).toBe(starter);
      expect(endsWithParent(server.pid), String(server.ports)).toEqual({ preload: true, channel: true });
    }
    // The private mock serves its document on the port it was given: an unsigned call gets one of
    // the operation's documented answers (Prism refuses it, but answers).
    const unsigned = await fetch(`http://127.0.0.1:${privateMock}${mainBalancePath}`, { method: 'POST' });
    expect(operations.getMainBalance.statuses).toContain(unsigned.status);
    // Requests to every server: none of them may show in the log.
    for (const port of [publicMock, sandbox])
      expect((await fetch(`http://127.0.0.1:${port}${pingPath}`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${docs}/`)).status).toBe(200);
    // The stream mock answers a ping on its WebSocket endpoint.
    const socket = new WebSocket(`ws://127.0.0.1:${streamMock}/ws`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const pong = new Promise<string>((resolve) => socket.once('message', (data) => resolve(data.toString())));
    socket.send(JSON.stringify({ id: 41, method: 'ping', params: [] }));
    expect(JSON.parse(await pong)).toEqual({ id: 41, result: 'pong', error: null });
    socket.close();
    // The .env holds the running sandbox's variables, and a signed call with them is accepted.
    const key = credentialKey(loadFixture());
    const sandboxUrl = `http://127.0.0.1:${sandbox}`;
    expect(readFileSync(envFile, 'utf8')).toBe(
      sandboxEnvText({ url: sandboxUrl, apiKey: key.apiKey, secret: key.secret }),
    );
    const values = parseEnvText(readFileSync(envFile, 'utf8'));
    const client = createPrivateClient({
      baseUrl: values[environmentVariables.baseUrl] as string,
      apiKey: values[environmentVariables.apiKey] as string,
      apiSecret: values[environmentVariables.apiSecret] as string,
    });
    const balance = await client.POST('/api/v4/main-account/balance');
    await client.close();
    expect(balance.error).toBeUndefined();
    expect(output.stdout).toContain(`Wrote ${envFile} (the sandbox's`);

    // npm alone dies (the shell, tsx and npm start below it are not signalled): npm start sees its
    // npm gone and stops as Ctrl-C stops it, and the whole tree ends (npm's group, and the servers,
    // each a group of its own), every port freed.
    expect(await portIsFree(Number(docs))).toBe(false);
    child.kill('SIGKILL');
    await exited;
    expect(child.signalCode).toBe('SIGKILL');
    await expectSoon(() => processGroup(npm).length === 0);
    await expectSoon(() => tree.every((pid) => !isAlive(pid)));
    await expectSoon(async () => (await Promise.all(ports.map(portIsFree))).every(Boolean));
    // Stopping waits for every child to end, and the output closes once all that holds it is gone:
    // whatever they logged of those requests is in by then.
    await outputClosed;
    expect(output.stdout).toContain('\nSIGTERM: stopping');

    const serving = output.stdout.slice(output.stdout.indexOf('Serving on'));
    const rows = serving.split('\n').filter((line) => line.startsWith('  '));
    expect(rows.map((row) => row.trim().split(/\s{2,}/)[0])).toEqual([
      'docs',
      'mock public-v4',
      'mock private-v4',
      'stream mock',
      'sandbox',
      'sandbox streams',
    ]);
    expect(rows[4]).toContain(`http://127.0.0.1:${sandbox}`);
    expect(rows[5]).toContain(`ws://127.0.0.1:${sandbox}/ws`);
    const all = output.stdout + output.stderr.replace(/^npm warn.*\n/gm, '');
    expect(all).not.toContain(pingPath);
    expect(all).not.toMatch(
      /pingApi 200|\[CLI\]|\[HTTP SERVER\]|Sandbox listening|stream mock listening|ping \(id 41\)/,
    );
    expect(output.stderr.replace(/^npm warn.*\n/gm, '')).toBe('');
  });
});
