// Overlap without timing: a latch in the client's transport holds every call of a burst until all
// of them have reached it (or ended without reaching it), then lets them go at once, as many on
// the wire together as the transport has connections. Shared by the load tests.
import { expect } from 'vitest';
import type { Transport } from '../../src/index.ts';

class Latch {
  arrived = 0;
  endedBefore = 0;
  isOpen = false;
  readonly opened: Promise<void>;
  readonly expected: number;
  #open = () => {};
  constructor(expected: number) {
    this.expected = expected;
    this.opened = new Promise((resolve) => {
      this.#open = resolve;
    });
  }
  arrive(): Promise<void> {
    this.arrived++;
    this.#check();
    return this.opened;
  }
  /** A call that ended while the latch was closed never reached the transport: stop waiting for it. */
  ended() {
    if (this.isOpen) return;
    this.endedBefore++;
    this.#check();
  }
  #check() {
    if (this.arrived + this.endedBefore < this.expected) return;
    this.isOpen = true;
    this.#open();
  }
}

let latch: Latch | undefined;

/** The transport to give the client: it waits at the current burst's latch, if any. */
export function latchedTransport(inner: Transport): Transport {
  return {
    // Held before the connection and the signature, as a call waiting for a connection would be.
    async lease(target, deadline) {
      await latch?.arrive();
      return inner.lease(target, deadline);
    },
    close: (reason) => inner.close(reason),
  };
}

export type Outcome = { kind: string; status: number; body: unknown };

/** A client result as an outcome labelled `kind`: its status (200 on success) and body. */
export const outcome =
  (kind: string) =>
  (result: {
    data?: unknown;
    error?: { status?: number | undefined; body?: unknown } | undefined;
  }): Outcome => ({
    kind,
    status: result.error ? (result.error.status ?? 0) : 200,
    body: result.error ? result.error.body : result.data,
  });

/**
 * Starts every call at once and waits for them all; the latch makes them overlap. `after` runs
 * once they have all ended (the load tests move their shared clock past the burst's nonces).
 */
export async function burst(calls: (() => Promise<Outcome>)[], after: () => void): Promise<Outcome[]> {
  const current = new Latch(calls.length);
  latch = current;
  const results = await Promise.all(calls.map((start) => start().finally(() => current.ended())));
  latch = undefined;
  // Every call was on its way to the sandbox at once: none ended inside the client.
  expect({ arrived: current.arrived, endedBefore: current.endedBefore }).toEqual({
    arrived: calls.length,
    endedBefore: 0,
  });
  after();
  return results;
}
