// The stream part can fail: the checks the suite runs (support/stream-checks.ts), pointed at
// mutant stream mocks (support/stream-breakage.ts), each the stream mock with one fault, report it
// under the check's name with a websocat line that sends what the failing connection sent; the
// same checks pass against the stream mock itself. The documents are never edited.
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { contractVariables } from '../model/environment.ts';
import { isRecord } from '../model/json.ts';
import { loadStreamCatalog, paramNames } from '../model/stream-catalog.ts';
import { type StreamMock, type StreamMockOptions, startStreamMock } from '../scripts/stream-mock.ts';
import { context, model } from './support/context.ts';
import {
  noUpdates,
  pickReplyBreakage,
  pickUpdateBreakage,
  withoutUnsubscribe,
  wrongIds,
} from './support/stream-breakage.ts';
import {
  checkRequests,
  checkSubscribeThenUpdate,
  checkUnsubscribeStopsUpdates,
} from './support/stream-checks.ts';
import { channelMover, checkStreamEvent, streamEventWrites } from './support/stream-events.ts';
import { type StreamRelay, type StreamRelayOptions, startStreamRelay } from './support/stream-relay.ts';
import { websocatLine } from './support/stream-reproducer.ts';
import type { StreamContext } from './support/stream-target.ts';

const catalog = loadStreamCatalog();
const updateBreakage = pickUpdateBreakage(catalog);
const replyBreakage = pickReplyBreakage(catalog);
const subscribeOf = (channel = updateBreakage.channel) => {
  const request = channel.requests.find((candidate) => candidate.role === 'subscribe');
  const example = request?.message.examples[0];
  if (!request || !example) throw new Error(`${channel.name} has no subscribe example`);
  return { request, example };
};

const mutants: StreamMock[] = [];
afterAll(() => Promise.all(mutants.map((mutant) => mutant.close())));

/** A mutant on a free port, at the pace the suite runs the mock at, as the target of a check. */
async function mutant(options: StreamMockOptions, waitMs?: number): Promise<StreamContext> {
  const started = await startStreamMock({ pace: 0.25, catalog, ...options });
  mutants.push(started);
  return { target: 'mutant', url: started.url, mock: true, token: 'any', ...(waitMs ? { waitMs } : {}) };
}

/** The websocat line of a report: the last problem, the command under the heading. */
function websocatOf(problems: readonly string[]): string {
  const block = problems.at(-1) ?? '';
  expect(block).toMatch(/^reproduce with websocat/);
  return block.split('\n')[1]?.trim() ?? '';
}

describe.skipIf(!context.stream?.mock)('the stream part catches a broken target', () => {
  const real = context.stream as StreamContext;

  it(`an update with numbers for strings fails update_matches_schema (${updateBreakage.message})`, async () => {
    const target = await mutant({ outgoing: updateBreakage.outgoing });
    const { request, example } = subscribeOf();
    const problems = await checkSubscribeThenUpdate(
      target,
      catalog,
      updateBreakage.channel,
      request,
      example,
    );
    const prefix = `[update_matches_schema] ${updateBreakage.channel.name} ${updateBreakage.message}: `;
    expect(
      problems.some((problem) => problem.startsWith(prefix) && problem.includes(updateBreakage.field)),
    ).toBe(true);
    // The command sends the subscribe example, as sent, to the mutant's endpoint.
    expect(websocatOf(problems)).toBe(
      `printf '%s\\n' '${JSON.stringify(example.payload)}' | websocat -n '${target.url}'`,
    );
    // The stream mock itself passes the same check.
    expect(await checkSubscribeThenUpdate(real, catalog, updateBreakage.channel, request, example)).toEqual(
      [],
    );
  });

  it(`an answer without ${replyBreakage.field} fails reply_matches_schema (${replyBreakage.message})`, async () => {
    const target = await mutant({ outgoing: replyBreakage.outgoing });
    const problems = await checkRequests(target, catalog, replyBreakage.channel);
    expect(problems.join('\n')).toMatch(
      new RegExp(
        `^\\[reply_matches_schema\\] ${replyBreakage.channel.name} ${replyBreakage.request.method} \\(example \\w+\\): answer ${replyBreakage.message}: result: must have required property '${replyBreakage.field}'$`,
        'm',
      ),
    );
    expect(websocatOf(problems)).toContain(
      JSON.stringify(replyBreakage.request.message.examples[0]?.payload),
    );
    expect(await checkRequests(real, catalog, replyBreakage.channel)).toEqual([]);
  });

  // The pong that marks an unsubscribe taken (its answer is not shown) never comes with its own
  // id from this mutant: a short wait ends that wait sooner.
  it('an answer with another id fails reply_id_matches_request', async () => {
    const target = await mutant({ outgoing: wrongIds }, 500);
    const problems = await checkRequests(target, catalog, replyBreakage.channel);
    expect(problems.join('\n')).toMatch(
      /^\[reply_id_matches_request\] .*the answer's id is (\d+), the request's \d+$/m,
    );
  });

  it('updates that go on after an unsubscribe fail unsubscribe_stops_updates', async () => {
    const target = await mutant({ catalog: withoutUnsubscribe(catalog) });
    const problems = await checkUnsubscribeStopsUpdates(target, catalog, updateBreakage.channel);
    expect(problems.join('\n')).toMatch(
      new RegExp(
        `^\\[unsubscribe_stops_updates\\] ${updateBreakage.channel.name}: \\d+ update\\(s\\) arrived after`,
        'm',
      ),
    );
    // The line replays the leaving connection: subscribe, then unsubscribe.
    const line = websocatOf(problems);
    const unsubscribe = updateBreakage.channel.requests.find((request) => request.role === 'unsubscribe');
    expect(line.indexOf(`"${subscribeOf().request.method}"`)).toBeGreaterThan(-1);
    expect(line.indexOf(`"${subscribeOf().request.method}"`)).toBeLessThan(
      line.indexOf(`"${unsubscribe?.method}"`),
    );
    expect(await checkUnsubscribeStopsUpdates(real, catalog, updateBreakage.channel)).toEqual([]);
  });

  // Nothing will ever come from this mutant: a short wait only shortens the test, and the stream
  // mock itself, checked with the suite's own limit, passes.
  it('a target that never pushes fails subscribe_then_update', async () => {
    const target = await mutant({ outgoing: noUpdates }, 500);
    const { request, example } = subscribeOf();
    const problems = await checkSubscribeThenUpdate(
      target,
      catalog,
      updateBreakage.channel,
      request,
      example,
    );
    expect(problems[0]).toMatch(
      new RegExp(
        `^\\[subscribe_then_update\\] ${updateBreakage.channel.name}: no \\w+ within 0.5 s of the answer to ${request.method}`,
      ),
    );
  });
});

// On a target that keeps state, a relay in front of its stream endpoint (support/stream-relay.ts)
// stands for a server with one fault: it drops the updates a write causes, or the unsubscribe
// requests. The writes and their updates are the documents' (x-stream-events).
describe.skipIf(context.mock || !context.allowWrites || !context.stream?.url)(
  'the stream part catches a stateful target that breaks what a write shows',
  () => {
    const real = context.stream as StreamContext;
    // The first write whose update the target's stream can show (an account channel needs a token).
    const write = streamEventWrites.find(({ event }) => {
      const channel = catalog.channels.find((candidate) => candidate.name === event.channel);
      return channel && (!channel.requiresAuthorization || real.token);
    });
    const relays: StreamRelay[] = [];
    afterAll(() => Promise.all(relays.map((relay) => relay.close())));
    const relayed = async (options: StreamRelayOptions, waitMs?: number): Promise<StreamContext> => {
      const relay = await startStreamRelay(real.url as string, options);
      relays.push(relay);
      return { ...real, target: 'relay', url: relay.url, ...(waitMs ? { waitMs } : {}) };
    };
    const methodOf = (message: unknown) =>
      isRecord(message) && typeof message.method === 'string' ? message.method : undefined;

    it(`a target that drops the update a write causes fails write_shows_on_stream (${write?.operationId} on ${write?.event.channel})`, async () => {
      if (!write) throw new Error('no write of the documents shows on a stream this target serves');
      const { operationId, event } = write;
      const channel = catalog.channels.find((candidate) => candidate.name === event.channel);
      const updates = new Set(channel?.updates.map((update) => update.method));
      // Nothing of the channel ever comes through: a short wait only shortens the test (long
      // enough for the answers that do come, the subscribe's and the authorize's, on a loaded
      // machine).
      const target = await relayed({ toClient: (message) => !updates.has(methodOf(message) ?? '') }, 3000);
      const problems = await checkStreamEvent(target, catalog, context, model, operationId, event);
      expect(problems[0]).toMatch(
        new RegExp(
          `^\\[write_shows_on_stream\\] ${operationId} on ${event.channel}: no ${[...updates].join(' or ')} with .* within 3 s of the write$`,
        ),
      );
      expect(websocatOf(problems)).toContain(target.url);
      // The real target passes the same check.
      expect(await checkStreamEvent(real, catalog, context, model, operationId, event)).toEqual([]);
    });

    it('a target that ignores an unsubscribe fails unsubscribe_stops_updates, the writes moving the channel', async () => {
      const moved = catalog.channels.find(
        (channel) =>
          streamEventWrites.some(({ event }) => event.channel === channel.name) &&
          channel.requests.some((request) => request.role === 'unsubscribe'),
      );
      if (!moved) throw new Error('no channel with an unsubscribe that a write of the documents moves');
      const unsubscribes = new Set(
        moved.requests.filter((request) => request.role === 'unsubscribe').map((request) => request.method),
      );
      const target = await relayed({ toTarget: (message) => !unsubscribes.has(methodOf(message) ?? '') });
      const problems = await checkUnsubscribeStopsUpdates(
        target,
        catalog,
        moved,
        await channelMover(context, model, moved.name),
      );
      expect(problems.join('\n')).toMatch(
        new RegExp(`^\\[unsubscribe_stops_updates\\] ${moved.name}: \\d+ update\\(s\\) arrived after`, 'm'),
      );
      expect(
        await checkUnsubscribeStopsUpdates(
          real,
          catalog,
          moved,
          await channelMover(context, model, moved.name),
        ),
      ).toEqual([]);
    });
  },
);

describe('the websocat line', () => {
  it('sends the frames as they were sent, the token from the environment, never written', () => {
    const token = `token-${process.pid}`;
    const accountQuery = catalog.channels
      .filter((channel) => channel.requiresAuthorization)
      .flatMap((channel) => channel.requests)
      .find((request) => request.role === 'query');
    expect(accountQuery).toBeDefined();
    const authorize = catalog.channels
      .flatMap((channel) => channel.requests)
      .find((r) => r.role === 'authorize');
    const authorizeExample = authorize?.message.examples[0]?.payload as { params: unknown[] };
    // The authorize example with this test's token in the position the documents name `token`.
    const tokenAt = authorize ? (paramNames(authorize.message.payload)?.indexOf('token') ?? -1) : -1;
    expect(tokenAt).toBeGreaterThan(-1);
    const sent = [
      JSON.stringify({
        ...authorizeExample,
        params: authorizeExample.params.map((value, index) => (index === tokenAt ? token : value)),
      }),
      // A request of an account channel, whose params a shell must quote.
      JSON.stringify({ id: 2, method: accountQuery?.method, params: ["it's", '100%'] }),
      JSON.stringify(catalog.keepalive.message.examples[0]?.payload),
    ];
    const target: StreamContext = { target: 'staging', url: 'wss://staging.example/ws', mock: false, token };
    const line = websocatLine(target, sent);
    expect(line).not.toContain(token);
    expect(line.endsWith(" | websocat -n 'wss://staging.example/ws'")).toBe(true);
    // The shell part, run as a reader would, writes each frame on its line.
    const input = line.slice(0, line.lastIndexOf(' | websocat'));
    const written = execFileSync('bash', ['-c', input], {
      env: { PATH: process.env.PATH, [contractVariables.streamToken]: token },
      encoding: 'utf8',
    });
    expect(written).toBe(`${sent.join('\n')}\n`);
  });
});
