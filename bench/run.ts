// `npm run bench`: signing, end to end on loopback, size, start-up and pipeline figures, printed
// as markdown with the ratio and PASS/MISS of every target. Flags:
//   --quick          tiny durations, our client only (bundled by esbuild, not tsc's build), no
//                    size/start-up/pipeline (the smoke test)
//   --write          also replace the results between the markers in bench/README.md
//   --before REF     add the client as of git REF (e.g. a commit before a change) as an extra
//                    contender, interleaved with the others, for before/after figures
//   --only LIST      comma-separated sections: signing,http,streams,limiter,hooks,runtimes,size,startup,
//                    pipeline,growth (growth, about 8 minutes on a quiet machine, is not part of the default run)
//   --extra N        growth: synthetic operations added (default 12)
//   --rounds N       growth: interleaved rounds (default 3)
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type GrowthResult, runGrowth } from './growth.ts';
import { type HooksResult, runHooks } from './hooks.ts';
import { addBeforeContender, type HttpResult, runHttp } from './http.ts';
import { type LimiterResult, runLimiter } from './limiter.ts';
import { builtEntry, builtMiddleware } from './package.ts';
import { type PipelineResult, runPipeline } from './pipeline.ts';
import { type RuntimeResult, runRuntimes } from './runtimes.ts';
import { runSigning, type SigningResult } from './signing.ts';
import { runSize, type SizeResult } from './size.ts';
import { runStartup, type StartupResult } from './startup.ts';
import { count, fixed, kb, median, ms, percentile, ratio } from './stats.ts';
import { pairedStreamRatio, runStreams, type StreamResult } from './streams.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    before: { type: 'string' },
    only: { type: 'string' },
    extra: { type: 'string', default: '12' },
    rounds: { type: 'string', default: '3' },
  },
});
const quick = values.quick ?? false;
const sections = new Set(
  (
    values.only ??
    (quick ? 'signing,http,streams' : 'signing,http,streams,limiter,hooks,runtimes,size,startup,pipeline')
  ).split(','),
);
const log = (line: string) => process.stderr.write(`${line}\n`);
const readmePath = fileURLToPath(new URL('./README.md', import.meta.url));
const startMarker = '<!-- bench:results:start -->';
const endMarker = '<!-- bench:results:end -->';

function machine(): string {
  let cpu = 'unknown CPU';
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('model name'));
    if (line) cpu = line.split(':')[1]?.trim() ?? cpu;
  } catch {}
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  return `${availableParallelism()} CPUs (nproc), ${cpu}, Node ${process.version}, ${process.platform}/${process.arch}; load average at start ${load}; ${new Date().toISOString()}`;
}

interface Target {
  name: string;
  measured: string;
  goal: string;
  pass: boolean | undefined;
}

/**
 * A throughput ratio as the targets judge it: round by round (both contenders ran in the same
 * round, one after the other, under the same load), then the median. The load other work puts on
 * the machine moves a round's rate by a factor of three or more; a ratio of totals weighs each
 * round by its speed, so a quiet stretch that fell on one contender's turns moves it, where one
 * round moves the median of seven by little.
 */
function pairedRatio(ours: HttpResult, theirs: HttpResult): number {
  return median(ours.rounds.map((rate, round) => rate / (theirs.rounds[round] as number)));
}
const pairedName = 'median of per-round ratios';
/** The judged ratio, then the ratio of the totals over all rounds, so that both are in view. */
const pairedMeasured = (value: number, ours: HttpResult, theirs: HttpResult) =>
  `${ratio(value)} (totals ${ratio(ours.rps / theirs.rps)})`;

/**
 * A stream contender's rate over all its rounds: every flood has the same number of updates, so
 * the total over the total time is the harmonic mean of the rounds' rates.
 */
const totalRate = (row: StreamResult) => {
  const rates = row.rates.filter(Number.isFinite);
  return rates.length / rates.reduce((sum, rate) => sum + 1 / rate, 0);
};
/** Milliseconds shown in microseconds: loopback latencies are a fraction of a millisecond. */
const micros = (milliseconds: number) => `${count(milliseconds * 1000)} µs`;

const verdict = (pass: boolean | undefined) => (pass === undefined ? 'n/a' : pass ? 'PASS' : 'MISS');

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

async function main(): Promise<string> {
  const started = performance.now();
  const out: string[] = [];
  const targets: Target[] = [];
  out.push(`Machine: ${machine()}${quick ? ' — QUICK MODE, figures meaningless' : ''}`);

  let signing: SigningResult[] | undefined;
  if (sections.has('signing')) {
    log('signing…');
    signing = await runSigning(
      quick
        ? { sizes: [100], rounds: 1, roundMs: 30 }
        : { sizes: [100, 1024, 10240], rounds: 9, roundMs: 300 },
    );
  }

  let http: HttpResult[] | undefined;
  if (sections.has('http')) {
    log('end to end…');
    if (values.before) await addBeforeContender(values.before);
    http = await runHttp(
      quick
        ? {
            concurrencies: [1],
            rounds: 1,
            roundMs: 150,
            warmupMs: 50,
            maxRequestsPerRound: 2000,
            only: ['client'],
            client: 'bundled',
            log,
          }
        : {
            // 256: more calls than the pool has connections (they queue in the client).
            concurrencies: [1, 64, 256],
            rounds: 7,
            roundMs: 1500,
            warmupMs: 500,
            maxRequestsPerRound: 1_000_000,
            log,
          },
    );
  }

  let streams: StreamResult[] | undefined;
  if (sections.has('streams')) {
    log('streams…');
    streams = await runStreams(
      quick
        ? {
            rounds: 1,
            slices: 1,
            floodUpdates: 200,
            pacedUpdates: 20,
            intervalMs: 1,
            client: 'bundled',
            log,
          }
        : { rounds: 7, slices: 4, floodUpdates: 50_000, pacedUpdates: 1000, intervalMs: 1, log },
    );
  }

  let limiter: LimiterResult[] | undefined;
  if (sections.has('limiter')) {
    log('rate limiter…');
    limiter = runLimiter({ concurrencies: [1, 64, 256], rounds: 7, callsPerRound: 200_000 });
  }

  let hooks: HooksResult | undefined;
  if (sections.has('hooks')) {
    log('hooks…');
    hooks = await runHooks({ rounds: 15, callsPerRound: 100_000 });
  }

  let runtimes: RuntimeResult[] | undefined;
  if (sections.has('runtimes')) {
    log('bun and deno…');
    runtimes = await runRuntimes({ rounds: 5, roundMs: 1500 });
  }

  let size: SizeResult | undefined;
  if (sections.has('size')) {
    log('size…');
    size = await runSize();
  }

  let startup: StartupResult | undefined;
  if (sections.has('startup')) {
    log('start-up…');
    startup = await runStartup({ runs: 9 });
  }

  let pipeline: PipelineResult[] | undefined;
  if (sections.has('pipeline')) {
    log('pipeline…');
    pipeline = await runPipeline({ timeoutMs: 60_000, contractTimeoutMs: 90_000 });
  }

  let growth: GrowthResult | undefined;
  if (sections.has('growth')) {
    const extra = Number(values.extra);
    const rounds = Number(values.rounds);
    if (!Number.isInteger(extra) || extra < 1 || !Number.isInteger(rounds) || rounds < 1)
      throw new Error('--extra and --rounds take a whole number of at least 1');
    log(`growth: ${extra} operations added, ${rounds} interleaved rounds…`);
    growth = await runGrowth({ extra, rounds, timeoutMs: 600_000, log });
  }

  // Targets.
  if (http) {
    // What a bare HMAC of a small body costs, for the CPU target: the signing section's own
    // measurement when it ran, else a short one of its own.
    const bare = (signing ?? (await runSigning({ sizes: [100], rounds: 3, roundMs: 200 }))).find(
      (row) => row.id === 'bare' && row.bytes === 100,
    );
    const bareHmacMicros = bare ? 1e6 / bare.perSecond : Number.NaN;
    for (const concurrency of [...new Set(http.map((row) => row.concurrency))]) {
      const at = (id: string) => http?.find((row) => row.id === id && row.concurrency === concurrency);
      const client = at('client');
      const ccxt = at('ccxt');
      const undici = at('undici');
      const dispatch = at('dispatch');
      // The Pool.request target is set at 1 and 64, ccxt's at 64 only: at 1 every contender waits
      // on the server's wake-up as much as on its own work (see "The machine" above); 256 shows
      // behaviour past the pool.
      const targeted = concurrency !== 256;
      if (client && dispatch) {
        // Reported, not judged: (b') signs nothing and parses nothing, which no signed call can skip.
        const value = pairedRatio(client, dispatch);
        targets.push({
          name: `client throughput vs undici's bare dispatch (b'), ${pairedName}, concurrency ${concurrency}`,
          measured: pairedMeasured(value, client, dispatch),
          goal: 'reported',
          pass: undefined,
        });
        // Round by round (both ran in the same round, under the same load), then the median.
        const extra = median(client.roundCpu.map((cpu, round) => cpu - (dispatch.roundCpu[round] as number)));
        const allowed = 15 + bareHmacMicros;
        targets.push({
          name: `client CPU per call over (b'), median of per-round differences, concurrency ${concurrency}`,
          measured: `${fixed(extra, 1)} µs`,
          goal: `≤ 15 µs + a bare HMAC (${fixed(bareHmacMicros, 1)} µs) = ${fixed(allowed, 1)} µs`,
          pass: extra <= allowed,
        });
      }
      const again = at('dispatch-again');
      if (dispatch && again) {
        // Not a target: two contenders running the same code, whose ratio would be 1.00x on a
        // bench that resolved every difference. How far it lands from 1.00x, and how far its
        // rounds spread, is how fine a ratio this run can tell.
        const ratios = again.rounds.map((rate, round) => rate / (dispatch.rounds[round] as number));
        targets.push({
          name: `bench resolution: (b') against itself ((b'2), the same code), ${pairedName} (their range), concurrency ${concurrency}`,
          measured: `${ratio(median(ratios))} (${ratio(Math.min(...ratios))} to ${ratio(Math.max(...ratios))})`,
          goal: 'reported',
          pass: undefined,
        });
      }
      const signedDispatch = at('dispatch-signed');
      if (client && signedDispatch) {
        // The honest limit: the least code that signs and parses every call, as the client must.
        const value = pairedRatio(client, signedDispatch);
        targets.push({
          name: `client throughput vs (b''), dispatch signing and parsing every call, ${pairedName}, concurrency ${concurrency}`,
          measured: pairedMeasured(value, client, signedDispatch),
          goal: '≥ 1.0x',
          pass: value >= 1,
        });
        const extra = median(
          client.roundCpu.map((cpu, round) => cpu - (signedDispatch.roundCpu[round] as number)),
        );
        targets.push({
          name: `client CPU per call over (b''), median of per-round differences, concurrency ${concurrency}`,
          measured: `${fixed(extra, 1)} µs`,
          goal: 'reported',
          pass: undefined,
        });
      }
      if (client && ccxt) {
        const value = pairedRatio(client, ccxt);
        targets.push({
          name: `client throughput vs ccxt, ${pairedName}, concurrency ${concurrency}`,
          measured: pairedMeasured(value, client, ccxt),
          goal: concurrency === 64 ? '≥ 4x' : 'reported',
          pass: concurrency === 64 ? value >= 4 : undefined,
        });
      }
      if (client && undici) {
        const value = pairedRatio(client, undici);
        targets.push({
          name: `client throughput vs undici Pool.request limit, ${pairedName}, concurrency ${concurrency}`,
          measured: pairedMeasured(value, client, undici),
          goal: targeted ? '≥ 0.8x' : 'reported',
          pass: targeted ? value >= 0.8 : undefined,
        });
      }
      const limited = at('client-limited');
      if (client && limited) {
        // Its spread is wider than the target, which is judged in process (the limiter section).
        const differences = limited.roundCpu.map((cpu, round) => cpu - (client.roundCpu[round] as number));
        targets.push({
          name: `rate limiter's cost per call end to end (CPU, median of per-round differences, their range), concurrency ${concurrency}`,
          measured: `${fixed(median(differences))} µs (${fixed(Math.min(...differences))} to ${fixed(Math.max(...differences))})`,
          goal: 'reported',
          pass: undefined,
        });
      }
    }
  }
  if (streams) {
    const at = (id: string) => streams?.find((row) => row.id === id);
    const client = at('client');
    const again = at('client-again');
    const ccxt = at('ccxt');
    targets.push({
      name: "stream consumers applied every update: each one's book equals the server's after every phase",
      measured: streams.map((row) => `${row.id} ${row.matchingPhases}/${row.phases}`).join(', '),
      goal: 'every phase',
      pass: streams.every((row) => row.phases > 0 && row.matchingPhases === row.phases),
    });
    // A client that missed an update wins nothing, however fast.
    const clientWhole = client !== undefined && client.phases > 0 && client.matchingPhases === client.phases;
    if (client && ccxt) {
      const throughput = pairedStreamRatio(client.rates, ccxt.rates);
      targets.push({
        name: `stream client depth updates parsed and applied per second vs ccxt.pro, ${pairedName}`,
        measured: `${ratio(throughput)} (totals ${ratio(totalRate(client) / totalRate(ccxt))})`,
        goal: '≥ 1.0x',
        pass: clientWhole && throughput >= 1,
      });
      for (const [name, ours, theirs, pooled] of [
        ['p50', client.roundP50, ccxt.roundP50, 50],
        ['p99', client.roundP99, ccxt.roundP99, 99],
      ] as const) {
        const value = pairedStreamRatio(ours, theirs);
        targets.push({
          name: `stream client delivery latency ${name} vs ccxt.pro, ${pairedName}`,
          measured: `${ratio(value)} (all rounds: ${micros(percentile(client.latencies, pooled))} vs ${micros(percentile(ccxt.latencies, pooled))})`,
          goal: '≤ 1.0x',
          pass: clientWhole && value <= 1,
        });
      }
    }
    if (client && again) {
      // Not a target: the same client on two connections, whose ratios would be 1.00x on a bench
      // that resolved every difference. How far they land from it is how fine a ratio this run can tell.
      for (const [name, ours, theirs] of [
        ['updates per second', again.rates, client.rates],
        ['latency p50', again.roundP50, client.roundP50],
        ['latency p99', again.roundP99, client.roundP99],
      ] as const) {
        const ratios = ours.map((value, round) => value / (theirs[round] as number)).filter(Number.isFinite);
        targets.push({
          name: `stream bench resolution: (a) against itself ((a2), the same code), ${name}, ${pairedName} (their range)`,
          measured: `${ratio(median(ratios))} (${ratio(Math.min(...ratios))} to ${ratio(Math.max(...ratios))})`,
          goal: 'reported',
          pass: undefined,
        });
      }
    }
  }
  if (limiter) {
    for (const row of limiter) {
      targets.push({
        name: `rate limiter's own cost per call (its bookkeeping in process), concurrency ${row.concurrency}`,
        measured: `${fixed(row.microsPerCall, 3)} µs`,
        goal: '< 5 µs',
        pass: row.microsPerCall < 5,
      });
    }
  }
  if (signing) {
    const worst = Math.min(...signing.filter((row) => row.id === 'node').map((row) => row.ratio));
    targets.push({
      name: "signing (default 'node' signer) vs bare HMAC, worst body size",
      measured: ratio(worst),
      goal: '≥ 0.9x',
      pass: worst >= 0.9,
    });
  }
  if (hooks) {
    // Nothing extra: the difference is no larger than the rounds' own noise, or than 2% of a call.
    const allowed = Math.max(hooks.noise, 0.02 * hooks.compiledOut);
    targets.push({
      name: 'hooks unset vs hook points compiled out, in process (CPU per call, median of per-round differences)',
      measured: `${fixed(hooks.unsetCost, 3)} µs (noise ±${fixed(hooks.noise, 3)} µs)`,
      goal: `≤ ${fixed(allowed, 3)} µs (the noise, or 2% of a call)`,
      pass: hooks.unsetCost <= allowed,
    });
  }
  if (size) {
    targets.push({
      name: "full client's entry (what importing the package loads), minified + gzipped",
      measured: kb(size.entry),
      goal: '≤ 8 KB',
      pass: size.entry <= 8 * 1024,
    });
    targets.push({
      name: 'an app importing only createSigningMiddleware (txc-api-v4/middleware), minified + gzipped',
      measured: kb(size.middleware),
      goal: '≤ 2.5 KB',
      pass: size.middleware <= 2.5 * 1024,
    });
  }
  if (startup) {
    targets.push({
      name: 'import + create client vs ccxt',
      measured: ratio(startup.ratio),
      goal: '< 0.1x',
      pass: startup.ratio < 0.1,
    });
  }

  out.push('', '#### Targets', '');
  out.push(
    table(
      ['target', 'measured', 'goal', 'result'],
      targets.map((target) => [target.name, target.measured, target.goal, verdict(target.pass)]),
    ),
  );

  if (http) {
    out.push('', '#### End to end: signed main-balance call on loopback', '');
    const rows = http.map((row) => {
      const peer = (id: string) =>
        http?.find((other) => other.id === id && other.concurrency === row.concurrency);
      const undici = peer('undici');
      const dispatch = peer('dispatch');
      const ccxt = peer('ccxt');
      return [
        row.label,
        String(row.concurrency),
        count(row.rps),
        `${count(Math.min(...row.rounds))}–${count(Math.max(...row.rounds))}`,
        ms(row.p50),
        ms(row.p99),
        dispatch ? ratio(row.rps / dispatch.rps) : 'n/a',
        undici ? ratio(row.rps / undici.rps) : 'n/a',
        ccxt ? ratio(row.rps / ccxt.rps) : 'n/a',
        `${count(row.cpuPerRequest)} µs`,
        String(row.errors),
      ];
    });
    out.push(
      table(
        [
          'contender',
          'conc.',
          'req/s',
          'rounds min–max',
          'p50',
          'p99',
          "vs (b')",
          'vs (b)',
          'vs (d)',
          'CPU/req',
          'errors',
        ],
        rows,
      ),
    );
  }

  if (streams) {
    out.push('', '#### Streams: a depth order book kept on loopback', '');
    const ccxt = streams.find((row) => row.id === 'ccxt');
    out.push(
      table(
        [
          'contender',
          'updates/s',
          'rounds min–max',
          'vs (c)',
          'CPU/update',
          'latency p50',
          'latency p99',
          'phases matching the server',
        ],
        streams.map((row) => {
          const finite = row.rates.filter(Number.isFinite);
          return [
            row.label,
            count(totalRate(row)),
            `${count(Math.min(...finite))}–${count(Math.max(...finite))}`,
            ccxt ? ratio(totalRate(row) / totalRate(ccxt)) : 'n/a',
            `${fixed(median(row.roundCpu), 1)} µs`,
            micros(percentile(row.latencies, 50)),
            micros(percentile(row.latencies, 99)),
            `${row.matchingPhases}/${row.phases}`,
          ];
        }),
      ),
    );
    const failures = streams.flatMap((row) => row.failures.map((failure) => `- ${row.id}: ${failure}`));
    if (failures.length > 0) out.push('', 'Phases that failed:', '', ...failures.slice(0, 20));
  }

  if (signing) {
    out.push('', '#### Signing: signatures per second', '');
    out.push(
      table(
        ['signer', 'body', 'signatures/s', 'vs bare'],
        signing.map((row) => [row.label, `${row.bytes} B`, count(row.perSecond), ratio(row.ratio)]),
      ),
    );
  }

  if (runtimes) {
    out.push('', "#### Bun and Deno: our built client against the runtime's raw fetch", '');
    out.push(
      table(
        [
          'runtime',
          'conc.',
          'our client req/s',
          'raw fetch, signing every call, req/s',
          'raw fetch, precomputed, req/s',
          'ours vs signing raw',
          'ours vs precomputed raw',
        ],
        runtimes.map((row) => [
          row.runtime,
          String(row.concurrency),
          count(row.ours),
          count(row.signed),
          count(row.raw),
          ratio(row.ratioSigned),
          ratio(row.ratio),
        ]),
      ),
    );
  }

  if (hooks) {
    out.push('', '#### Hooks: CPU per call in process (built engine, a transport that answers at once)', '');
    out.push(
      table(
        ['engine', 'CPU per call'],
        [
          ['hook points compiled out', `${fixed(hooks.compiledOut, 2)} µs`],
          ['hooks unset (a client without the option)', `${fixed(hooks.unset, 2)} µs`],
          ['a no-op function on each of the seven hooks', `${fixed(hooks.everyHook, 2)} µs`],
        ],
      ),
    );
  }

  if (size) {
    out.push('', `#### Size: esbuild bundles of the built package (node, ESM, minified, gzipped)`, '');
    const withClient = Object.entries(size.loadedWithClient).sort((a, b) => b[1] - a[1]);
    // A client loads one transport: the fetch one only on other runtimes or with a `fetch` option.
    // The answer checks (src/validation.ts and the answer contracts it reads) load only with the
    // `validate` option, so they are not part of what every Node client has loaded.
    const fetchTransport = 'dist/src/transport/fetch.js';
    const onlyWithValidate = new Set(['dist/src/validation.js', 'dist/generated/responses.js']);
    const note = (input: string) =>
      input === fetchTransport
        ? ' (instead of undici: other runtimes, or a fetch option)'
        : onlyWithValidate.has(input)
          ? ' (only with the validate option)'
          : '';
    const loadedTotal = withClient
      .filter(([input]) => input !== fetchTransport && !onlyWithValidate.has(input))
      .reduce((sum, [, bytes]) => sum + bytes, 0);
    out.push(
      table(
        ['part', 'gzipped'],
        [
          [`importing the package (${builtEntry}: its chunk and the chunks it imports)`, kb(size.entry)],
          ...withClient.map(([input, bytes]) => [
            `  loaded when a client is made: ${input}${note(input)}`,
            kb(bytes),
          ]),
          ['  what a Node client has loaded in all', kb(size.entry + loadedTotal)],
          [`only the middleware (${builtMiddleware})`, kb(size.middleware)],
          [
            `route table (${size.routes.operations} operations; loaded with the client) / with ${size.routes.grownTo} operations`,
            `${kb(size.routes.bytes)} / ${kb(size.routes.grown)}`,
          ],
          ['undici (loaded with the Node transport)', kb(size.undici)],
          ['whole bundle, undici included, openapi-fetch not', kb(size.total)],
        ],
      ),
    );
    out.push(
      '',
      `Own files, minified bytes: ${Object.entries(size.minifiedOwnFiles)
        .sort((a, b) => b[1] - a[1])
        .map(([file, bytes]) => `${file} ${bytes}`)
        .join(', ')}.`,
    );
  }

  if (startup) {
    out.push('', `#### Start-up: fresh process, median of ${startup.runs}`, '');
    out.push(
      table(
        ['subject', 'import + create client', '… + first signed call', 'process wall time (spawn to exit)'],
        [
          [
            'our client (built package, dist/)',
            ms(startup.ours.ms),
            ms(startup.ours.firstCallMs),
            ms(startup.ours.wallMs),
          ],
          [
            'ccxt + new ccxt.whitebit()',
            ms(startup.ccxt.ms),
            ms(startup.ccxt.firstCallMs),
            ms(startup.ccxt.wallMs),
          ],
          ['`txc ping` against the sandbox (built bin)', '–', '–', ms(startup.txcPingWallMs)],
        ],
      ),
    );
  }

  if (pipeline) {
    out.push('', '#### Pipeline: wall time', '');
    out.push(
      table(
        ['command', 'wall'],
        pipeline.map((row) => [
          row.command,
          row.seconds !== undefined ? `${fixed(row.seconds, 1)} s` : (row.note ?? 'n/a'),
        ]),
      ),
    );
  }

  if (growth) {
    const { base, grown } = growth.operations;
    out.push(
      '',
      `#### Growth: seconds per added operation (${base} and ${grown} operations, median of ${growth.rounds} interleaved rounds)`,
      '',
    );
    const figure = (value: number, row: { note?: string }) => (row.note ? 'n/a' : fixed(value, 1));
    const slope = (value: number, row: { note?: string }) => (row.note ? 'n/a' : fixed(value, 2));
    const sum = (key: 'wallPerOperation' | 'cpuPerOperation') =>
      growth?.rows.some((row) => row.note)
        ? 'n/a'
        : fixed(
            (growth?.rows ?? []).reduce((total, row) => total + row[key], 0),
            2,
          );
    out.push(
      table(
        [
          'stage',
          `wall, ${base} ops`,
          `wall, ${grown} ops`,
          'wall s per op',
          `CPU, ${base} ops`,
          `CPU, ${grown} ops`,
          'CPU s per op',
          'note',
        ],
        [
          ...growth.rows.map((row) => [
            row.stage,
            figure(row.wall.base, row),
            figure(row.wall.grown, row),
            slope(row.wallPerOperation, row),
            figure(row.cpu.base, row),
            figure(row.cpu.grown, row),
            slope(row.cpuPerOperation, row),
            row.note ?? '',
          ]),
          ['sum', '', '', sum('wallPerOperation'), '', '', sum('cpuPerOperation'), ''],
        ],
      ),
    );
    out.push(
      '',
      `Added: ${growth.added.map((operation) => `${operation.operationId} (a copy of ${operation.model})`).join(', ')}.`,
    );
  }

  out.push('', `Bench wall time: ${fixed((performance.now() - started) / 1000, 0)} s.`);
  return out.join('\n');
}

function writeReadme(markdown: string): void {
  const readme = readFileSync(readmePath, 'utf8');
  const start = readme.indexOf(startMarker);
  const end = readme.indexOf(endMarker);
  if (start < 0 || end < start)
    throw new Error(`bench/README.md has no ${startMarker} … ${endMarker} markers`);
  writeFileSync(
    readmePath,
    `${readme.slice(0, start + startMarker.length)}\n${markdown}\n${readme.slice(end)}`,
  );
}

try {
  const markdown = await main();
  console.log(markdown);
  if (values.write) {
    writeReadme(markdown);
    log('bench/README.md updated');
  }
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
