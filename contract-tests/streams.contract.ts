// The stream part: per channel of the AsyncAPI documents, every request example is answered as
// documented; each subscribe example is answered and followed by an update; an unsubscribe stops
// the updates. Every message received is checked against its schema. The target is the stream
// mock, the sandbox's /ws or CONTRACT_STREAM_TARGET (support/stream-target.ts); an account
// channel is checked only with a token, and the flow checks of a channel whose updates come as
// things happen only on the mock (elsewhere they may never come during a run). On a target that
// keeps state, the documents' REST writes that show on a channel (x-stream-events) are each made
// and their update awaited, and move the channel for its unsubscribe check. The checks do not
// depend on the HTTP transport: only the first transport's project runs this file.
import { describe, it } from 'vitest';
import { contractVariables } from '../model/environment.ts';
import { loadStreamCatalog, type StreamChannelView } from '../model/stream-catalog.ts';
import { context, expectNoProblems, model } from './support/context.ts';
import {
  checkRequests,
  checkSubscribeThenUpdate,
  checkUnsubscribeStopsUpdates,
} from './support/stream-checks.ts';
import { channelMover, checkStreamEvent, streamEventWrites } from './support/stream-events.ts';

const catalog = loadStreamCatalog();
const stream = context.stream;

/** Why a check of the channel does not run on this target, if it does not. */
function notRun(channel: StreamChannelView, flow: boolean): string | undefined {
  if (!stream?.url) return stream?.notRun ?? 'no stream target';
  const needsToken =
    channel.requiresAuthorization || channel.requests.some((request) => request.role === 'authorize');
  if (needsToken && !stream.token)
    return `an account channel: no stream token (${contractVariables.streamToken})`;
  if (flow && !stream.mock && channel.updates.some((update) => update.intervalSeconds === null))
    return 'its updates come as things happen, perhaps never during a run: checked on the stream mock only';
  return undefined;
}

type Task = { meta: { stream?: { channel: string }; skipReason?: string } };

/** Tags the test with its channel; skips it, saying why, where it does not run. */
function begin(
  task: Task,
  skip: (reason: string) => void,
  channel: StreamChannelView,
  flow: boolean,
): boolean {
  task.meta.stream = { channel: channel.name };
  const reason = notRun(channel, flow);
  if (!reason) return true;
  task.meta.skipReason = reason;
  skip(reason);
  return false;
}

// Against the mock and the sandbox, every check runs side by side, each on its connection (the
// sandbox counts requests per connection, as the operator states); against another target one
// after another, as the HTTP checks do (who its request limit counts is its own).
(stream?.mock || stream?.target === 'sandbox' ? describe.concurrent : describe)('streams', () => {
  for (const channel of catalog.channels) {
    it(`stream ${channel.name} › every request example answered as documented`, async ({ task, skip }) => {
      if (!begin(task, skip, channel, false) || !stream) return;
      expectNoProblems(await checkRequests(stream, catalog, channel));
    });

    for (const request of channel.requests.filter((candidate) => candidate.role === 'subscribe')) {
      for (const example of request.message.examples) {
        it(`stream ${channel.name} › subscribe, then an update (example ${example.name})`, async ({
          task,
          skip,
        }) => {
          if (!begin(task, skip, channel, true) || !stream) return;
          expectNoProblems(await checkSubscribeThenUpdate(stream, catalog, channel, request, example));
        });
      }
    }

    // The updates the documents say a REST write shows on this channel (x-stream-events).
    for (const { operationId, event } of streamEventWrites.filter(
      (write) => write.event.channel === channel.name,
    )) {
      it(`stream ${channel.name} › ${operationId} shows as an update`, async ({ task, skip }) => {
        if (!begin(task, skip, channel, false) || !stream) return;
        const stateless = context.mock
          ? 'the Prism mocks keep no state: a write changes nothing a stream could show'
          : !context.allowWrites
            ? `writes are not allowed on this target (${contractVariables.allowWrites}=1 allows them)`
            : undefined;
        if (stateless) {
          task.meta.skipReason = stateless;
          skip(stateless);
          return;
        }
        expectNoProblems(await checkStreamEvent(stream, catalog, context, model, operationId, event));
      });
    }

    const roles = new Set(channel.requests.map((request) => request.role));
    if (roles.has('subscribe') && roles.has('unsubscribe')) {
      it(`stream ${channel.name} › unsubscribe stops the updates`, async ({ task, skip }) => {
        if (!begin(task, skip, channel, true) || !stream) return;
        // On a target that keeps state, the documents' writes that move the channel make the
        // updates the check waits for (the sandbox's book stands still during a run).
        const mover = await channelMover(context, model, channel.name);
        expectNoProblems(await checkUnsubscribeStopsUpdates(stream, catalog, channel, mover));
      });
    }
  }
});
