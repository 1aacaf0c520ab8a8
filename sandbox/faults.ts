// Fault injection for retry tests: drop the connection, delay, or answer 503, for chosen
// operations, deterministically (the first N matching requests, or a seeded rate).
import { type OperationId, operations } from '../generated/operations.ts';

/** A count (an integer >= 1: the first N matching requests) or a rate (0 < r < 1, seeded). */
export type FaultAmount = number | { count: number } | { rate: number };

export interface FaultOptions {
  /** Destroy the socket without an answer. */
  dropConnections?: FaultAmount;
  /** `before` (default): the request is not processed; `after`: processed, then the answer is lost. */
  dropPhase?: 'before' | 'after';
  /** Answer 503 without processing the request. */
  status5xx?: FaultAmount;
  /** Wait this long before handling each matching request. */
  delayMs?: number;
  /** The operationIds the faults apply to (default: all). */
  operations?: OperationId[];
  /** Seed of the rate faults' pseudo-random sequence (default 1). */
  seed?: number;
}

export type FaultDecision = 'drop-before' | 'drop-after' | 'unavailable' | 'none';

/** mulberry32: a small, seedable PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normalizeAmount(
  amount: FaultAmount | undefined,
  what: string,
): { count: number } | { rate: number } | undefined {
  if (amount === undefined) return undefined;
  if (typeof amount === 'number') {
    if (!(amount > 0)) throw new Error(`${what}: expected a count >= 1 or a rate in (0, 1)`);
    return amount < 1 ? { rate: amount } : { count: Math.floor(amount) };
  }
  if ('count' in amount) return { count: amount.count };
  if (!(amount.rate >= 0 && amount.rate <= 1)) throw new Error(`${what}: rate must be within [0, 1]`);
  return { rate: amount.rate };
}

export class Faults {
  readonly options: FaultOptions;
  readonly #drop: { count: number } | { rate: number } | undefined;
  readonly #unavailable: { count: number } | { rate: number } | undefined;
  readonly #random: () => number;
  /** How many faults of each kind were injected so far. */
  readonly injected = { dropped: 0, unavailable: 0, delayed: 0 };

  constructor(options: FaultOptions = {}) {
    for (const operationId of options.operations ?? []) {
      if (!(operationId in operations)) throw new Error(`faults: unknown operation ${operationId}`);
    }
    if (options.delayMs !== undefined && !(options.delayMs >= 0))
      throw new Error('faults: delayMs must be >= 0');
    this.options = options;
    this.#drop = normalizeAmount(options.dropConnections, 'dropConnections');
    this.#unavailable = normalizeAmount(options.status5xx, 'status5xx');
    this.#random = prng(options.seed ?? 1);
  }

  applies(operationId: string): boolean {
    return !this.options.operations || (this.options.operations as readonly string[]).includes(operationId);
  }

  delayMs(operationId: string): number {
    const delay = this.applies(operationId) ? (this.options.delayMs ?? 0) : 0;
    if (delay > 0) this.injected.delayed++;
    return delay;
  }

  #fires(amount: { count: number } | { rate: number } | undefined): boolean {
    if (!amount) return false;
    if ('count' in amount) {
      if (amount.count <= 0) return false;
      amount.count--;
      return true;
    }
    return this.#random() < amount.rate;
  }

  /** Decides, in arrival order, what happens to one matching request. */
  decide(operationId: string): FaultDecision {
    if (!this.applies(operationId)) return 'none';
    if (this.#fires(this.#drop)) {
      this.injected.dropped++;
      return this.options.dropPhase === 'after' ? 'drop-after' : 'drop-before';
    }
    if (this.#fires(this.#unavailable)) {
      this.injected.unavailable++;
      return 'unavailable';
    }
    return 'none';
  }
}

/** Parses SANDBOX_FAULTS (JSON); undefined when unset or empty. */
export function faultsFromEnvironment(text: string | undefined): FaultOptions | undefined {
  if (!text?.trim()) return undefined;
  const parsed: unknown = JSON.parse(text);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error('SANDBOX_FAULTS must be a JSON object');
  }
  return parsed as FaultOptions;
}
