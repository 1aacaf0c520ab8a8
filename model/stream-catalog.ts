// The stream documents' messages as a server or a checker of the streams uses them: every method a
// client sends, with the message that carries it, what it does to the connection and the message
// that answers it; every update the server pushes, with its interval; each message's dereferenced
// payload schema, named examples and validator. The channels and their methods are the generated
// facts (generated/streams.ts); the messages are read from the documents (model/streams.ts), so
// the stream mock and the contract suite name no channel, method or field of their own.
import type { ValidateFunction } from 'ajv';
import { type StreamChannelFacts, streamChannels, streamKeepalive } from '../generated/streams.ts';
import { compileSchema } from './compiled-schema.ts';
import { projectRoot } from './document.ts';
import { arrayAt, isRecord, type JsonRecord, recordAt, stringAt } from './json.ts';
import { createStreamSchemaValidator, loadStreamDocuments, type StreamDocument } from './streams.ts';

/**
 * What a request does to the connection. The operator names a channel's methods
 * `<channel>_request` (or `_query`), `<channel>_subscribe`, `<channel>_unsubscribe` and
 * `<channel>_update` (observed upstream): the suffix says which one a request is. A request that
 * carries a `token` parameter (its `x-field-name`) authorizes the connection for the channels
 * that require it.
 */
export type StreamRequestRole = 'authorize' | 'subscribe' | 'unsubscribe' | 'query';

export interface StreamNamedExample {
  name: string;
  payload: unknown;
}

/** One message of a channel: its name, dereferenced payload schema and named examples. */
export interface StreamMessageView {
  /** The message's name (`DepthQuery`); several channels share `Confirmed`. */
  name: string;
  channel: string;
  payload: JsonRecord;
  examples: readonly StreamNamedExample[];
  /** Each problem of `value` against the payload, `path: what is wrong` (`params.1.asks.0.1: must be string`). */
  problems(value: unknown): string[];
}

export interface StreamRequestView {
  channel: string;
  method: string;
  role: StreamRequestRole;
  message: StreamMessageView;
  /** The message that answers it; undefined where the documents do not show one. */
  reply: StreamMessageView | undefined;
}

export interface StreamUpdateView {
  channel: string;
  method: string;
  message: StreamMessageView;
  /** Seconds between updates; null: as things happen. */
  intervalSeconds: number | null;
}

export interface StreamChannelView {
  name: string;
  /** The stream document it is in (`public-v4`). */
  document: string;
  /** The address on the server every channel shares (`/ws`). */
  address: string;
  requiresAuthorization: boolean;
  requests: readonly StreamRequestView[];
  updates: readonly StreamUpdateView[];
}

export interface StreamCatalog {
  channels: readonly StreamChannelView[];
  /** The address every channel is at (`/ws`): they share one connection. */
  address: string;
  /** A request by its method. */
  request(method: string): StreamRequestView | undefined;
  /** An update by its method. */
  update(method: string): StreamUpdateView | undefined;
  /** The request that keeps a connection open (`ping`, x-keepalive). */
  keepalive: StreamRequestView;
}

/** The `x-field-name` of each position of a message's `params` tuple; undefined for a plain list. */
export function paramNames(payload: JsonRecord): (string | undefined)[] | undefined {
  const items = recordAt(payload, 'properties', 'params').items;
  return Array.isArray(items) ? items.map((item) => stringAt(item, 'x-field-name')) : undefined;
}

/** The schema of one position of a message's `params` (a tuple's item, or a list's items). */
export function paramSchema(payload: JsonRecord, index: number): JsonRecord {
  const items = recordAt(payload, 'properties', 'params').items;
  return Array.isArray(items) ? recordAt(items, index) : isRecord(items) ? items : {};
}

function roleOf(method: string, payload: JsonRecord): StreamRequestRole {
  if (paramNames(payload)?.includes('token')) return 'authorize';
  if (method.endsWith('_unsubscribe')) return 'unsubscribe';
  if (method.endsWith('_subscribe')) return 'subscribe';
  return 'query';
}

const problemsOf = (validate: ValidateFunction, value: unknown): string[] =>
  validate(value)
    ? []
    : (validate.errors ?? []).map(
        (error) =>
          `${error.instancePath.slice(1).replaceAll('/', '.') || '(message)'}: ${error.message ?? error.keyword}`,
      );

/** The catalog of the stream documents of `root` (the project by default). */
export function loadStreamCatalog(
  root: string = projectRoot,
  documents: StreamDocument[] = loadStreamDocuments(root),
): StreamCatalog {
  const ajv = createStreamSchemaValidator();
  const byDocument = new Map(documents.map((stream) => [stream.name as string, stream]));
  const messageOf = (channel: string, facts: StreamChannelFacts, name: string): StreamMessageView => {
    const stream = byDocument.get(facts.document);
    const messages = recordAt(stream?.dereferenced, 'channels', channel, 'messages');
    const message = Object.values(messages).find((candidate) => stringAt(candidate, 'name') === name);
    if (!isRecord(message)) throw new Error(`stream channel ${channel} has no message ${name}`);
    const payload = recordAt(message, 'payload');
    let validate: ValidateFunction | undefined;
    return {
      name,
      channel,
      payload,
      examples: arrayAt(message, 'examples').map((example, index) => ({
        name: stringAt(example, 'name') ?? String(index),
        payload: recordAt(example).payload,
      })),
      problems(value) {
        validate ??= compileSchema(ajv, payload);
        return problemsOf(validate, value);
      },
    };
  };
  const channels: StreamChannelView[] = Object.entries(
    streamChannels as Record<string, StreamChannelFacts>,
  ).map(([name, facts]) => ({
    name,
    document: facts.document,
    address: facts.address ?? '/ws',
    requiresAuthorization: facts.requiresAuthorization,
    requests: facts.requests.flatMap((request) => {
      if (request.method === null) return [];
      const message = messageOf(name, facts, request.message);
      return [
        {
          channel: name,
          method: request.method,
          role: roleOf(request.method, message.payload),
          message,
          reply: request.reply === null ? undefined : messageOf(name, facts, request.reply),
        },
      ];
    }),
    updates: facts.updates.flatMap((update) =>
      update.method === null
        ? []
        : [
            {
              channel: name,
              method: update.method,
              message: messageOf(name, facts, update.message),
              intervalSeconds: update.intervalSeconds,
            },
          ],
    ),
  }));
  const requests = new Map(
    channels.flatMap((channel) => channel.requests.map((r) => [r.method, r] as const)),
  );
  const updates = new Map(channels.flatMap((channel) => channel.updates.map((u) => [u.method, u] as const)));
  const addresses = new Set(channels.map((channel) => channel.address));
  if (addresses.size !== 1)
    throw new Error(`the stream channels are at ${addresses.size} addresses, not one`);
  const keepalive = requests.get(streamKeepalive.method);
  if (!keepalive) throw new Error(`no stream request ${streamKeepalive.method} (x-keepalive)`);
  return {
    channels,
    address: [...addresses][0] as string,
    request: (method) => requests.get(method),
    update: (method) => updates.get(method),
    keepalive,
  };
}
