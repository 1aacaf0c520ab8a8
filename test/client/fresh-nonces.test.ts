// A window-mode nonce is taken and signed when its request is about to go out on a connection, not
// when the call starts: however long calls queue for a connection, each arrives within the window.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialKey, loadFixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { createPrivateClient } from '../../src/index.ts';
import { summaryPath } from './paths.ts';

const key = credentialKey(loadFixture());
/** A slow server and a short window: calls beyond the pool's connections queue for several windows. */
const delayMs = 1000;
const windowMs = 3000;
const calls = 2000;
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    nonceWindowMs: windowMs,
    faults: { delayMs, operations: ['getCollateralBalanceSummary'] },
  });
});
afterAll(() => sandbox.close());

describe('window-mode nonces under queueing', () => {
  it(`${calls} concurrent calls to a server ${delayMs} ms slow: none refused as stale`, async () => {
    const client = createPrivateClient({
      apiKey: key.apiKey,
      apiSecret: key.secret,
      baseUrl: sandbox.url,
      nonceWindow: true,
      rateLimit: false,
      timeoutMs: 30_000,
    });
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: calls }, () => client.POST(summaryPath, { body: { ticker: 'BTC' } })),
    );
    const elapsed = Date.now() - started;
    await client.close();
    // The calls queued for several windows in all: signing at the start would have gone stale.
    expect(elapsed).toBeGreaterThan(windowMs * 2);
    const refused = results.filter((result) => result.error);
    expect(refused.map((result) => result.error?.message).slice(0, 3)).toEqual([]);
  });
});
