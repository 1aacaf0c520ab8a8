// `txc watch` piped, as a script runs it (stdout a pipe, not a terminal), against the stream mock
// (scripts/stream-mock.ts, answering from the AsyncAPI examples) started here: one update a line of
// JSON, amounts the strings they came as; SIGINT, or a reader leaving the pipe, unsubscribes and
// exits 0; a connection that never opens and a subscription refused are one line each, naming the
// channel and the cause, with the exit code of their kind. Every wait ends on what txc printed or
// on its exit, within the limits of scripts/time-limits.ts; txc ends with this process.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.ts';
import { projectRoot } from '../../model/document.ts';
import { environmentVariables, streamVariables } from '../../model/environment.ts';
import { isRecord, type JsonRecord } from '../../model/json.ts';
import { loadStreamCatalog } from '../../model/stream-catalog.ts';
import { credentialKey, loadFixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { endWithParentArgs, withParentChannel } from '../../scripts/child-process.ts';
import { type StreamMock, startStreamMock } from '../../scripts/stream-mock.ts';
import { timeLimits } from '../../scripts/time-limits.ts';
import { createPrivateClient, unwrap } from '../../src/index.ts';
import {
  cleanEnvironment,
  credentials,
  type Run,
  scratchDirectory,
  txcCommand,
  writeEnvFile,
} from './helpers.ts';

const catalog = loadStreamCatalog();
const scratch = scratchDirectory();
/** Every request the mock took, in order: `lastprice_subscribe (id 1)`. */
const requests: string[] = [];
let mock: StreamMock;

beforeAll(async () => {
  // A tenth of the documents' intervals: a second's updates every 100 ms.
  mock = await startStreamMock({ pace: 0.1, catalog, log: (line) => requests.push(line) });
});
afterAll(async () => {
  await mock?.close();
  scratch.remove();
});

/** The first example of a channel's update, as the documents write it. */
function updateExample(channel: string): unknown[] {
  const update = catalog.channels.find((each) => each.name === channel)?.updates[0];
  const params = (update?.message.examples[0]?.payload as JsonRecord | undefined)?.params;
  if (!Array.isArray(params)) throw new Error(`${channel} has no update example`);
  return params;
}

interface Watch {
  child: ChildProcess;
  /** Resolves with the first `count` lines of stdout once they are there; rejects if txc exits first. */
  lines(count: number): Promise<string[]>;
  /** Resolves when txc has exited. */
  exited: Promise<Run>;
}

/** Starts `txc watch <args>` with pipes; killed if it outlives the limit of a program run. */
function watch(args: readonly string[], env: Record<string, string> = {}): Watch {
  const [, ...bundle] = txcCommand();
  const started = performance.now();
  const child = spawn(process.execPath, [...endWithParentArgs, ...bundle, 'watch', ...args], {
    cwd: projectRoot,
    env: { ...cleanEnvironment(), ...env },
    stdio: withParentChannel('ignore', 'pipe', 'pipe'),
  });
  let stdout = '';
  let stderr = '';
  const readers = new Set<() => void>();
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
    for (const reader of readers) reader();
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeLimits.runMs);
  const exited = new Promise<Run>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      for (const reader of readers) reader();
      resolve({ code, stdout, stderr, wallMs: performance.now() - started });
    });
  });
  return {
    child,
    exited,
    lines(count) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const complete = stdout.split('\n').slice(0, -1);
          if (complete.length >= count) {
            readers.delete(check);
            resolve(complete.slice(0, count));
          } else if (child.exitCode !== null || child.signalCode !== null) {
            readers.delete(check);
            reject(new Error(`txc exited before ${count} lines:\n${stdout}\n${stderr}`));
          }
        };
        readers.add(check);
        check();
      });
    },
  };
}

/** Stops it as Ctrl-C does, and waits for it to end. */
async function interrupt(running: Watch): Promise<Run> {
  running.child.kill('SIGINT');
  return running.exited;
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const requestsOf = (method: string) => requests.filter((line) => line.startsWith(`${method} `));

describe('txc watch, piped', () => {
  it('prints each update as a line of JSON, amounts as strings, and unsubscribes on SIGINT', async () => {
    const [, price] = updateExample('lastprice');
    expect(typeof price).toBe('string');
    const before = requestsOf('lastprice_unsubscribe').length;
    const running = watch(['lastprice', 'BTC_USDT', 'ETH_BTC', '--stream-url', mock.url]);
    const lines = await running.lines(4);
    for (const line of lines) {
      // The amount as the server wrote it: a string, never a number.
      expect(line).toContain(`,"${price as string}"]`);
      const [market, amount] = JSON.parse(line) as unknown[];
      expect(['BTC_USDT', 'ETH_BTC']).toContain(market);
      expect(amount).toBe(price);
    }
    expect(new Set(lines.map((line) => (JSON.parse(line) as unknown[])[0])).size).toBe(2);
    const run = await interrupt(running);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(requestsOf('lastprice_unsubscribe').length).toBe(before + 1);
  });

  it("finds the streams at /ws on --base-url's origin, and sends what the flags say", async () => {
    const [, book] = updateExample('depth');
    const running = watch([
      'depth',
      'BTC_USDT',
      '--limit',
      '20',
      '--base-url',
      `http://127.0.0.1:${mock.port}`,
    ]);
    const [first, second] = await running.lines(2);
    const whole = JSON.parse(first as string) as unknown[];
    expect(whole[0]).toBe(true);
    expect(whole[1]).toEqual(book);
    expect(whole[2]).toBe('BTC_USDT');
    expect((JSON.parse(second as string) as unknown[])[0]).toBe(false);
    const run = await interrupt(running);
    expect(run.code).toBe(0);
    // The mock refuses a subscribe its schema does not take: `--limit 20` went as the integer 20.
    expect(run.stderr).toBe('');
  });

  it('reads TXC_STREAM_URL from --env-file', async () => {
    const envFile = writeEnvFile(scratch.dir, { [streamVariables.url]: mock.url }, 'stream.env');
    const running = watch(['trades', '--env-file', envFile]);
    const [line] = await running.lines(1);
    expect(JSON.parse(line as string)).toEqual(updateExample('trades'));
    expect((await interrupt(running)).code).toBe(0);
  });

  it('ends quietly, unsubscribed, when its reader leaves the pipe', async () => {
    const before = requestsOf('market_unsubscribe').length;
    const running = watch(['market', 'BTC_USDT', '--stream-url', mock.url]);
    await running.lines(1);
    // As `| head -1` does: the pipe's reader goes, the next write fails with EPIPE.
    running.child.stdout?.destroy();
    const run = await running.exited;
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(requestsOf('market_unsubscribe').length).toBe(before + 1);
  });

  it('says in one line that it could not connect, naming the channel and where, exit code 5', async () => {
    const url = `ws://127.0.0.1:${await closedPort()}/ws`;
    const run = await watch(['lastprice', 'BTC_USDT', '--stream-url', url]).exited;
    expect(run.code).toBe(5);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`txc: watch lastprice BTC_USDT: could not connect to ${url}\n`);
  });

  it('says in one line that the server refused the subscription, and why, exit code 1', async () => {
    // A server that refuses kline's subscribe, and so sends none of its updates.
    const refusing = await startStreamMock({
      catalog,
      outgoing: (message, about) => {
        if (about.channel !== 'kline') return message;
        if (about.kind === 'update') return undefined;
        return {
          id: message.id,
          result: null,
          error: { code: 1, message: 'invalid argument: no such market' },
        };
      },
    });
    try {
      const run = await watch(['kline', 'BTC_USDT', '--stream-url', refusing.url]).exited;
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        'txc: watch kline BTC_USDT: candles_subscribe: refused by the server: invalid argument: no such market\n',
      );
    } finally {
      await refusing.close();
    }
  });
});

// The account channels take their token from getWebSocketToken (POST
// /api/v4/profile/websocket_token), which is being added to the documents with the sandbox's
// streams; until then this txc says it has none (run-watch.ts), and this part waits for it.
const tokenOperation = (operations as Readonly<Record<string, { path: string }>>).getWebSocketToken;

describe.skipIf(!tokenOperation)('txc watch, an account channel', () => {
  const fixture = loadFixture();
  const key = credentialKey(fixture);
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, strict: true });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('authorizes with a token from the HTTP API, with the key and secret, and never prints either', async () => {
    const envFile = writeEnvFile(scratch.dir, credentials(sandbox.url, key), 'account.env');
    // Spot balances are the trade balance's (what orders use).
    const [ticker] = [...sandbox.state.account(key.account).trade.keys()];
    const running = watch(['balance-spot', ...(ticker ? [ticker] : []), '--env-file', envFile]);
    const [line] = await running.lines(1);
    const update = JSON.parse(line as string) as unknown[];
    expect(update.every(isRecord)).toBe(true);
    const run = await interrupt(running);
    expect(run.code).toBe(0);
    const client = createPrivateClient({ baseUrl: sandbox.url, apiKey: key.apiKey, apiSecret: key.secret });
    const answer = (await unwrap(client.POST(tokenOperation?.path as never, {} as never))) as Record<
      string,
      string
    >;
    await client.close();
    for (const secret of [key.secret, ...Object.values(answer)]) {
      expect(run.stdout).not.toContain(secret);
      expect(run.stderr).not.toContain(secret);
    }
  });

  it('refuses without credentials, saying where to set them', async () => {
    const run = await watch(['balance-spot', '--base-url', sandbox.url]).exited;
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `txc: ${environmentVariables.apiKey} is not set: export it, or pass --env-file with a file that sets it\n`,
    );
  });
});
