// The checks of the stream part, as functions that return the problems they find (an empty list
// passes), each problem named by its check, followed by the websocat line that reproduces it:
//
// - reply_matches_schema: an answer to a request is its documented reply message (a refusal, an
//   answer that does not come, or one that breaks the schema fails);
// - reply_id_matches_request: the answer carries the id of the request it answers;
// - update_matches_schema: every update received on any connection of a check is valid against
//   the message its method names (checked as it arrives, whatever the check waits for);
// - subscribe_then_update: after a subscribe is answered, an update of the channel arrives;
// - unsubscribe_stops_updates: after an unsubscribe is taken, no update of the channel arrives
//   while a second connection, still subscribed, receives two;
// - write_shows_on_stream: after a REST write, the update its x-stream-events names arrives on a
//   connection subscribed as they say, with the fields they name (stream-events.ts).
//
// Every request is a named example of the documents (an account channel's connection is
// authorized first, with the target's token in place of the example's). The waits end on
// messages (the next answer, the next update, the pong of a ping sent after a request whose
// answer the documents do not show), each within the limit for a loaded machine.
import { isRecord, type JsonRecord } from '../../model/json.ts';
import {
  paramNames,
  type StreamCatalog,
  type StreamChannelView,
  type StreamNamedExample,
  type StreamRequestView,
} from '../../model/stream-catalog.ts';
import { timeLimits } from '../../scripts/time-limits.ts';
import { named } from './reproducer.ts';
import { StreamConnection } from './stream-connection.ts';
import { describeFields, fieldMismatches } from './stream-event-fields.ts';
import { streamReproducer } from './stream-reproducer.ts';
import type { StreamContext } from './stream-target.ts';

/** How long a wait of the session lasts, for a problem to say. */
const seconds = (session: Session) => `${session.connection.waitMs / 1000} s`;

/** A message's schema problems on one line: the first few, and how many in all. */
function summary(problems: readonly string[]): string {
  const shown = problems.slice(0, 3).join('; ');
  return problems.length > 3 ? `${shown}; … (${problems.length} problems)` : shown;
}

/** An update carries the method that pushed it; an answer does not. */
const isAnswer = (message: unknown): message is JsonRecord => isRecord(message) && !('method' in message);

/** One connection of a check, every message it receives checked as it arrives. */
interface Session {
  connection: StreamConnection;
  problems: Set<string>;
}

async function openSession(stream: StreamContext, catalog: StreamCatalog): Promise<Session> {
  const connection = await StreamConnection.open(
    stream.url as string,
    stream.waitMs ?? timeLimits.streamMessageMs,
  );
  const problems = new Set<string>();
  connection.onMessage = (message) => {
    if (!isRecord(message)) {
      problems.add(
        named('update_matches_schema', `a frame that is not a JSON object: ${String(message).slice(0, 120)}`),
      );
      return;
    }
    if (typeof message.method !== 'string') return;
    const update = catalog.update(message.method);
    if (!update) {
      problems.add(
        named('update_matches_schema', `${message.method} is not an update of the stream documents`),
      );
      return;
    }
    const wrong = update.message.problems(message);
    if (wrong.length > 0)
      problems.add(
        named('update_matches_schema', `${update.channel} ${update.message.name}: ${summary(wrong)}`),
      );
  };
  return { connection, problems };
}

/** The example with the target's token in the position named `token`. */
function withToken(request: StreamRequestView, payload: unknown, token: string | undefined): unknown {
  const position = paramNames(request.message.payload)?.indexOf('token') ?? -1;
  if (position < 0 || token === undefined || !isRecord(payload) || !Array.isArray(payload.params))
    return payload;
  return { ...payload, params: payload.params.map((value, index) => (index === position ? token : value)) };
}

/**
 * Sends a request and checks its answer: the next answer received, or, where the documents show
 * none, the pong of a ping sent after it (the point where the server has taken the request).
 * Returns the answer and its index, or undefined.
 */
async function ask(
  session: Session,
  catalog: StreamCatalog,
  request: StreamRequestView,
  payload: unknown,
  label: string,
): Promise<{ message: JsonRecord; index: number } | undefined> {
  const { connection, problems } = session;
  const where = `${request.channel} ${request.method} (example ${label})`;
  const from = connection.received.length;
  connection.send(payload);
  const id = isRecord(payload) ? payload.id : undefined;
  if (!request.reply) {
    const ping = catalog.keepalive.message.examples[0]?.payload;
    const pingId = isRecord(ping) ? ping.id : undefined;
    connection.send(ping);
    const pong = await connection.next((message) => isAnswer(message) && message.id === pingId, from);
    if (!pong)
      problems.add(
        named(
          'reply_matches_schema',
          `${where}: its answer is not shown, and the ${catalog.keepalive.method} after it got no answer within ${seconds(session)}${connection.closed ? `; the connection was ${connection.closed}` : ''}`,
        ),
      );
    return pong as { message: JsonRecord; index: number } | undefined;
  }
  const found = (await connection.next(isAnswer, from)) as { message: JsonRecord; index: number } | undefined;
  if (!found) {
    problems.add(
      named(
        'reply_matches_schema',
        `${where}: no answer within ${seconds(session)}${connection.closed ? `; the connection was ${connection.closed}` : ''}`,
      ),
    );
    return undefined;
  }
  const answer = found.message;
  if (answer.id !== id)
    problems.add(
      named(
        'reply_id_matches_request',
        `${where}: the answer's id is ${JSON.stringify(answer.id)}, the request's ${JSON.stringify(id)}`,
      ),
    );
  if (answer.error !== null && answer.error !== undefined) {
    problems.add(named('reply_matches_schema', `${where}: refused: ${JSON.stringify(answer.error)}`));
  } else {
    const wrong = request.reply.problems(answer);
    if (wrong.length > 0)
      problems.add(
        named('reply_matches_schema', `${where}: answer ${request.reply.name}: ${summary(wrong)}`),
      );
  }
  return found;
}

/** Authorizes the session with the target's token, where the channel requires it; whether it could. */
async function authorizeFor(
  session: Session,
  stream: StreamContext,
  catalog: StreamCatalog,
  channel: StreamChannelView,
): Promise<boolean> {
  if (!channel.requiresAuthorization) return true;
  const authorize = catalog.channels
    .flatMap((candidate) => candidate.requests)
    .find((r) => r.role === 'authorize');
  const example = authorize?.message.examples[0];
  if (!authorize || !example)
    throw new Error('the stream documents have no authorize request with an example');
  const answer = await ask(
    session,
    catalog,
    authorize,
    withToken(authorize, example.payload, stream.token),
    example.name,
  );
  return answer !== undefined && answer.message.error === null;
}

/** The problems of the sessions, then the reproducer of the first session's frames. */
function report(stream: StreamContext, sessions: readonly Session[]): string[] {
  const problems = [...new Set(sessions.flatMap((session) => [...session.problems]))];
  if (problems.length === 0) return [];
  const failing = sessions.find((session) => session.problems.size > 0) ?? sessions[0];
  return [...problems, streamReproducer(stream, failing?.connection.sent ?? [])];
}

/** Runs `body` on `count` fresh sessions, closing them after; an unreachable target is one problem, named by `check`. */
async function withSessions(
  stream: StreamContext,
  catalog: StreamCatalog,
  count: number,
  check: Parameters<typeof named>[0],
  body: (opened: Session[]) => Promise<void>,
): Promise<string[]> {
  const opened: Session[] = [];
  try {
    try {
      for (let index = 0; index < count; index++) opened.push(await openSession(stream, catalog));
    } catch (error) {
      return [named(check, (error as Error).message)];
    }
    await body(opened);
    return report(stream, opened);
  } finally {
    for (const session of opened) session.connection.close();
  }
}

/** Every request example of the channel, on one connection, answered as documented. */
export function checkRequests(
  stream: StreamContext,
  catalog: StreamCatalog,
  channel: StreamChannelView,
): Promise<string[]> {
  return withSessions(stream, catalog, 1, 'reply_matches_schema', async ([session]) => {
    if (!session || !(await authorizeFor(session, stream, catalog, channel))) return;
    for (const request of channel.requests) {
      for (const example of request.message.examples) {
        const payload =
          request.role === 'authorize' ? withToken(request, example.payload, stream.token) : example.payload;
        await ask(session, catalog, request, payload, example.name);
      }
    }
  });
}

/** The methods of the channel's updates. */
const updateMethods = (channel: StreamChannelView) => new Set(channel.updates.map((update) => update.method));

const isUpdateOf = (methods: Set<string>) => (message: unknown) =>
  isRecord(message) && typeof message.method === 'string' && methods.has(message.method);

/** After the subscribe example is answered, an update of the channel arrives. */
export function checkSubscribeThenUpdate(
  stream: StreamContext,
  catalog: StreamCatalog,
  channel: StreamChannelView,
  request: StreamRequestView,
  example: StreamNamedExample,
): Promise<string[]> {
  return withSessions(stream, catalog, 1, 'subscribe_then_update', async ([session]) => {
    if (!session || !(await authorizeFor(session, stream, catalog, channel))) return;
    const answer = await ask(session, catalog, request, example.payload, example.name);
    if (!answer) return;
    const methods = updateMethods(channel);
    const update = await session.connection.next(isUpdateOf(methods), answer.index + 1);
    if (!update)
      session.problems.add(
        named(
          'subscribe_then_update',
          `${channel.name}: no ${[...methods].join(' or ')} within ${seconds(session)} of the answer to ${request.method} (example ${example.name})`,
        ),
      );
  });
}

/** The next two updates of the channel on the session; what went wrong, if they do not come. */
async function nextUpdates(session: Session, methods: Set<string>): Promise<true | string> {
  const { connection } = session;
  const first = await connection.next(isUpdateOf(methods), connection.received.length);
  const second = first && (await connection.next(isUpdateOf(methods), first.index + 1));
  return second
    ? true
    : `a second connection, still subscribed, got no two updates within ${seconds(session)}: nothing to compare with`;
}

/** The mover's two writes, one after the other, each followed by the update it causes on the session. */
async function causedUpdates(
  session: Session,
  channel: StreamChannelView,
  mover: ChannelMover,
): Promise<true | string> {
  const { connection } = session;
  for (const step of mover.steps) {
    const from = connection.received.length;
    const made = await step();
    if ('problem' in made) return made.problem;
    const matches = (message: unknown) =>
      channel.updates.some((update) => fieldMismatches(update, message, made.fields).length === 0);
    if (!(await connection.next(matches, from))) {
      const others = connection.received.slice(from).filter(isUpdateOf(updateMethods(channel)));
      const nearest = others
        .map((message) => channel.updates.flatMap((update) => fieldMismatches(update, message, made.fields)))
        .sort((a, b) => a.length - b.length)[0];
      return `a second connection, still subscribed, got no update with ${describeFields(made.fields)} within ${seconds(session)} of the write that makes it${
        others.length > 0
          ? ` (${others.length} other update(s), the nearest with ${nearest?.join('; ')})`
          : ''
      }: nothing to compare with`;
    }
  }
  return true;
}

/** What a write gives the check: the fields of the update it causes, or why it was not made. */
export type WriteMade = { fields: Record<string, unknown> } | { problem: string };

/** Two writes that each change a channel, the second undoing the first (an order placed, then cancelled). */
export interface ChannelMover {
  /** The params of the channel's subscribe request that show the writes' updates. */
  subscribe: unknown[];
  /** The writes, in order: each the fields the update it causes carries, or the problem of the call. */
  steps: readonly [MoverStep, MoverStep];
}

export type MoverStep = () => Promise<WriteMade>;

/**
 * One connection subscribes to the channel with `params` (the channel's first subscribe example
 * otherwise); once the subscribe is answered, `write` is made, and an update of the channel with
 * the fields it names must follow.
 */
export function checkWriteShowsOnStream(
  stream: StreamContext,
  catalog: StreamCatalog,
  channel: StreamChannelView,
  params: unknown[],
  what: string,
  write: () => Promise<WriteMade>,
): Promise<string[]> {
  return withSessions(stream, catalog, 1, 'write_shows_on_stream', async ([session]) => {
    const subscribe = channel.requests.find((request) => request.role === 'subscribe');
    const example = subscribe?.message.examples[0];
    if (!session || !subscribe || !example || !isRecord(example.payload))
      throw new Error(`${channel.name}: no subscribe example to check`);
    if (!(await authorizeFor(session, stream, catalog, channel))) return;
    const payload = { ...example.payload, params };
    const answer = await ask(
      session,
      catalog,
      subscribe,
      payload,
      `${example.name}, with the write's params`,
    );
    if (!answer) return;
    const { connection } = session;
    const from = connection.received.length;
    const made = await write();
    if ('problem' in made) {
      session.problems.add(named('write_shows_on_stream', `${what}: ${made.problem}`));
      return;
    }
    const wrong = (message: unknown) =>
      channel.updates
        .map((update) => fieldMismatches(update, message, made.fields))
        .sort((a, b) => a.length - b.length)[0] ?? [];
    if (await connection.next((message) => wrong(message).length === 0, from)) return;
    const methods = updateMethods(channel);
    const others = connection.received.slice(from).filter(isUpdateOf(methods));
    const nearest = others.map(wrong).sort((a, b) => a.length - b.length)[0];
    session.problems.add(
      named(
        'write_shows_on_stream',
        `${what}: no ${[...methods].join(' or ')} with ${describeFields(made.fields)} within ${seconds(session)} of the write${
          others.length > 0
            ? `; ${others.length} other update(s) came, the nearest with ${nearest?.join('; ')}`
            : ''
        }`,
      ),
    );
  });
}

/** The unsubscribe request that stops every subscription of the channel: an empty list where its schema takes one. */
function unsubscribeAll(request: StreamRequestView): { payload: unknown; label: string } | undefined {
  const example = request.message.examples[0];
  if (!example || !isRecord(example.payload)) return undefined;
  const all = { ...example.payload, params: [] };
  return request.message.problems(all).length === 0
    ? { payload: all, label: `${example.name}, with no market: all of them` }
    : { payload: example.payload, label: example.name };
}

/**
 * Two connections subscribe with the channel's first subscribe example; the first unsubscribes
 * (every subscription of the channel); once the second has received two more updates, the first
 * had its turn too, had it still been subscribed: a ping on it then flushes what it was sent, and
 * no update of the channel may be among it.
 *
 * With a `mover` (a target that keeps state: two writes of the documents that change the
 * channel), the subscriptions are the mover's and each of the two updates is the one a write
 * causes, made after the unsubscribe was taken: the second arrives an interval or more after the
 * first, which came after the unsubscribe, so the first connection was due its update by then.
 * Without one, the updates are whatever the target sends next (the stream mock's pace).
 */
export function checkUnsubscribeStopsUpdates(
  stream: StreamContext,
  catalog: StreamCatalog,
  channel: StreamChannelView,
  mover?: ChannelMover,
): Promise<string[]> {
  return withSessions(stream, catalog, 2, 'unsubscribe_stops_updates', async ([leaving, staying]) => {
    const subscribe = channel.requests.find((request) => request.role === 'subscribe');
    const unsubscribe = channel.requests.find((request) => request.role === 'unsubscribe');
    const example = subscribe?.message.examples[0];
    const stop = unsubscribe && unsubscribeAll(unsubscribe);
    if (!leaving || !staying || !subscribe || !example || !unsubscribe || !stop)
      throw new Error(`${channel.name}: no subscribe and unsubscribe examples to check`);
    const methods = updateMethods(channel);
    const payload =
      mover && isRecord(example.payload) ? { ...example.payload, params: mover.subscribe } : example.payload;
    const label = mover ? `${example.name}, with the params of the writes that move it` : example.name;
    for (const session of [leaving, staying]) {
      if (!(await authorizeFor(session, stream, catalog, channel))) return;
      const answer = await ask(session, catalog, subscribe, payload, label);
      if (!answer) return;
      if (!(await session.connection.next(isUpdateOf(methods), answer.index + 1))) {
        session.problems.add(
          named(
            'subscribe_then_update',
            `${channel.name}: no ${[...methods].join(' or ')} within ${seconds(session)} of subscribing`,
          ),
        );
        return;
      }
    }
    const taken = await ask(leaving, catalog, unsubscribe, stop.payload, stop.label);
    if (!taken) return;
    const after = taken.index + 1;
    const twice = mover ? await causedUpdates(staying, channel, mover) : await nextUpdates(staying, methods);
    if (typeof twice === 'string') {
      leaving.problems.add(named('unsubscribe_stops_updates', `${channel.name}: ${twice}`));
      return;
    }
    const flushed = await ask(
      leaving,
      catalog,
      catalog.keepalive,
      catalog.keepalive.message.examples[0]?.payload,
      'after the second connection had two updates',
    );
    const late = leaving.connection.received.slice(after, flushed?.index).filter(isUpdateOf(methods));
    if (late.length > 0)
      leaving.problems.add(
        named(
          'unsubscribe_stops_updates',
          `${channel.name}: ${late.length} update(s) arrived after ${unsubscribe.method} (example ${stop.label}) was taken, while a second connection received two`,
        ),
      );
  });
}
