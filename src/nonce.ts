// Nonces: one strictly increasing sequence per API key for the whole process, shared by every
// client instance (and every copy of this module), so that two clients with the same key never
// collide. Each nonce is the millisecond clock, or one more than the last nonce when the clock
// has not moved on (thousands of calls in one millisecond) or has stepped backwards.

type Sequences = Map<string, { last: number }>;

const registryKey = Symbol.for('txc-api-v4.nonce-sequences');
const globalScope = globalThis as typeof globalThis & { [registryKey]?: Sequences };
const sequences: Sequences = globalScope[registryKey] ?? new Map();
globalScope[registryKey] = sequences;

export type Clock = () => number;

/** The next nonce for this key: a string of digits, greater than every earlier one. */
export function nextNonce(apiKey: string, clock: Clock = Date.now): string {
  let sequence = sequences.get(apiKey);
  if (!sequence) {
    sequence = { last: 0 };
    sequences.set(apiKey, sequence);
  }
  const now = Math.floor(clock());
  sequence.last = now > sequence.last ? now : sequence.last + 1;
  return String(sequence.last);
}
