// Overlap without timing: a latch in the client's transport holds every call of a burst until all
// of them have reached it (or ended without reaching it), then lets them go at once, as many on
// the wire together as the transport has connections. Shared by the load tests, with the suite
// they share: a strict sandbox and the client on one fake clock.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Fixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { createPrivateClient, type PrivateClient, type Transport } from '../../src/index.ts';
import { createDefaultTransport } from '../../src/transport/undici.ts';

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

/**
 * A strict sandbox for a suite and the real client in front of it, through the latch (which holds
 * nothing outside a burst), with window-mode nonces; both on one fake clock that moves only when
 * the suite moves it. Opened in
 * beforeAll, closed in afterAll, which also asks that no answer broke the documents.
 */
export function loadSuite(fixture: Fixture, key: { apiKey: string }, start: number) {
  // A key of the suite's own, for the same account: the client keeps one nonce sequence per key
  // for the whole process (src/signing.ts), and the unit project runs files one after another in
  // a worker, so a key another suite used with its own fake clock would carry nonces far from
  // this suite's clock into its sandbox's nonce window.
  const given = fixture.keys.find((candidate) => candidate.apiKey === key.apiKey);
  if (!given) throw new Error('loadSuite: the key is not one of the fixture');
  const own = { ...given, apiKey: randomBytes(16).toString('hex'), secret: randomBytes(32).toString('hex') };
  fixture.keys.push(own);
  const clock = { now: start };
  let sandbox: Sandbox | undefined;
  let client: PrivateClient | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, strict: true, fixture, clock: () => clock.now });
    client = createPrivateClient({
      apiKey: own.apiKey,
      apiSecret: own.secret,
      baseUrl: sandbox.url,
      nonceWindow: true,
      clock: () => clock.now,
      transport: latchedTransport(createDefaultTransport()),
    });
  });
  afterAll(async () => {
    await client?.close();
    await sandbox?.close();
    expect(sandbox?.violations).toEqual([]);
  });
  /** Moves the clock past every nonce a burst signed (at most 500, each one above the last). */
  const step = () => {
    clock.now += 2_000;
  };
  return {
    clock,
    step,
    burst: (calls: (() => Promise<Outcome>)[]) => burst(calls, step),
    get sandbox(): Sandbox {
      if (!sandbox) throw new Error('the sandbox starts in beforeAll');
      return sandbox;
    },
    get client(): PrivateClient {
      if (!client) throw new Error('the client starts in beforeAll');
      return client;
    },
  };
}
