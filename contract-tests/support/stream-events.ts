// The stream updates a REST write shows, as the documents declare them (x-stream-events, in the
// generated facts): which channel, how to subscribe to see it, and which fields of the update
// carry which values of the call (its request, its answer). Two uses: the check that each such
// write's update arrives (stream-checks.ts `checkWriteShowsOnStream`), and the writes that move a
// channel on a target that keeps state, so that a flow check waits on an update it caused
// (`channelMover`) rather than on one the market may or may not send.

import type { StreamCatalog } from '../../model/stream-catalog.ts';
import type { StreamEventFacts } from '../../scripts/operation-facts.ts';
import { onTarget, preparedOnTarget as preparedAtOnce, validBody } from './checks.ts';
import { callOperation as callAtOnce, clientsFor, type Outcome } from './clients.ts';
import { callerBody, factsOf, isWrite, type Model, type OperationId, operationIds } from './documents.ts';
import { documentLinks, linkBody } from './links.ts';
import { named } from './reproducer.ts';
import { type ChannelMover, checkWriteShowsOnStream } from './stream-checks.ts';
import { type Exchange, resolved } from './stream-event-fields.ts';
import type { StreamContext } from './stream-target.ts';
import type { ContractContext } from './target.ts';

export type { StreamEventFacts };

/**
 * The REST calls of these checks, one at a time. The stream checks run side by side, and a key's
 * nonces must reach the target rising: each call is signed, sent and answered before the next is
 * signed (the sandbox refuses a nonce not above the last one it took).
 */
let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<Result>(call: () => Promise<Result>): Promise<Result> {
  const turn = queue.then(call);
  queue = turn.catch(() => {});
  return turn;
}
const callOperation: typeof callAtOnce = (...args) => oneAtATime(() => callAtOnce(...args));
const preparedOnTarget: typeof preparedAtOnce = (...args) => oneAtATime(() => preparedAtOnce(...args));

/** An operation's x-stream-events. */
export const streamEventsOf = (operationId: OperationId): readonly StreamEventFacts[] =>
  (factsOf(operationId) as { streamEvents?: readonly StreamEventFacts[] }).streamEvents ?? [];

/** Every write with an update on a stream, each update once: what the check of them runs over. */
export const streamEventWrites: readonly { operationId: OperationId; event: StreamEventFacts }[] =
  operationIds.flatMap((operationId) =>
    isWrite(operationId) ? streamEventsOf(operationId).map((event) => ({ operationId, event })) : [],
  );

/** The request example the event names (by default the write's first), as a caller writes it. */
export function eventExample(
  model: Model,
  operationId: OperationId,
  event: StreamEventFacts,
): Record<string, unknown> | undefined {
  if (event.example === undefined) return validBody(model, operationId);
  const example = model.model(operationId).requestExamples.find((named) => named.name === event.example);
  if (!example) throw new Error(`${operationId}: x-stream-events names no request example ${event.example}`);
  return callerBody(example.value);
}

const failed = (operationId: OperationId, outcome: Outcome) =>
  `${operationId}, the write, was not accepted: ${outcome.error?.kind ?? ''} ${outcome.error?.message ?? `HTTP ${outcome.response?.status}`}`;

/** The operation's x-stream-events entry for the channel. */
const eventOn = (operationId: OperationId, channel: string) =>
  streamEventsOf(operationId).find((event) => event.channel === channel);

/**
 * A link between two writes that both show on the channel (placing an order, then cancelling it),
 * the first such link, or the first that leads to `to`.
 */
function pairOn(model: Model, channel: string, to?: OperationId) {
  return documentLinks(model).find(
    (link) =>
      (to === undefined || link.to === to) &&
      isWrite(link.from) &&
      isWrite(link.to) &&
      eventOn(link.from, channel) &&
      eventOn(link.to, channel),
  );
}

/**
 * The body of a write as the check of its event makes it. A write that another write showing on
 * the same channel links to (cancelling an order) takes its values from that write, made first
 * with the request its own entry names (an order placed where the channel shows it); any other
 * is its example made true on the target (checks.ts `preparedOnTarget`).
 */
async function eventBody(
  context: ContractContext,
  model: Model,
  clients: ReturnType<typeof clientsFor>,
  operationId: OperationId,
  event: StreamEventFacts,
): Promise<Record<string, unknown> | { problem: string }> {
  const link = pairOn(model, event.channel, operationId);
  const source = link && eventOn(link.from, event.channel);
  if (!link || !source)
    return (
      (await preparedOnTarget(
        context,
        model,
        clients,
        operationId,
        eventExample(model, operationId, event),
      )) ?? {}
    );
  const request =
    (await preparedOnTarget(context, model, clients, link.from, eventExample(model, link.from, source))) ??
    {};
  const outcome = await callOperation(clients, link.from, request);
  if (outcome.error) return { problem: failed(link.from, outcome) };
  return {
    ...(onTarget(context, eventExample(model, operationId, event)) ?? {}),
    ...linkBody(link, { request, response: outcome.data }),
  };
}

/**
 * On a target that keeps state and takes writes: the documents' writes that move `channel`, a
 * write whose x-stream-events names it and a write its answer links to that names it too (placing
 * an order, then cancelling it: the book changes twice and is as it was). Undefined elsewhere, or
 * where the documents have no such pair.
 */
export async function channelMover(
  context: ContractContext,
  model: Model,
  channel: string,
): Promise<ChannelMover | undefined> {
  if (context.mock || !context.allowWrites) return undefined;
  const link = pairOn(model, channel);
  const first = link && eventOn(link.from, channel);
  const second = link && eventOn(link.to, channel);
  if (!link || !first || !second) return undefined;
  const clients = clientsFor(context);
  const request =
    (await preparedOnTarget(context, model, clients, link.from, eventExample(model, link.from, first))) ?? {};
  let exchange: Exchange | undefined;
  return {
    subscribe: resolved(first.subscribe, { request }),
    steps: [
      async () => {
        const outcome = await callOperation(clients, link.from, request);
        if (outcome.error) return { problem: failed(link.from, outcome) };
        exchange = { request, response: outcome.data };
        return { fields: resolved(first.fields, exchange) };
      },
      async () => {
        if (!exchange) return { problem: `${link.to}: ${link.from} before it was not made` };
        const body = {
          ...(onTarget(context, validBody(model, link.to)) ?? {}),
          ...linkBody(link, { request: exchange.request, response: exchange.response }),
        };
        const outcome = await callOperation(clients, link.to, body);
        if (outcome.error) return { problem: failed(link.to, outcome) };
        return { fields: resolved(second.fields, { request: body, response: outcome.data }) };
      },
    ],
  };
}

/**
 * The write's update arrives: a connection subscribes as the event says (with the params of the
 * write's request), the write is made through the real client, and an update of the channel with
 * the event's fields must follow.
 */
export async function checkStreamEvent(
  stream: StreamContext,
  catalog: StreamCatalog,
  context: ContractContext,
  model: Model,
  operationId: OperationId,
  event: StreamEventFacts,
): Promise<string[]> {
  const channel = catalog.channels.find((candidate) => candidate.name === event.channel);
  if (!channel) throw new Error(`${operationId}: x-stream-events names no channel ${event.channel}`);
  const clients = clientsFor(context);
  const body = await eventBody(context, model, clients, operationId, event);
  if ('problem' in body)
    return [named('write_shows_on_stream', `${operationId} on ${event.channel}: ${body.problem}`)];
  const params = resolved(event.subscribe, { request: body });
  return checkWriteShowsOnStream(
    stream,
    catalog,
    channel,
    params,
    `${operationId} on ${event.channel}`,
    async () => {
      const outcome = await callOperation(clients, operationId, body);
      if (outcome.error) return { problem: failed(operationId, outcome) };
      return { fields: resolved(event.fields, { request: body, response: outcome.data }) };
    },
  );
}
