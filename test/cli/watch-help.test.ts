// `txc watch`'s channels, arguments and flags come from the stream facts (generated/streams.ts):
// its --help lists every channel that takes a subscribe, with the channel's summary; a channel's
// --help has a flag for every named position of its subscribe but the one its argument fills, with
// the position's values and the documents' example for an unset one; and what a caller gives is
// checked before anything connects. All in this process: nothing here opens a connection.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type StreamValueShape, streamChannels, streamParams } from '../../generated/streams.ts';
import { environmentVariables, streamVariables } from '../../model/environment.ts';
import { runTxcInProcess } from './helpers.ts';

const kebab = (name: string) =>
  name.replace(/[A-Z_]/g, (letter) => `-${letter.replace('_', '').toLowerCase()}`);
const oneLine = (text: string) => text.replace(/\s+/g, ' ');

/** Every channel with a subscribe, and its subscribe's params facts. */
const subscribable = Object.entries(streamChannels).flatMap(([channel, facts]) => {
  const method = facts.requests.find((request) => request.method?.endsWith('_subscribe'))?.method;
  const params = method
    ? (streamParams as Record<string, { shape: StreamValueShape; example: unknown }>)[method]
    : undefined;
  return params ? [{ channel, facts, params }] : [];
});

// No URL, key or secret of the machine running the tests: each test says what it gives.
beforeEach(() => {
  for (const name of [...Object.values(environmentVariables), ...Object.values(streamVariables)])
    vi.stubEnv(name, undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('txc watch --help', () => {
  it('lists every channel that takes a subscribe, named in kebab case, with its summary', async () => {
    expect(subscribable.length).toBeGreaterThan(10);
    const { code, stdout } = await runTxcInProcess(['watch', '--help']);
    expect(code).toBe(0);
    const text = oneLine(stdout);
    for (const { channel, facts } of subscribable) {
      const name = channel.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
      expect(text, channel).toMatch(new RegExp(` ${name}(\\|${channel})? `));
      expect(text, channel).toContain(facts.summary);
    }
    // A channel without a subscribe (ping and time, authorize) is not one to watch.
    for (const channel of Object.keys(streamChannels).filter(
      (name) => !subscribable.some((each) => each.channel === name),
    )) {
      expect(text).not.toMatch(new RegExp(` ${channel} `));
    }
  });

  it("gives each channel a flag for each named position of its subscribe but the argument's", async () => {
    let flags = 0;
    for (const { channel, facts, params } of subscribable) {
      const { code, stdout } = await runTxcInProcess(['watch', channel, '--help']);
      expect(code, channel).toBe(0);
      const text = oneLine(stdout);
      // Its update interval from the documents, and whether it needs credentials.
      const interval = facts.updates[0]?.intervalSeconds;
      expect(text, channel).toContain(interval === null ? 'as things happen' : `every ${interval} s`);
      expect(text.includes('Needs credentials'), channel).toBe(facts.requiresAuthorization);
      const [, ...flagged] = params.shape.positions ?? [];
      const example = params.example as unknown[];
      for (const [index, position] of flagged.entries()) {
        if (!position.name) continue;
        flags++;
        const flag = `--${kebab(position.name)}`;
        expect(text, `${channel} ${flag}`).toContain(` ${flag} `);
        for (const value of position.enum ?? []) expect(text, `${channel} ${flag}`).toContain(String(value));
        const unset = example[index + 1];
        expect(text, `${channel} ${flag}`).toContain(`Unset: ${JSON.stringify(unset)}`);
        if (position.type === 'boolean') expect(text).toContain(`--no-${kebab(position.name)}`);
      }
    }
    // depth's limit, price interval and multi_depth, kline's interval, ordersExecuted's filter.
    expect(flags).toBeGreaterThanOrEqual(5);
  });

  it("names the argument after the position it fills, or after the documents' name of its items", async () => {
    const depth = await runTxcInProcess(['watch', 'depth', '--help']);
    expect(depth.stdout).toContain('Usage: txc watch depth [options] <market>');
    const trades = await runTxcInProcess(['watch', 'trades', '--help']);
    expect(trades.stdout).toContain('Usage: txc watch trades [options] [market...]');
    const positions = await runTxcInProcess(['watch', 'positions', '--help']);
    expect(positions.stdout).toContain('Usage: txc watch positions [options]\n');
  });
});

describe('txc watch refuses before it connects', () => {
  it('a value its subscribe does not take, naming the flag', async () => {
    const run = await runTxcInProcess([
      'watch',
      'depth',
      'BTC_USDT',
      '--limit',
      '7',
      '--stream-url',
      'ws://127.0.0.1:9/ws',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'txc: invalid-request: limit must be one of 1, 5, 10, 20, 30, 50, 100 (--limit)\n',
    );
  });

  it('a market not in the form the documents give, one of a list or the one of a tuple', async () => {
    const listed = await runTxcInProcess([
      'watch',
      'lastprice',
      'BTC_USDT',
      'btc-usdt',
      '--stream-url',
      'ws://127.0.0.1:9/ws',
    ]);
    expect(listed.code).toBe(2);
    expect(listed.stderr).toMatch(/^txc: invalid-request: market\.1 must match .*, got "btc-usdt"\n$/);
    const single = await runTxcInProcess([
      'watch',
      'depth',
      'btc-usdt',
      '--stream-url',
      'ws://127.0.0.1:9/ws',
    ]);
    expect(single.code).toBe(2);
    expect(single.stderr).toMatch(/^txc: invalid-request: market must match .*, got "btc-usdt"\n$/);
  });

  it('a channel that needs a market, without one', async () => {
    const run = await runTxcInProcess(['watch', 'depth', '--stream-url', 'ws://127.0.0.1:9/ws']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("txc: missing required argument 'market' (txc --help for usage)\n");
  });

  it('a channel it does not know', async () => {
    const run = await runTxcInProcess(['watch', 'no-such-channel']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("txc: unknown command 'no-such-channel'");
  });

  it('nowhere to connect: it never falls back on a live deployment', async () => {
    const run = await runTxcInProcess(['watch', 'lastprice', 'BTC_USDT']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `txc: no stream URL: set ${streamVariables.url} or ${environmentVariables.baseUrl}, or pass --stream-url, --base-url or --server (global, eu)\n`,
    );
  });

  it('a stream URL that is not a WebSocket one, saying where it was set', async () => {
    const run = await runTxcInProcess(['watch', 'lastprice', '--stream-url', 'http://127.0.0.1:9/ws']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('must use ws or wss, not http');
    expect(run.stderr).toContain(`(set with --stream-url, ${streamVariables.url}`);
  });
});
