// The stream updates a REST write shows, as the documents declare them (x-stream-events, in the
// generated facts): which channel, how to subscribe to see it, and which fields of the update
// carry which values of the call (its request, its answer). Two uses: the check that each such
// write's update arrives (stream-checks.ts `checkWriteShowsOnStream`), and the writes that move a
// channel on a target that keeps state, so that a flow check waits on an update it caused
// (`channelMover`) rather than on one the market may or may not send.
import type { StreamEventFacts } from '../../scripts/operation-facts.ts';
import { onTarget, preparedOnTarget, validBody } from './checks.ts';
import { callOperation, clientsFor, type Outcome } from './clients.ts';
import { callerBody, factsOf, isWrite, type Model, type OperationId, operationIds } from './documents.ts';
import { documentLinks, linkBody } from './links.ts';
import { type Exchange, resolved } from './stream-event-fields.ts';
import type { ContractContext } from './target.ts';

export type { StreamEventFacts };

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

/** A write as the check makes it: its body made true on the target, then the call. */
export interface PreparedWrite {
  operationId: OperationId;
  body: Record<string, unknown>;
  call(): Promise<Outcome>;
}

/** The write's first example made true on the target (an order to cancel placed first), ready to call. */
export async function prepareWrite(
  context: ContractContext,
  model: Model,
  operationId: OperationId,
): Promise<PreparedWrite> {
  const clients = clientsFor(context);
  const body =
    (await preparedOnTarget(context, model, clients, operationId, validBody(model, operationId))) ?? {};
  return { operationId, body, call: () => callOperation(clients, operationId, body) };
}

/** Two writes that each change a channel, the second undoing the first (an order placed, then cancelled). */
export interface ChannelMover {
  /** The params of the channel's subscribe request that show the writes' updates. */
  subscribe: unknown[];
  /** The writes, in order: each the fields the update it causes carries, or the problem of the call. */
  steps: readonly [MoverStep, MoverStep];
}

export type MoverStep = () => Promise<{ fields: Record<string, unknown> } | { problem: string }>;

const failed = (operationId: OperationId, outcome: Outcome) =>
  `${operationId}, the write that moves the channel, was not accepted: ${outcome.error?.kind ?? ''} ${outcome.error?.message ?? `HTTP ${outcome.response?.status}`}`;

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
  const eventOf = (operationId: OperationId) =>
    streamEventsOf(operationId).find((event) => event.channel === channel);
  const link = documentLinks(model).find(
    (candidate) =>
      isWrite(candidate.from) && isWrite(candidate.to) && eventOf(candidate.from) && eventOf(candidate.to),
  );
  const first = link && eventOf(link.from);
  const second = link && eventOf(link.to);
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
