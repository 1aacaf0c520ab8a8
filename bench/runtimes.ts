// Bun and Deno: our built client (its default transport there is the runtime's own fetch) against
// that runtime's raw fetch, signing every call or with a body signed once beforehand, each in
// fresh child processes calling the same loopback server, interleaved, at concurrency 1 and 64. The package is laid out
// as installed, in a temporary project outside the repository (inside it, Bun would follow this
// repository's tsconfig paths to the sources). The runtimes are the package tests' (from the npm
// registry, cached outside the work tree).
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signingHeaders } from '../generated/operations.ts';
import { installRuntimes } from '../scripts/runtimes.ts';
import { apiKey, apiSecret, balancePath, precomputed, startServer } from './http.ts';
import { buildPackage } from './package.ts';

const child = fileURLToPath(new URL('./runtime-child.mjs', import.meta.url));

export interface RuntimeResult {
  runtime: string;
  concurrency: number;
  ours: number;
  /** Raw fetch signing every call (fresh nonce, base64, HMAC, headers): the least a signed call does. */
  signed: number;
  /** Raw fetch with a body and headers signed once beforehand. */
  raw: number;
  /** ours / signed */
  ratioSigned: number;
  /** ours / raw */
  ratio: number;
}

const contenderIds = ['ours', 'signed', 'raw'] as const;
type ContenderId = (typeof contenderIds)[number];

/** How long one round of a runtime may take before it is killed. */
const roundLimitMs = 60_000;

function round(
  command: string[],
  environment: Record<string, string>,
): Promise<{ requests: number; seconds: number }> {
  const [binary, ...args] = command as [string, ...string[]];
  return new Promise((resolve, reject) => {
    execFile(
      binary,
      args,
      { env: { ...process.env, ...environment }, timeout: roundLimitMs },
      (error, stdout, stderr) => {
        if (error) {
          // A runtime that dies by a signal, or overruns the limit, prints nothing: say which.
          const how = error.killed
            ? `killed after ${roundLimitMs / 1000} s`
            : `exit code ${error.code ?? 'none'}, signal ${error.signal ?? 'none'}`;
          reject(new Error(`${binary} (${how}): ${stderr.trim().slice(-300) || error.message}`));
        } else resolve(JSON.parse(stdout.trim().split('\n').pop() as string));
      },
    );
  });
}

export async function runRuntimes(options: { rounds: number; roundMs: number }): Promise<RuntimeResult[]> {
  const root = buildPackage();
  // dist/ and package.json are all Bun and Deno load: their transport is fetch, not undici.
  const project = mkdtempSync(join(tmpdir(), 'txc-bench-runtimes-'));
  const installed = join(project, 'node_modules', 'txc-api-v4');
  cpSync(join(root, 'dist'), join(installed, 'dist'), { recursive: true });
  cpSync(join(root, 'package.json'), join(installed, 'package.json'));
  cpSync(child, join(project, 'child.mjs'));
  // Deno resolves a bare import only for a dependency the project declares.
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ private: true, type: 'module', dependencies: { 'txc-api-v4': version } }),
  );
  const runtimes = installRuntimes().filter((runtime) => runtime.name === 'bun' || runtime.name === 'deno');
  const server = await startServer();
  const signedOnce = precomputed();
  const results: RuntimeResult[] = [];
  try {
    for (const runtime of runtimes) {
      for (const concurrency of [1, 64]) {
        const totals = {} as Record<ContenderId, { requests: number; seconds: number }>;
        for (const id of contenderIds) totals[id] = { requests: 0, seconds: 0 };
        for (let index = 0; index < options.rounds; index++) {
          // Rotated every round, so that drift on the machine hits every contender alike.
          const order = contenderIds.map(
            (_, i) => contenderIds[(i + index) % contenderIds.length] as ContenderId,
          );
          for (const contender of order) {
            const sample = await round(runtime.run(join(project, 'child.mjs')), {
              CONTENDER: contender,
              ORIGIN: server.origin,
              BALANCE_PATH: balancePath,
              CONCURRENCY: String(concurrency),
              DURATION_MS: String(options.roundMs),
              ENTRY: 'txc-api-v4',
              PRECOMPUTED: JSON.stringify(signedOnce),
              SIGNING_HEADERS: JSON.stringify(signingHeaders),
              API_KEY: apiKey,
              API_SECRET: apiSecret,
            });
            totals[contender].requests += sample.requests;
            totals[contender].seconds += sample.seconds;
          }
        }
        const rate = (id: ContenderId) => totals[id].requests / totals[id].seconds;
        const [ours, signed, raw] = [rate('ours'), rate('signed'), rate('raw')];
        results.push({
          runtime: runtime.name,
          concurrency,
          ours,
          signed,
          raw,
          ratioSigned: ours / signed,
          ratio: ours / raw,
        });
      }
    }
    return results;
  } finally {
    server.stop();
    rmSync(project, { recursive: true, force: true });
  }
}
