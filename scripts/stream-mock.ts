// A mock of the WebSocket streams, made from the AsyncAPI documents as Prism makes the HTTP mocks
// from the OpenAPI ones: `npm start` serves it (scripts/stream-mock-main.ts) and the contract
// suite checks against it. Every channel's behaviour comes from the documents through the catalog
// (model/stream-catalog.ts); no channel, method or field is named here.
//
// - A request is validated against its message's payload and answered with the first example of
//   the message that answers it, the request's `id` put in. An unsubscribe whose answer the
//   documents do not show (the public channels') gets its channel's subscribe answer, so that a
//   client waiting for an answer by id gets one.
// - A subscribe is answered, then the channel's update examples are pushed in turn, round and
//   round, the first at once and the next at each of the channel's intervals
//   (x-update-interval-seconds); a channel whose updates come "as things happen" gets one every
//   `eventIntervalSeconds`, the mock's own pace. Where a position of the update's params has the same name and schema as one of the
//   subscribe request's (a tuple's `x-field-name`), or the request is a plain list of values of
//   that schema (a list of markets), the request's values are put in: one update per listed
//   market. Otherwise the example is pushed as written. A second subscribe to a channel replaces
//   the first; an unsubscribe stops the channel's updates, whatever markets it names (the mock
//   keeps one subscription a channel).
// - A channel that requires authorization refuses every request until the connection has sent a
//   request with a `token` parameter (`authorize`) with a non-empty token; any token is taken.
// - A refusal has the shape the operator's error pages show, though neither its AsyncAPI files
//   nor ours do (observed upstream, outside the stream descriptions): `{"id": …, "result": null,
//   "error": {"code": …, "message": …}}`, code 1 for an invalid argument, 4 for a method not
//   found, 6 for a request that needs authorization; the messages are the mock's own, and name
//   what was wrong. A frame that is not JSON closes the connection, as upstream (with 1007, the
//   mock's choice: the code upstream closes with is not shown).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import { type WebSocket, WebSocketServer } from 'ws';
import { streamChannels } from '../generated/streams.ts';
import { at, isRecord, type JsonRecord } from '../model/json.ts';
import {
  loadStreamCatalog,
  paramNames,
  paramSchema,
  type StreamCatalog,
  type StreamRequestView,
  type StreamUpdateView,
} from '../model/stream-catalog.ts';

/** The variable that sets the port `npm start` serves the mock on, and the port without it. */
export const streamMockPort = { variable: 'STREAM_MOCK_PORT', fallback: 4013 } as const;

/** The URL of a stream mock on `port` of 127.0.0.1: every channel is at the documents' one address. */
export function streamMockUrl(port: number): string {
  const [first] = Object.values(streamChannels);
  return `ws://127.0.0.1:${port}${first?.address ?? '/ws'}`;
}

/** Seconds between the mock's pushes on a channel whose updates come as things happen (its own pace). */
export const eventIntervalSeconds = 1;

/** The refusal codes of the operator's error table (observed upstream, its error pages). */
export const refusalCodes = { invalidArgument: 1, methodNotFound: 4, requiresAuthorization: 6 } as const;

/** What an outgoing message is, for a hook that changes it (a mutant mock). */
export interface OutgoingMessage {
  kind: 'reply' | 'update' | 'refusal';
  /** The channel it belongs to, when known. */
  channel?: string;
  /** The name of the message it is an example of (`DepthUpdate`); none for a refusal. */
  message?: string;
}

export interface StreamMockOptions {
  /** 0 (the default) picks a free port. It listens on 127.0.0.1 only. */
  port?: number;
  /** The project whose documents it serves (the project by default). */
  catalog?: StreamCatalog;
  /** Multiplies every interval between updates: below 1 pushes faster (a test's pace). */
  pace?: number;
  /**
   * Sees every message before it is sent and returns what is sent (undefined: nothing): a mutant
   * mock breaks or drops one here.
   */
  outgoing?: (message: JsonRecord, about: OutgoingMessage) => unknown;
  /** One line per request and refusal. */
  log?: (line: string) => void;
}

export interface StreamMock {
  /** `ws://127.0.0.1:<port>/ws`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

interface Connection {
  socket: WebSocket;
  authorized: boolean;
  /** The timer of each subscribed channel's pushes. */
  subscriptions: Map<string, NodeJS.Timeout>;
}

/** A schema without what only describes it, to compare two positions' schemas. */
function shape(schema: JsonRecord): JsonRecord {
  const { 'x-field-name': _name, description: _description, title: _title, ...rest } = schema;
  return rest;
}

/**
 * The updates a subscription pushes for one example: the example with the request's values put in
 * where a position of its params matches one of the request's by name and schema, or one update per
 * value where the request is a plain list of that schema (a list of markets); else as written.
 */
export function substitutedUpdates(
  example: unknown,
  update: StreamUpdateView,
  request: StreamRequestView,
  params: readonly unknown[],
): unknown[] {
  const names = paramNames(update.message.payload);
  const written = at(example, 'params');
  if (!names || !Array.isArray(written) || !isRecord(example)) return [example];
  const requestNames = paramNames(request.message.payload);
  const fixed = [...written];
  let listed: { index: number; values: readonly unknown[] } | undefined;
  for (const [index, name] of names.entries()) {
    if (name === undefined) continue;
    const schema = shape(paramSchema(update.message.payload, index));
    const from = requestNames?.indexOf(name) ?? -1;
    if (from >= 0 && from < params.length) {
      if (isDeepStrictEqual(shape(paramSchema(request.message.payload, from)), schema))
        fixed[index] = params[from];
    } else if (!requestNames && !listed && params.length > 0) {
      if (isDeepStrictEqual(shape(paramSchema(request.message.payload, 0)), schema))
        listed = { index, values: params };
    }
  }
  if (!listed) return [{ ...example, params: fixed }];
  const { index, values } = listed;
  return values.map((value) => ({
    ...example,
    params: fixed.map((item, position) => (position === index ? value : item)),
  }));
}

const refusal = (id: unknown, code: number, message: string): JsonRecord => ({
  id: typeof id === 'number' ? id : null,
  result: null,
  error: { code, message },
});

export async function startStreamMock(options: StreamMockOptions = {}): Promise<StreamMock> {
  const catalog = options.catalog ?? loadStreamCatalog();
  const pace = options.pace ?? 1;
  const log = options.log ?? (() => {});
  const connections = new Set<Connection>();

  const send = (connection: Connection, message: JsonRecord, about: OutgoingMessage) => {
    const sent = options.outgoing ? options.outgoing(message, about) : message;
    if (sent === undefined) return;
    if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(JSON.stringify(sent));
  };

  const stop = (connection: Connection, channel: string) => {
    clearInterval(connection.subscriptions.get(channel));
    connection.subscriptions.delete(channel);
  };

  const subscribe = (connection: Connection, request: StreamRequestView, params: readonly unknown[]) => {
    const channel = catalog.channels.find((candidate) => candidate.name === request.channel);
    // One round a tick: an example, once per listed market.
    const rounds = (channel?.updates ?? []).flatMap((update) =>
      update.message.examples.map((example) =>
        substitutedUpdates(example.payload, update, request, params).map((message) => ({ update, message })),
      ),
    );
    stop(connection, request.channel);
    if (rounds.length === 0) return;
    let next = 0;
    const push = () => {
      const round = rounds[next % rounds.length] ?? [];
      next += 1;
      for (const { update, message } of round)
        send(connection, message as JsonRecord, {
          kind: 'update',
          channel: update.channel,
          message: update.message.name,
        });
    };
    const seconds = Math.min(
      ...(channel?.updates ?? []).map((update) => update.intervalSeconds ?? eventIntervalSeconds),
    );
    push();
    connection.subscriptions.set(request.channel, setInterval(push, Math.max(1, seconds * 1000 * pace)));
  };

  const answer = (connection: Connection, request: StreamRequestView, id: unknown) => {
    const reply =
      request.reply ??
      catalog.channels
        .find((channel) => channel.name === request.channel)
        ?.requests.find((candidate) => candidate.role === 'subscribe')?.reply;
    const example = reply?.examples[0]?.payload;
    if (!reply || !isRecord(example)) return;
    send(connection, { ...example, id }, { kind: 'reply', channel: request.channel, message: reply.name });
  };

  const receive = (connection: Connection, text: string) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      log('closed a connection: a frame that is not JSON');
      connection.socket.close(1007, 'invalid JSON');
      return;
    }
    const id = at(parsed, 'id');
    const method = at(parsed, 'method');
    const refuse = (code: number, message: string) => {
      log(`refused ${typeof method === 'string' ? method : '(no method)'} (id ${String(id)}): ${message}`);
      send(connection, refusal(id, code, message), { kind: 'refusal' });
    };
    if (!isRecord(parsed) || typeof method !== 'string') {
      refuse(
        refusalCodes.invalidArgument,
        'invalid argument: a request is an object with id, method and params',
      );
      return;
    }
    const request = catalog.request(method);
    if (!request) {
      refuse(
        refusalCodes.methodNotFound,
        `method not found: ${method} is not a request of the stream documents`,
      );
      return;
    }
    const channel = catalog.channels.find((candidate) => candidate.name === request.channel);
    if (channel?.requiresAuthorization && !connection.authorized) {
      refuse(
        refusalCodes.requiresAuthorization,
        `require authentication: ${method} is a request of the account channel ${request.channel}; authorize the connection first`,
      );
      return;
    }
    const problems = request.message.problems(parsed);
    if (problems.length > 0) {
      refuse(refusalCodes.invalidArgument, `invalid argument: ${method}: ${problems.join('; ')}`);
      return;
    }
    const params = Array.isArray(parsed.params) ? parsed.params : [];
    if (request.role === 'authorize') {
      const token = params[paramNames(request.message.payload)?.indexOf('token') ?? -1];
      if (typeof token !== 'string' || token === '') {
        refuse(refusalCodes.invalidArgument, `invalid argument: ${method}: the token is empty`);
        return;
      }
      connection.authorized = true;
    }
    log(`${method} (id ${String(id)})`);
    answer(connection, request, id);
    if (request.role === 'subscribe') subscribe(connection, request, params);
    if (request.role === 'unsubscribe') stop(connection, request.channel);
  };

  const server = createServer((_request: IncomingMessage, response: ServerResponse) => {
    // Not an upgrade: say what is here (a ready check's fetch gets this answer too).
    response.writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket' });
    response.end(`the stream mock: a WebSocket endpoint at ${catalog.address}\n`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Attached once listening: ws passes the server's errors on, and a port in use is the caller's.
  const sockets = new WebSocketServer({ server, path: catalog.address, maxPayload: 1024 * 1024 });
  sockets.on('connection', (socket) => {
    const connection: Connection = { socket, authorized: false, subscriptions: new Map() };
    connections.add(connection);
    socket.on('message', (data) => receive(connection, data.toString()));
    socket.on('close', () => {
      for (const channel of [...connection.subscriptions.keys()]) stop(connection, channel);
      connections.delete(connection);
    });
    socket.on('error', () => socket.terminate());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `ws://127.0.0.1:${port}${catalog.address}`,
    port,
    async close() {
      for (const connection of connections) {
        for (const channel of [...connection.subscriptions.keys()]) stop(connection, channel);
        connection.socket.terminate();
      }
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
