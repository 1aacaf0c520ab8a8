// End to end on loopback: the signed main-balance call against bench/server.ts, running in its
// own child process, for each contender at each concurrency. Contenders are interleaved: every
// round runs each of them once per concurrency, in a rotated order, for a fixed duration (and
// never more than a fixed number of requests), so that drift on the machine hits all alike.
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client, type Dispatcher, Pool } from 'undici';
import { operations, signedBodyFields, signingHeaders } from '../generated/operations.ts';
import { type ClientBuild, clientPackage, type Package } from './package.ts';
import { percentile } from './stats.ts';

export const balancePath = operations.getMainBalance.path;
export const apiKey = 'bench-key';
export const apiSecret = 'bench-secret';

export interface Contender {
  id: string;
  label: string;
  /** Prepares the contender and returns one call; everything before the returned call is untimed. */
  open(
    origin: string,
    build: ClientBuild,
  ): Promise<{ call: () => Promise<unknown>; close: () => Promise<void> }>;
}

/** The main-balance call's method, as undici and fetch take it. */
export const balanceMethod = operations.getMainBalance.method.toUpperCase() as Dispatcher.HttpMethod;
const [requestField, nonceField] = signedBodyFields;

/**
 * The body and headers of one signed main-balance call with `nonce`, in the least code a signed
 * call needs: its body, the base64 of that, a bare createHmac over it, a fresh headers object.
 */
function signedCall(nonce: number): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({ [requestField]: balancePath, [nonceField]: String(nonce) });
  const payload = Buffer.from(body).toString('base64');
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    [signingHeaders.ApiKey]: apiKey,
    [signingHeaders.Payload]: payload,
    [signingHeaders.Signature]: createHmac('sha512', apiSecret).update(payload).digest('hex'),
  };
  return { body, headers };
}

/** The body and headers of one signed main-balance call, computed once (for the baselines). */
export function precomputed(): { body: string; headers: Record<string, string> } {
  return signedCall(Date.now());
}

/**
 * undici's `Client.dispatch` as our Node transport uses it (one `Client` per connection, idle ones
 * kept on a stack), with the least a dispatch handler does: keep the status, collect the chunks,
 * decode them once, and parse them when `parse` is set. `request` gives each call's body and
 * headers.
 */
function bareDispatch(
  origin: string,
  request: () => { body: string; headers: Record<string, string> },
  parse: boolean,
): { call: () => Promise<void>; close: () => Promise<void> } {
  const idle: Client[] = [];
  const opened: Client[] = [];
  const take = () => {
    const client = idle.pop();
    if (client) return client;
    const added = new Client(origin, { pipelining: 1 });
    opened.push(added);
    return added;
  };
  const call = () =>
    new Promise<void>((resolve, reject) => {
      const client = take();
      const chunks: Buffer[] = [];
      let status = 0;
      const { body, headers } = request();
      client.dispatch(
        { path: balancePath, method: balanceMethod, headers, body },
        {
          // Its presence is what tells undici that this handler uses the current hooks.
          onRequestStart() {},
          onResponseStart(_controller, statusCode) {
            status = statusCode;
          },
          onResponseData(_controller, chunk) {
            chunks.push(chunk);
          },
          onResponseEnd() {
            idle.push(client);
            const text = Buffer.concat(chunks).toString('utf8');
            if (parse) JSON.parse(text);
            if (status === 200) resolve();
            else reject(new Error(`status ${status}`));
          },
          onResponseError(_controller, error) {
            idle.push(client);
            reject(error);
          },
        },
      );
    });
  return { call, close: async () => void (await Promise.all(opened.map((client) => client.close()))) };
}

/** (b'): the bare dispatch of a request signed once, before the timed calls. */
async function precomputedDispatch(origin: string) {
  const signedOnce = precomputed();
  return bareDispatch(origin, () => signedOnce, false);
}

export const contenders: Contender[] = [
  {
    id: 'client',
    label: '(a) our client, default transport',
    async open(origin, build) {
      const { createPrivateClient } = await clientPackage(build);
      const client = createPrivateClient({ baseUrl: origin, apiKey, apiSecret, rateLimit: false });
      return {
        call: async () => {
          const result = await client.POST(balancePath);
          if (result.error) throw result.error;
        },
        close: () => client.close(),
      };
    },
  },
  {
    id: 'client-limited',
    label: "(a') our client, rate limiter on (as by default; a limit it never reaches)",
    async open(origin, build) {
      // The limiter's bookkeeping on every call, without ever making a call wait.
      const limits = { getMainBalance: { requests: 1_000_000_000, windowSeconds: 10 } };
      const { createPrivateClient } = await clientPackage(build);
      const client = createPrivateClient({ baseUrl: origin, apiKey, apiSecret, rateLimit: { limits } });
      return {
        call: async () => {
          const result = await client.POST(balancePath);
          if (result.error) throw result.error;
        },
        close: () => client.close(),
      };
    },
  },
  {
    id: 'undici',
    label: '(b) undici Pool.request, precomputed (limit)',
    async open(origin) {
      const { body, headers } = precomputed();
      const pool = new Pool(origin, { connections: 256, pipelining: 1 });
      return {
        call: async () => {
          const answer = await pool.request({ path: balancePath, method: balanceMethod, headers, body });
          await answer.body.text();
          if (answer.statusCode !== 200) throw new Error(`status ${answer.statusCode}`);
        },
        close: () => pool.close(),
      };
    },
  },
  {
    id: 'dispatch',
    label:
      "(b') undici Client.dispatch on an idle connection, precomputed (the layer our Node transport uses)",
    open: precomputedDispatch,
  },
  {
    id: 'dispatch-again',
    label: "(b'2) (b') again, the same code on connections of its own: the bench's resolution",
    open: precomputedDispatch,
  },
  {
    id: 'dispatch-signed',
    label: "(b'') as (b'), signing every call and parsing every answer, with the least code that does it",
    async open(origin) {
      // What every signed call must do beyond (b'): a fresh nonce and body, signed, and the answer parsed.
      let nonce = Date.now();
      const signEach = () => signedCall(nonce++);
      return bareDispatch(origin, signEach, true);
    },
  },
  {
    id: 'fetch',
    label: '(c) Node global fetch, precomputed',
    async open(origin) {
      const { body, headers } = precomputed();
      const url = `${origin}${balancePath}`;
      return {
        call: async () => {
          const response = await fetch(url, { method: balanceMethod, headers, body });
          await response.text();
          if (response.status !== 200) throw new Error(`status ${response.status}`);
        },
        close: async () => {},
      };
    },
  },
  {
    id: 'ccxt',
    label: '(d) ccxt whitebit',
    async open(origin) {
      const { default: ccxt } = await import('ccxt');
      // ccxt signs every call itself (nonce = milliseconds, no nonceWindow), and builds the URL
      // from urls.api.v4.private + the endpoint, so pointing that at the server is enough.
      const exchange = new ccxt.whitebit({ apiKey, secret: apiSecret, enableRateLimit: false, rateLimit: 0 });
      const urls = exchange.urls as unknown as { api: { v4: { private: string } } };
      urls.api.v4.private = `${origin}/api/v4`;
      return {
        call: () => exchange.v4PrivatePostMainAccountBalance({}),
        close: () => exchange.close(),
      };
    },
  },
];

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Adds the client as of git `ref` as contender (a0), built as that commit built its package: its
 * src/, generated/, model/ (src/cli imports it), package.json and tsconfig files are written to a
 * temporary directory (with node_modules linked to ours), compiled by tsc, and the built entry is
 * imported from there.
 */
export async function addBeforeContender(ref: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'txc-bench-before-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const files = execFileSync(
    'git',
    [
      'ls-tree',
      '-r',
      '--name-only',
      ref,
      'src',
      'generated',
      'model',
      'package.json',
      'tsconfig.json',
      'tsconfig.build.json',
    ],
    { cwd: root, encoding: 'utf8' },
  )
    .split('\n')
    .filter(Boolean);
  for (const file of files) {
    mkdirSync(join(dir, dirname(file)), { recursive: true });
    writeFileSync(join(dir, file), execFileSync('git', ['show', `${ref}:${file}`], { cwd: root }));
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: dir,
      stdio: 'pipe',
    },
  );
  const shortRef = execFileSync('git', ['rev-parse', '--short', ref], { cwd: root, encoding: 'utf8' }).trim();
  contenders.unshift({
    id: 'before',
    label: `(a0) our client as of ${shortRef}`,
    async open(origin) {
      const module = (await import(pathToFileURL(join(dir, 'dist/src/index.js')).href)) as Package;
      const client = module.createPrivateClient({ baseUrl: origin, apiKey, apiSecret, rateLimit: false });
      return {
        call: async () => {
          const result = await client.POST(balancePath);
          if (result.error) throw result.error;
        },
        close: () => client.close(),
      };
    },
  });
}

export interface HttpServer {
  origin: string;
  stop(): void;
}

/** Starts bench/server.ts in a child process; rejects (and kills it) if it does not answer in 20 s. */
export function startServer(): Promise<HttpServer> {
  const script = fileURLToPath(new URL('./server.ts', import.meta.url));
  const child: ChildProcess = fork(script, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', stop);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error('the bench server did not report its port within 20 s'));
    }, 20_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      stop();
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the bench server exited early (${code})`));
    });
    child.once('message', (message) => {
      clearTimeout(timer);
      const port = (message as { port?: number }).port;
      if (!port) {
        stop();
        reject(new Error('the bench server reported no port'));
        return;
      }
      resolve({ origin: `http://127.0.0.1:${port}`, stop });
    });
  });
}

export interface Sample {
  requests: number;
  seconds: number;
  latencies: number[];
  errors: number;
  /** CPU time of this process (user + system), microseconds per completed request. */
  cpuPerRequest: number;
}

/** Runs `call` from `concurrency` loops until the deadline or the request cap, whichever first. */
export async function measure(
  call: () => Promise<unknown>,
  concurrency: number,
  durationMs: number,
  maxRequests: number,
): Promise<Sample> {
  const latencies: number[] = [];
  let started = 0;
  let errors = 0;
  const cpu = process.cpuUsage();
  const begin = performance.now();
  const deadline = begin + durationMs;
  const loop = async () => {
    while (started < maxRequests && performance.now() < deadline) {
      started++;
      const t0 = performance.now();
      try {
        await call();
        latencies.push(performance.now() - t0);
      } catch {
        errors++;
        if (errors > 100) throw new Error('more than 100 failed calls in one round');
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const seconds = (performance.now() - begin) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuPerRequest = (used.user + used.system) / Math.max(1, latencies.length);
  return { requests: latencies.length, seconds, latencies, errors, cpuPerRequest };
}

export interface HttpResult {
  id: string;
  label: string;
  concurrency: number;
  /** Requests per second: total over all rounds divided by total time. */
  rps: number;
  /** Per-round rates, to judge the spread. */
  rounds: number[];
  /** Per-round CPU time per request (µs), in round order, to compare contenders round by round. */
  roundCpu: number[];
  p50: number;
  p99: number;
  errors: number;
  /** CPU time of the bench process per request, microseconds (the server's is not counted). */
  cpuPerRequest: number;
}

export interface HttpOptions {
  concurrencies: number[];
  rounds: number;
  roundMs: number;
  warmupMs: number;
  maxRequestsPerRound: number;
  only?: string[];
  /** The built package (the default), or the sources bundled by esbuild (--quick). */
  client?: ClientBuild;
  log?: (line: string) => void;
}

export async function runHttp(options: HttpOptions): Promise<HttpResult[]> {
  const chosen = contenders.filter((contender) => !options.only || options.only.includes(contender.id));
  const server = await startServer();
  const opened: { contender: Contender; call: () => Promise<unknown>; close: () => Promise<void> }[] = [];
  try {
    for (const contender of chosen)
      opened.push({ contender, ...(await contender.open(server.origin, options.client ?? 'built')) });
    type Total = {
      requests: number;
      seconds: number;
      cpu: number;
      latencies: number[];
      errors: number;
      rounds: number[];
      roundCpu: number[];
    };
    const totals = new Map<string, Total>();
    const key = (id: string, concurrency: number) => `${id}@${concurrency}`;
    // Warm up every contender at the highest concurrency (opens its connections, JITs its path).
    const top = Math.max(...options.concurrencies);
    for (const entry of opened) await measure(entry.call, top, options.warmupMs, options.maxRequestsPerRound);
    for (let round = 0; round < options.rounds; round++) {
      for (const concurrency of options.concurrencies) {
        for (let i = 0; i < opened.length; i++) {
          const entry = opened[(i + round) % opened.length] as (typeof opened)[number];
          const sample = await measure(entry.call, concurrency, options.roundMs, options.maxRequestsPerRound);
          const k = key(entry.contender.id, concurrency);
          const total = totals.get(k) ?? {
            requests: 0,
            seconds: 0,
            cpu: 0,
            latencies: [],
            errors: 0,
            rounds: [],
            roundCpu: [],
          };
          total.requests += sample.requests;
          total.cpu += sample.cpuPerRequest * sample.requests;
          total.seconds += sample.seconds;
          total.errors += sample.errors;
          for (const latency of sample.latencies) total.latencies.push(latency);
          total.rounds.push(sample.requests / sample.seconds);
          total.roundCpu.push(sample.cpuPerRequest);
          totals.set(k, total);
        }
      }
      options.log?.(`  http round ${round + 1}/${options.rounds} done`);
    }
    const results: HttpResult[] = [];
    for (const concurrency of options.concurrencies) {
      for (const { contender } of opened) {
        const total = totals.get(key(contender.id, concurrency));
        if (!total) continue;
        results.push({
          id: contender.id,
          label: contender.label,
          concurrency,
          rps: total.requests / total.seconds,
          rounds: total.rounds,
          roundCpu: total.roundCpu,
          p50: percentile(total.latencies, 50),
          p99: percentile(total.latencies, 99),
          errors: total.errors,
          cpuPerRequest: total.cpu / Math.max(1, total.requests),
        });
      }
    }
    return results;
  } finally {
    for (const entry of opened) await entry.close().catch(() => {});
    server.stop();
  }
}
