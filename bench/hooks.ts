// What hooks cost, in process, where fractions of a microsecond can be resolved: the built
// engine (dist/src/engine.js, with its attempts.js) calling through a transport that answers at once, signing every
// call, in three builds: with its hook points compiled out (every `if (hooks)` branch removed,
// as if hooks had never been written), with hooks unset (as a client without the option runs),
// and with a no-op function on every hook. Rounds are interleaved and timed in CPU time (user +
// system of this process), which another process on the machine does not inflate as it does
// wall time; the target compares the first two round by round.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { Hooks } from '../src/hooks.ts';
import { balancePath } from './http.ts';
import { buildPackage } from './package.ts';
import { median, percentile } from './stats.ts';

type EngineModule = typeof import('../src/engine.ts');

/** The built engine bundled into one module; `compiledOut` removes every hook point first. */
async function engineBuild(root: string, dir: string, compiledOut: boolean): Promise<EngineModule> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['dist/src/engine.js'],
    bundle: true,
    format: 'esm',
    platform: 'node',
    minify: true,
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'hook-points',
        setup(plugin) {
          plugin.onLoad({ filter: /src\/(engine|attempts)\.js$/ }, (args) => {
            let text = readFileSync(args.path, 'utf8');
            if (compiledOut) {
              // `hooks` is never set: each branch on it is dead, and the minifier drops it.
              text = text
                .replace(/\b(const \{[^}]*?)\bhooks, /, '$1')
                .replace(/\bif \(hooks\)/g, 'if (false)')
                .replace(/\bhooks \?/g, 'false ?');
            }
            return { contents: text, loader: 'js' };
          });
        },
      },
    ],
  });
  const code = (result.outputFiles[0] as { text: string }).text;
  // The hook points are gone from the compiled-out build (an event's name survives only in them).
  if (compiledOut === code.includes('rateLimitWait'))
    throw new Error('the hook points were not compiled out');
  const file = join(dir, `engine-${compiledOut ? 'without' : 'with'}-hooks.mjs`);
  writeFileSync(file, code);
  return (await import(pathToFileURL(file).href)) as EngineModule;
}

export interface HooksResult {
  /** Median CPU µs per call of each build. */
  compiledOut: number;
  unset: number;
  everyHook: number;
  /** Round by round, unset minus compiled out: median, and half the interquartile range (noise). */
  unsetCost: number;
  noise: number;
}

export async function runHooks(options: { rounds: number; callsPerRound: number }): Promise<HooksResult> {
  const root = buildPackage();
  const dir = mkdtempSync(join(tmpdir(), 'txc-bench-hooks-'));
  try {
    const without = await engineBuild(root, dir, true);
    const withHooks = await engineBuild(root, dir, false);
    const { createRequestSigner } = (await import(
      pathToFileURL(join(root, 'dist/src/signing.js')).href
    )) as typeof import('../src/signing.ts');
    const { clientRoutes } = (await import(
      pathToFileURL(join(root, 'dist/generated/routes.js')).href
    )) as typeof import('../generated/routes.ts');
    const answer = {
      response: { status: 200, ok: true, url: balancePath, headers: { get: () => null } },
      text: '{"BTC":{"main_balance":"0.0013929494020316"}}',
    };
    const lease = { send: () => Promise.resolve(answer), release: () => {} };
    const transport = { lease: () => lease, close: async () => {} };
    const noop = () => {};
    const everyHook: Hooks = {
      start: [noop],
      request: [noop],
      answer: [noop],
      retry: [noop],
      rateLimitWait: [noop],
      error: [noop],
      end: [noop],
    };
    const settings = (hooks: Hooks | undefined) => ({
      baseUrl: 'http://127.0.0.1:9',
      timeoutMs: 10_000,
      maxResponseBytes: 4 * 1024 * 1024,
      retry: undefined,
      rateLimit: false as const,
      hooks,
      signer: createRequestSigner({ apiKey: 'bench-key', apiSecret: 'bench-secret' }),
      scope: 'key:bench-hooks',
    });
    const engines = {
      compiledOut: without.createEngine(settings(undefined), transport, clientRoutes),
      unset: withHooks.createEngine(settings(undefined), transport, clientRoutes),
      everyHook: withHooks.createEngine(settings(everyHook), transport, clientRoutes),
    };
    type Name = keyof typeof engines;
    const names = Object.keys(engines) as Name[];
    const round = async (name: Name, calls: number) => {
      const engine = engines[name];
      const cpu = process.cpuUsage();
      for (let call = 0; call < calls; call++) {
        const result = await engine.call('post', balancePath, undefined, undefined);
        if (result.error) throw result.error;
      }
      const used = process.cpuUsage(cpu);
      return (used.user + used.system) / calls;
    };
    for (const name of names) await round(name, Math.min(20_000, options.callsPerRound));
    const times: Record<Name, number[]> = { compiledOut: [], unset: [], everyHook: [] };
    for (let index = 0; index < options.rounds; index++) {
      for (let offset = 0; offset < names.length; offset++) {
        const name = names[(offset + index) % names.length] as Name;
        times[name].push(await round(name, options.callsPerRound));
      }
    }
    const differences = times.unset.map((time, index) => time - (times.compiledOut[index] as number));
    return {
      compiledOut: median(times.compiledOut),
      unset: median(times.unset),
      everyHook: median(times.everyHook),
      unsetCost: median(differences),
      noise: (percentile(differences, 75) - percentile(differences, 25)) / 2,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
