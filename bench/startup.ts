// Start-up: the time to import the package and create a client, in fresh child processes,
// against ccxt (import ccxt + new ccxt.whitebit()). Our side is the built package as installed
// (dist/, `npm run build`), imported as it is: the undici transport loads only on the first call.
// Each child reports the milliseconds from just before its import to just after the client
// exists, and to the end of a first signed call to the bench server (which loads the transport);
// the process wall time is kept too. `txc ping` (the built bin) is timed against the sandbox,
// spawn to exit.
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { environmentVariables } from '../model/environment.ts';
import { startSandbox } from '../sandbox/server.ts';
import { runNode } from '../scripts/run-node.ts';
import { balancePath, startServer } from './http.ts';
import { buildPackage, builtCli, builtEntry } from './package.ts';
import { median } from './stats.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

function childScript(subject: 'ours' | 'ccxt', entry: string, origin: string): string {
  const load =
    subject === 'ours'
      ? `const { createPrivateClient } = await import(${JSON.stringify(entry)});
         const client = createPrivateClient({ baseUrl: ${JSON.stringify(origin)}, apiKey: 'key', apiSecret: 'secret' });
         const call = async () => { const result = await client.POST(${JSON.stringify(balancePath)}); if (result.error) throw result.error; };`
      : `const { default: ccxt } = await import('ccxt');
         const exchange = new ccxt.whitebit({ apiKey: 'key', secret: 'secret', enableRateLimit: false });
         exchange.urls.api.v4.private = ${JSON.stringify(`${origin}/api/v4`)};
         const call = () => exchange.v4PrivatePostMainAccountBalance({});`;
  return `const t0 = performance.now();
${load}
const t1 = performance.now();
await call();
const t2 = performance.now();
process.stdout.write(JSON.stringify({ ms: t1 - t0, firstCallMs: t2 - t0 }), () => process.exit(0));`;
}

type Sample = { ms: number; firstCallMs: number; wallMs: number };

async function runChild(script: string, timeoutMs: number): Promise<Sample> {
  const run = await runNode(['--input-type=module', '-e', script], { timeoutMs });
  if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stderr.trim().slice(0, 300)}`);
  const { ms, firstCallMs } = JSON.parse(run.stdout) as { ms: number; firstCallMs: number };
  return { ms, firstCallMs, wallMs: run.wallMs };
}

/** Spawn to exit of the bundled `txc ping` against the sandbox. */
async function runTxcPing(entry: string, baseUrl: string, timeoutMs: number): Promise<number> {
  const env = { ...process.env, [environmentVariables.baseUrl]: baseUrl };
  const run = await runNode([entry, 'ping', '--json'], { timeoutMs, env });
  if (run.code !== 0) throw new Error(`txc ping exited ${run.code}: ${run.stderr.trim().slice(0, 300)}`);
  return run.wallMs;
}

export interface StartupResult {
  ours: Sample;
  ccxt: Sample;
  /** Median wall time of `txc ping` against the sandbox. */
  txcPingWallMs: number;
  runs: number;
  /** ours.ms / ccxt.ms */
  ratio: number;
}

export async function runStartup(options: { runs: number }): Promise<StartupResult> {
  buildPackage();
  const server = await startServer();
  const sandbox = await startSandbox({ port: 0 });
  try {
    const entry = pathToFileURL(join(root, builtEntry)).href;
    const txcEntry = join(root, builtCli);
    const samples = { ours: [] as Sample[], ccxt: [] as Sample[], txc: [] as number[] };
    const script = (subject: 'ours' | 'ccxt') => childScript(subject, entry, server.origin);
    // One untimed run each fills the file cache; then alternate.
    await runChild(script('ours'), 30_000);
    await runChild(script('ccxt'), 30_000);
    await runTxcPing(txcEntry, sandbox.url, 30_000);
    for (let run = 0; run < options.runs; run++) {
      samples.txc.push(await runTxcPing(txcEntry, sandbox.url, 30_000));
      for (const subject of run % 2 === 0 ? (['ours', 'ccxt'] as const) : (['ccxt', 'ours'] as const)) {
        samples[subject].push(await runChild(script(subject), 30_000));
      }
    }
    const summarize = (list: Sample[]) => ({
      ms: median(list.map((sample) => sample.ms)),
      firstCallMs: median(list.map((sample) => sample.firstCallMs)),
      wallMs: median(list.map((sample) => sample.wallMs)),
    });
    const ours = summarize(samples.ours);
    const ccxt = summarize(samples.ccxt);
    return { ours, ccxt, txcPingWallMs: median(samples.txc), runs: options.runs, ratio: ours.ms / ccxt.ms };
  } finally {
    server.stop();
    await sandbox.close();
  }
}
