// Streams on loopback: a market's order book kept from the depth channel, read from
// bench/stream-server.ts in its own child process, by each contender on a connection of its own.
// A round is a few slices; in each slice every contender takes a turn, in a rotated order, so that
// the contenders of a round run close together in time, under much the same load. A turn is two
// phases, each starting with a whole book (bench/depth-stream.ts; the same frames for every
// contender of a slice):
// - a flood of changes, sent as fast as the consumer takes them: updates parsed and applied per
//   second, from the whole book applied to the last change applied, and the CPU this process spent
//   per update;
// - changes paced a millisecond apart: each one's delivery latency, from the server's send to the
//   consumer having it, on the clock both processes share (bench/clock.ts).
// After each phase the contender's book must equal the server's, level for level, and it must
// have applied every update of the phase: a consumer that drops updates cannot come out ahead.
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { monotonicMicros } from './clock.ts';
import {
  bookDifference,
  type DepthMarket,
  depthLimit,
  type HeldBook,
  type HeldLevel,
  sequenceOf,
} from './depth-stream.ts';
import { type ClientBuild, streamsPackage } from './package.ts';
import { median, percentile } from './stats.ts';
import type { PhaseCommand, ServerMessage } from './stream-server.ts';

/** The market streamed: the sandbox's BTC_USDT, at its precision (sandbox/fixture.json). */
const fixtureMarket = (
  JSON.parse(readFileSync(new URL('../sandbox/fixture.json', import.meta.url), 'utf8')) as {
    markets: Record<string, unknown>[];
  }
).markets.find((market) => market.name === 'BTC_USDT') as Record<string, string>;
export const market: DepthMarket = {
  name: fixtureMarket.name as string,
  price: fixtureMarket.price as string,
  moneyPrec: Number(fixtureMarket.moneyPrec),
  stockPrec: Number(fixtureMarket.stockPrec),
  minAmount: fixtureMarket.minAmount as string,
};

/** What a contender reports of its consumer. */
interface Consumer {
  /** Its book as it stands; undefined before the first whole book. */
  book(): HeldBook | undefined;
  /** What went wrong that a consumer should not see on loopback (a resnapshot, an error). */
  readonly failures: string[];
  close(): Promise<void>;
}

/** Called with the book's timestamp in milliseconds each time the consumer has applied an update. */
type Watch = (millis: number) => void;

export interface StreamContender {
  id: string;
  label: string;
  open(url: string, build: ClientBuild, watch: Watch): Promise<Consumer>;
}

const ours = (id: string, label: string): StreamContender => ({
  id,
  label,
  async open(url, build, watch) {
    const { createStreamClient, watchOrderBook } = await streamsPackage(build);
    const failures: string[] = [];
    const client = createStreamClient({
      url,
      hooks: { error: [({ errorKind, error }) => failures.push(`${errorKind}: ${error.message}`)] },
    });
    const books = watchOrderBook(client, {
      market: market.name,
      limit: depthLimit,
      hooks: { resnapshot: [({ error }) => failures.push(`resnapshot: ${error.message}`)] },
    });
    let held: HeldBook | undefined;
    // What a user of the stream client writes: a loop over the books, each one updated in place.
    const loop = (async () => {
      for await (const book of books) {
        held = book;
        watch((book.timestamp as number) * 1000);
      }
    })();
    loop.catch((error: unknown) => failures.push(`the loop ended: ${String(error)}`));
    return {
      book: () => held,
      failures,
      close: async () => {
        await client.close();
        await loop.catch(() => undefined);
      },
    };
  },
});

/** ccxt.pro's whitebit exchange, as far as the bench uses it. */
interface CcxtProWhitebit {
  urls: { api: { ws: string } };
  orderbooks: Record<string, { timestamp: number; asks: HeldLevel[]; bids: HeldLevel[] }>;
  handleOrderBook(client: unknown, message: unknown): void;
  parseMarkets(markets: unknown[]): unknown[];
  setMarkets(markets: unknown[]): void;
  watchOrderBook(symbol: string, limit?: number): Promise<unknown>;
  loadHttpProxyAgent(): Promise<unknown>;
  close(): Promise<void>;
}

const ccxtPro: StreamContender = {
  id: 'ccxt',
  label: '(c) ccxt.pro whitebit watchOrderBook',
  async open(url, _build, watch) {
    const { default: ccxt } = await import('ccxt');
    const exchange = new ccxt.pro.whitebit({ enableRateLimit: false }) as unknown as CcxtProWhitebit;
    // Its one WebSocket URL (pro/whitebit.js: urls.api.ws), and its markets parsed from the same
    // listing its loadMarkets reads, without the HTTP call.
    exchange.urls.api.ws = url;
    // On Node, ccxt opens a ws:// (not wss://) URL only with an HTTP agent it loads first.
    await exchange.loadHttpProxyAgent();
    const [parsed] = exchange.parseMarkets([fixtureMarket]);
    exchange.setMarkets([parsed]);
    const symbol = (parsed as { symbol: string }).symbol;
    // Watched as ccxt has applied each update: its watchOrderBook resolves a moment later, and a
    // burst of updates read at once resolves it once, for the last of them. Any difference this
    // makes leans towards ccxt. Which update it was is read from the frame ccxt parsed: its book
    // keeps no timestamp after a whole book (its parseOrderBook is given none).
    const apply = exchange.handleOrderBook;
    exchange.handleOrderBook = function (this: CcxtProWhitebit, client, message) {
      apply.call(this, client, message);
      const [, book] = (message as { params: [unknown, { timestamp: number }] }).params;
      watch(book.timestamp * 1000);
    };
    const failures: string[] = [];
    let closing = false;
    // What a user of ccxt.pro writes: a loop awaiting the next book.
    const loop = (async () => {
      for (;;) await exchange.watchOrderBook(symbol, depthLimit);
    })();
    loop.catch((error: unknown) => {
      if (!closing) failures.push(`the loop ended: ${String(error)}`);
    });
    return {
      book: () => exchange.orderbooks[symbol],
      failures,
      close: async () => {
        closing = true;
        await exchange.close();
        await loop.catch(() => undefined);
      },
    };
  },
};

export const streamContenders: StreamContender[] = [
  ours('client', '(a) the stream client, watchOrderBook'),
  ours('client-again', "(a2) (a) again, on a connection of its own: the bench's resolution"),
  ccxtPro,
];

/** When a consumer first held each update of one phase, on the shared clock, and how many it applied. */
class PhaseWatch {
  readonly heldAt: Float64Array;
  readonly done: Promise<void>;
  /** Updates of this phase applied. */
  applied = 0;
  private last = -1;
  private finish: () => void = () => undefined;
  private readonly phase: number;
  private readonly updates: number;

  constructor(phase: number, updates: number) {
    this.phase = phase;
    this.updates = updates;
    this.heldAt = new Float64Array(updates + 1).fill(Number.NaN);
    this.done = new Promise((resolve) => {
      this.finish = resolve;
    });
  }

  observe(millis: number): void {
    const sequence = sequenceOf(this.phase, millis);
    if (sequence < 0 || sequence > this.updates) return;
    this.applied++;
    if (sequence <= this.last) return;
    // A book holding an update holds every one before it: those skipped are held from now too.
    const now = monotonicMicros();
    for (let index = this.last + 1; index <= sequence; index++) this.heldAt[index] = now;
    this.last = sequence;
    if (sequence === this.updates) this.finish();
  }
}

interface StreamServer {
  url(consumer: string): string;
  /** Waits until `consumer` has subscribed. */
  subscribed(consumer: string): Promise<void>;
  run(command: PhaseCommand): Promise<Extract<ServerMessage, { type: 'phase' }>>;
  stop(): void;
}

/** How long the server may take to start, a consumer to subscribe, or a phase to end. */
const startLimitMs = 30_000;
const phaseLimitMs = 120_000;

function withLimit<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** Starts bench/stream-server.ts in a child process (it ends with this one). */
async function startStreamServer(): Promise<StreamServer> {
  const script = fileURLToPath(new URL('./stream-server.ts', import.meta.url));
  const child: ChildProcess = fork(script, [JSON.stringify(market)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    // Typed arrays (the send times) cross as they are.
    serialization: 'advanced',
  });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', stop);
  const subscribed = new Set<string>();
  const waiting = new Map<string, () => void>();
  let phaseWaiter: ((message: ServerMessage) => void) | undefined;
  let exited: Error | undefined;
  const listening = new Promise<{ port: number; address: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      exited = new Error(`the stream server exited (${code})`);
      reject(exited);
      phaseWaiter?.({ type: 'failed', phase: -1, reason: exited.message });
    });
    child.on('message', (message: ServerMessage) => {
      if (message.type === 'listening') resolve(message);
      else if (message.type === 'subscribed') {
        subscribed.add(message.consumer);
        waiting.get(message.consumer)?.();
      } else phaseWaiter?.(message);
    });
  });
  const { port, address } = await withLimit(listening, startLimitMs, 'the stream server').catch((error) => {
    stop();
    throw error;
  });
  return {
    url: (consumer) => `ws://127.0.0.1:${port}${address}?consumer=${encodeURIComponent(consumer)}`,
    subscribed: (consumer) =>
      withLimit(
        new Promise<void>((resolve) => {
          if (subscribed.has(consumer)) resolve();
          else waiting.set(consumer, resolve);
        }),
        startLimitMs,
        `${consumer}'s subscription`,
      ),
    run(command) {
      if (exited) return Promise.reject(exited);
      const answer = new Promise<ServerMessage>((resolve) => {
        phaseWaiter = resolve;
      });
      child.send(command);
      return withLimit(answer, phaseLimitMs, `phase ${command.phase} of ${command.consumer}`).then(
        (message) => {
          phaseWaiter = undefined;
          if (message.type !== 'phase')
            throw new Error(message.type === 'failed' ? message.reason : 'no phase');
          return message;
        },
      );
    },
    stop,
  };
}

export interface StreamResult {
  id: string;
  label: string;
  /** Updates parsed and applied per second in each round's flood (NaN where it failed). */
  rates: number[];
  /** This process's CPU per update in each round's flood, µs. */
  roundCpu: number[];
  /** Delivery latency in each round's paced phase, ms. */
  roundP50: number[];
  roundP99: number[];
  /** All rounds' latencies, ms. */
  latencies: number[];
  /** Updates applied in the measured phases, and phases whose book matched the server's. */
  updates: number;
  phases: number;
  matchingPhases: number;
  failures: string[];
}

export interface StreamOptions {
  rounds: number;
  /**
   * Each round's turns: every contender takes one turn a slice, in a rotated order, so that the
   * contenders of a round run close together in time, under much the same load.
   */
  slices: number;
  /** Changes flooded in a round, over its slices. */
  floodUpdates: number;
  /** Changes paced in a round, `intervalMs` apart, over its slices. */
  pacedUpdates: number;
  intervalMs: number;
  only?: string[];
  /** The built package (the default), or the sources bundled by esbuild (--quick). */
  client?: ClientBuild;
  log?: (line: string) => void;
}

export async function runStreams(options: StreamOptions): Promise<StreamResult[]> {
  const chosen = streamContenders.filter((contender) => !options.only || options.only.includes(contender.id));
  const server = await startStreamServer();
  const opened: { contender: StreamContender; consumer: Consumer; watch: PhaseWatch | undefined }[] = [];
  try {
    for (const contender of chosen) {
      const entry: (typeof opened)[number] = {
        contender,
        consumer: undefined as unknown as Consumer,
        watch: undefined,
      };
      entry.consumer = await contender.open(server.url(contender.id), options.client ?? 'built', (millis) =>
        entry.watch?.observe(millis),
      );
      opened.push(entry);
      await server.subscribed(contender.id);
    }
    const results = new Map<string, StreamResult>(
      chosen.map((contender) => [
        contender.id,
        {
          id: contender.id,
          label: contender.label,
          rates: [],
          roundCpu: [],
          roundP50: [],
          roundP99: [],
          latencies: [],
          updates: 0,
          phases: 0,
          matchingPhases: 0,
          failures: [],
        },
      ]),
    );

    /** One phase for one contender: its watch, the server's answer, the book compared. */
    const phase = async (entry: (typeof opened)[number], command: PhaseCommand, result?: StreamResult) => {
      const watch = new PhaseWatch(command.phase, command.updates);
      entry.watch = watch;
      const failuresBefore = entry.consumer.failures.length;
      const cpu = process.cpuUsage();
      const answer = server.run(command);
      let problem: string | undefined;
      try {
        await withLimit(watch.done, phaseLimitMs, `${entry.contender.id} holding the last update`);
      } catch (error) {
        problem = String(error);
      }
      const used = process.cpuUsage(cpu);
      const { book, sentAt } = await answer;
      entry.watch = undefined;
      const { applied } = watch;
      problem ??=
        applied !== command.updates + 1
          ? `applied ${applied} updates of ${command.updates + 1}`
          : bookDifference(book, entry.consumer.book());
      problem ??= entry.consumer.failures.slice(failuresBefore).join('; ') || undefined;
      if (result) {
        result.phases++;
        result.updates += applied;
        if (problem) result.failures.push(`phase ${command.phase} (${command.type}): ${problem}`);
        else result.matchingPhases++;
      }
      return { watch, sentAt, problem, cpuMicros: used.user + used.system };
    };

    /** What one contender did in one round, over its slices. */
    interface Tally {
      failed: boolean;
      floodUpdates: number;
      floodSeconds: number;
      cpuMicros: number;
      latencies: number[];
    }
    const sliceFlood = Math.max(1, Math.round(options.floodUpdates / options.slices));
    const slicePaced = Math.max(1, Math.round(options.pacedUpdates / options.slices));

    /** Slice `number` (0: the warm-up) for one contender: a flood, then paced changes. */
    const slice = async (entry: (typeof opened)[number], number: number, tally?: Tally) => {
      const result = tally ? results.get(entry.contender.id) : undefined;
      const seed = 0x5eed + number * 2;
      const consumer = entry.contender.id;
      const flood = await phase(
        entry,
        { type: 'flood', consumer, seed, phase: 1 + number * 2, updates: sliceFlood },
        result,
      );
      const paced = await phase(
        entry,
        {
          type: 'paced',
          consumer,
          seed: seed + 1,
          phase: 2 + number * 2,
          updates: slicePaced,
          intervalMs: options.intervalMs,
        },
        result,
      );
      if (!tally) return;
      if (flood.problem || paced.problem || !paced.sentAt) {
        tally.failed = true;
        return;
      }
      const { heldAt } = flood.watch;
      tally.floodUpdates += sliceFlood;
      tally.floodSeconds += ((heldAt[sliceFlood] as number) - (heldAt[0] as number)) / 1e6;
      tally.cpuMicros += flood.cpuMicros / (sliceFlood + 1);
      // The changes only: the whole book that opens the phase is not paced.
      for (let index = 1; index <= slicePaced; index++)
        tally.latencies.push(
          ((paced.watch.heldAt[index] as number) - (paced.sentAt[index] as number)) / 1000,
        );
    };

    // Warm up every contender (its path compiled, its connection's buffers grown).
    for (const entry of opened) await slice(entry, 0);
    for (let round = 0; round < options.rounds; round++) {
      const tallies = new Map<string, Tally>(
        opened.map((entry) => [
          entry.contender.id,
          { failed: false, floodUpdates: 0, floodSeconds: 0, cpuMicros: 0, latencies: [] },
        ]),
      );
      for (let part = 0; part < options.slices; part++) {
        const number = 1 + round * options.slices + part;
        for (let index = 0; index < opened.length; index++) {
          const entry = opened[(index + number) % opened.length] as (typeof opened)[number];
          await slice(entry, number, tallies.get(entry.contender.id));
        }
      }
      for (const [id, tally] of tallies) {
        const result = results.get(id) as StreamResult;
        result.rates.push(tally.failed ? Number.NaN : tally.floodUpdates / tally.floodSeconds);
        result.roundCpu.push(tally.cpuMicros / options.slices);
        result.roundP50.push(tally.failed ? Number.NaN : percentile(tally.latencies, 50));
        result.roundP99.push(tally.failed ? Number.NaN : percentile(tally.latencies, 99));
        for (const latency of tally.latencies) result.latencies.push(latency);
      }
      options.log?.(`  streams round ${round + 1}/${options.rounds} done`);
    }
    return [...results.values()];
  } finally {
    for (const entry of opened) await entry.consumer.close().catch(() => undefined);
    server.stop();
  }
}

/** The median of `ours`/`theirs` round by round (both ran in the same round, under the same load). */
export function pairedStreamRatio(ours: readonly number[], theirs: readonly number[]): number {
  return median(ours.map((value, round) => value / (theirs[round] as number)).filter(Number.isFinite));
}
