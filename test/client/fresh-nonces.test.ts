// A window-mode nonce is taken and signed when its request is about to go out on a connection, not
// when the call starts: however long calls queue for a connection, each arrives within the window.
//
// Time here is a clock that the client and the sandbox share and that moves only when the sandbox
// answers a call, by `stepMs`: queueing behind the connections then lasts several windows of that
// clock, whatever the machine's load. A call signed at its start would arrive stale once a window's
// worth of answers went before it; signed as it goes out, only the calls already in flight on the
// other connections can be answered in between.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialKey, loadFixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { timeLimits } from '../../scripts/time-limits.ts';
import { createPrivateClient } from '../../src/index.ts';
import { summaryPath } from './paths.ts';

const key = credentialKey(loadFixture());
const windowMs = 3000;
const calls = 2000;
/** The clock's step per answer: the calls span over three windows, and 500 answers fit in one. */
const stepMs = 6;
const started = Date.now();
let now = started;
const clock = () => now;
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    nonceWindowMs: windowMs,
    clock,
    // Called once per answer.
    log: () => {
      now += stepMs;
    },
  });
});
afterAll(() => sandbox.close());

describe('window-mode nonces under queueing', () => {
  it(`${calls} concurrent calls, queued for several windows: none refused as stale`, async () => {
    const client = createPrivateClient({
      apiKey: key.apiKey,
      apiSecret: key.secret,
      baseUrl: sandbox.url,
      nonceWindow: true,
      rateLimit: false,
      clock,
      // Calls wait for a connection as long as it takes: only the window is under test.
      timeoutMs: timeLimits.runMs,
    });
    const results = await Promise.all(
      Array.from({ length: calls }, () => client.POST(summaryPath, { body: { ticker: 'BTC' } })),
    );
    await client.close();
    const refused = results.filter((result) => result.error);
    expect(refused.map((result) => result.error?.message).slice(0, 3)).toEqual([]);
    // The calls queued for several windows in all: signing at the start would have gone stale.
    expect(now - started).toBeGreaterThan(windowMs * 3);
  });
});
