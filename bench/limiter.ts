// The rate limiter's own cost per call, measured where a few microseconds can be resolved: in
// process, the bookkeeping the client does around every call while the limiter is on (its
// window looked up, a permit taken without waiting, given back once the answer is in), with as
// many permits held at once as there are calls in flight. End to end, the same cost is the
// difference between contenders (a') and (a), whose spread from round to round is larger than
// the cost itself.
import { operations } from '../generated/operations.ts';
import { rateWindow } from '../src/rate-window.ts';
import { median } from './stats.ts';

export interface LimiterResult {
  concurrency: number;
  /** Median over the rounds of the wall time per call, µs (one thread, nothing else runs). */
  microsPerCall: number;
}

export interface LimiterOptions {
  concurrencies: number[];
  rounds: number;
  callsPerRound: number;
}

/** The route as the client passes it to its windows: the main-balance call the end-to-end bench makes. */
const route = operations.getMainBalance;
/** As contender (a'): a limit so high that no call ever waits, so only the bookkeeping is timed. */
const limits = { [route.operationId]: { requests: 1_000_000_000, windowSeconds: 10 } };

function round(concurrency: number, calls: number, scope: string): number {
  // A scope of its own per round: a fresh window, as a new API key would get. The client finds
  // the window once per route and keeps it; a permit is taken and given back on every call.
  const window = rateWindow(scope, { limits }, route);
  if (!window) throw new Error('the limiter is off');
  let held = 0;
  const started = performance.now();
  for (let call = 0; call < calls; call++) {
    if (!window.tryTake()) throw new Error('the limiter made a call wait: the limit is too low to time it');
    // The call `concurrency` calls ago has its answer now: its permit goes back.
    if (held === concurrency) window.give();
    else held++;
  }
  const elapsed = performance.now() - started;
  for (; held > 0; held--) window.give();
  return (elapsed * 1000) / calls;
}

export function runLimiter(options: LimiterOptions): LimiterResult[] {
  return options.concurrencies.map((concurrency) => {
    const rounds = Array.from({ length: options.rounds }, (_, index) =>
      round(concurrency, options.callsPerRound, `bench-limiter:${concurrency}:${index}`),
    );
    return { concurrency, microsPerCall: median(rounds) };
  });
}
