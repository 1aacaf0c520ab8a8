// generated/streams.ts, the facts of every channel of the stream documents (asyncapi/), the way
// generated/operations.ts holds those of the HTTP operations: each channel's document, file and
// address, whether it needs an authorized connection (x-requires-authorization), the methods a
// client sends (the server's `receive` operations, with the message that answers each, its
// `reply`) and those the server pushes (its `send` operations, with the interval the operator
// states, x-update-interval-seconds); each document's servers, rate limit and keepalive; the HTTP
// operation that issues the token `authorize` presents (x-token-operation); and every message's
// params by method (scripts/stream-params.ts).
import { posix } from 'node:path';
import type { StreamChannelFacts } from '../generated/streams.ts';
import { isRecord, numberAt, recordAt, stringAt } from '../model/json.ts';
import { messageMethod, type StreamDocument } from '../model/streams.ts';
import { collectStreamParams, type StreamParamsFacts, streamParamTypes } from './stream-params.ts';

/** The channel's name and the message's key that a `#/channels/<name>/messages/<key>` reference names. */
function referenced(ref: unknown): { channel: string; key?: string } {
  const match = typeof ref === 'string' ? /^#\/channels\/([^/]+)(?:\/messages\/([^/]+))?$/.exec(ref) : null;
  if (!match) throw new Error(`not a reference to a channel or its message: ${String(ref)}`);
  return { channel: match[1] as string, ...(match[2] ? { key: match[2] } : {}) };
}

interface MessageFacts {
  method: string | null;
  message: string;
}

function collectChannels(documents: StreamDocument[]): Record<string, StreamChannelFacts> {
  const channels: Record<string, StreamChannelFacts> = {};
  for (const stream of documents) {
    const messageAt = (ref: unknown): MessageFacts => {
      const { channel, key } = referenced(ref);
      const message = recordAt(stream.dereferenced, 'channels', channel, 'messages', key ?? '');
      const name = stringAt(message, 'name');
      if (!name) throw new Error(`${stream.file}: ${String(ref)} names no message`);
      return { method: messageMethod(message) ?? null, message: name };
    };
    const operations = Object.values(recordAt(stream.document, 'operations')).filter(isRecord);
    for (const [name, written] of Object.entries(recordAt(stream.document, 'channels'))) {
      if (channels[name]) throw new Error(`channel ${name} is in two stream documents`);
      const channel = recordAt(stream.dereferenced, 'channels', name);
      const authorization = channel['x-requires-authorization'];
      if (typeof authorization !== 'boolean')
        throw new Error(`${stream.file}: channel ${name} has no x-requires-authorization`);
      const ref = stringAt(written, '$ref');
      const own = operations.filter(
        (operation) => referenced(stringAt(operation, 'channel', '$ref')).channel === name,
      );
      const requests = own
        .filter((operation) => operation.action === 'receive')
        .flatMap((operation) => {
          const replies = [recordAt(operation, 'reply').messages].flat().filter(isRecord);
          const reply = replies[0] ? messageAt(replies[0].$ref).message : null;
          return [operation.messages]
            .flat()
            .filter(isRecord)
            .map((message) => ({ ...messageAt(message.$ref), reply }));
        });
      const updates = own
        .filter((operation) => operation.action === 'send')
        .flatMap((operation) =>
          [operation.messages]
            .flat()
            .filter(isRecord)
            .map((message) => {
              const { key } = referenced(message.$ref);
              const interval = numberAt(channel, 'messages', key ?? '', 'x-update-interval-seconds');
              return { ...messageAt(message.$ref), intervalSeconds: interval ?? null };
            }),
        );
      channels[name] = {
        document: stream.name,
        file: ref ? posix.normalize(posix.join(posix.dirname(stream.file), ref)) : stream.file,
        address: stringAt(channel, 'address') ?? null,
        summary: stringAt(channel, 'summary') ?? '',
        requiresAuthorization: authorization,
        requests,
        updates,
      };
    }
  }
  return channels;
}

/** Each document's deployments by x-server-name: the origin of its WebSocket endpoint. */
function collectServers(documents: StreamDocument[]): Record<string, Record<string, string>> {
  return Object.fromEntries(
    documents.map((stream) => [
      stream.name,
      Object.fromEntries(
        Object.entries(recordAt(stream.dereferenced, 'servers')).map(([id, server]) => {
          const name = stringAt(server, 'x-server-name');
          if (!name) throw new Error(`${stream.file}: server ${id} has no x-server-name`);
          const host = (stringAt(server, 'host') ?? '').replace(
            /\{([^}]+)\}/g,
            (_, variable: string) => stringAt(server, 'variables', variable, 'default') ?? `{${variable}}`,
          );
          return [
            name,
            `${stringAt(server, 'protocol') ?? 'wss'}://${host}${stringAt(server, 'pathname') ?? ''}`,
          ];
        }),
      ),
    ]),
  );
}

/** Each document's x-rate-limit. */
function collectRateLimits(documents: StreamDocument[]): Record<string, StreamRateLimitFacts> {
  return Object.fromEntries(
    documents.map((stream) => {
      const limit = recordAt(stream.dereferenced, 'info', 'x-rate-limit');
      return [
        stream.name,
        {
          connections: numberAt(limit, 'connections') ?? null,
          requests: numberAt(limit, 'requests') ?? null,
          windowSeconds: numberAt(limit, 'windowSeconds') ?? null,
          source: stringAt(limit, 'source') ?? null,
        },
      ];
    }),
  );
}

/** The channel that keeps a connection open (x-keepalive): its method and how long the server waits. */
function collectKeepalive(documents: StreamDocument[]): StreamKeepaliveFacts {
  const found = documents.flatMap((stream) =>
    Object.entries(recordAt(stream.dereferenced, 'channels')).flatMap(([channel, item]) => {
      const keepalive = recordAt(item, 'x-keepalive');
      const method = stringAt(keepalive, 'method');
      const idleCloseSeconds = numberAt(keepalive, 'idleCloseSeconds');
      return method && idleCloseSeconds !== undefined ? [{ channel, method, idleCloseSeconds }] : [];
    }),
  );
  if (found.length !== 1)
    throw new Error(`the stream documents name ${found.length} keepalive channels, not one`);
  return found[0] as StreamKeepaliveFacts;
}

/** The channel that names the token's HTTP operation (x-token-operation): there is one. */
function collectTokenOperation(documents: StreamDocument[]): StreamTokenOperationFacts {
  const found = documents.flatMap((stream) =>
    Object.entries(recordAt(stream.dereferenced, 'channels')).flatMap(([channel, item]) => {
      const token = recordAt(item, 'x-token-operation');
      const operationId = stringAt(token, 'operationId');
      const field = stringAt(token, 'field');
      return operationId && field ? [{ channel, operationId, field }] : [];
    }),
  );
  if (found.length !== 1)
    throw new Error(
      `the stream documents name ${found.length} token operations (x-token-operation), not one`,
    );
  return found[0] as StreamTokenOperationFacts;
}

const factTypes = `/** A request a channel takes: its method, the message carrying it and the message answering it (null: not shown). */
export interface StreamRequestFacts {
  readonly method: string | null;
  readonly message: string;
  readonly reply: string | null;
}

/** An update a channel pushes: its method, its message, and its interval in seconds (null: as things happen). */
export interface StreamUpdateFacts {
  readonly method: string | null;
  readonly message: string;
  readonly intervalSeconds: number | null;
}

/** What a client needs to know of a channel before its first message. */
export interface StreamChannelFacts {
  /** The stream document the channel is in. */
  readonly document: string;
  /** The channel's file, relative to the project root. */
  readonly file: string;
  /** The address on the server (every channel shares one connection). */
  readonly address: string | null;
  readonly summary: string;
  /** Whether the connection must be authorized first (the authorize channel). */
  readonly requiresAuthorization: boolean;
  readonly requests: readonly StreamRequestFacts[];
  readonly updates: readonly StreamUpdateFacts[];
}
`;

/** A document's x-rate-limit, each figure null where the document does not give it. */
export interface StreamRateLimitFacts {
  readonly connections: number | null;
  readonly requests: number | null;
  readonly windowSeconds: number | null;
  readonly source: string | null;
}

/** The keepalive (x-keepalive): the channel and method that keep a connection open, and the idle time. */
export interface StreamKeepaliveFacts {
  readonly channel: string;
  readonly method: string;
  readonly idleCloseSeconds: number;
}

/**
 * The HTTP operation that issues the WebSocket token of `authorize` (x-token-operation): the channel
 * that names it, its operationId in the OpenAPI documents, and the field of its answer that holds
 * the token.
 */
export interface StreamTokenOperationFacts {
  readonly channel: string;
  readonly operationId: string;
  readonly field: string;
}

/**
 * What generated/streams.ts holds, from the documents as they are: for a reader of a project
 * root other than the one whose generated/ was imported (the docs of `npm start`'s watch loop).
 */
export interface StreamFacts {
  readonly channels: Readonly<Record<string, StreamChannelFacts>>;
  readonly servers: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly rateLimits: Readonly<Record<string, StreamRateLimitFacts>>;
  readonly keepalive: StreamKeepaliveFacts;
  readonly tokenOperation: StreamTokenOperationFacts;
  readonly params: Readonly<Record<string, StreamParamsFacts>>;
}

/** The facts of the stream documents, as generated/streams.ts writes them. */
export function streamFacts(documents: StreamDocument[]): StreamFacts {
  return {
    channels: collectChannels(documents),
    servers: collectServers(documents),
    rateLimits: collectRateLimits(documents),
    keepalive: collectKeepalive(documents),
    tokenOperation: collectTokenOperation(documents),
    params: collectStreamParams(documents),
  };
}

/** generated/streams.ts for the stream documents. */
export function renderStreamFactsModule(documents: StreamDocument[]): string {
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  const facts = streamFacts(documents);
  return `// Generated by scripts/generate.ts from ${documents.map((stream) => stream.file).join(' and ')}. Do not edit.

${factTypes}
${streamParamTypes}
/** Every channel of the WebSocket streams, by name. */
export const streamChannels = ${json(facts.channels)} as const satisfies Readonly<Record<string, StreamChannelFacts>>;

export type StreamChannelName = keyof typeof streamChannels;

/** The deployments of each stream document, selectable by name (x-server-name): their WebSocket origin. */
export const streamServers = ${json(facts.servers)} as const;

/** Connections and requests per window, as the operator states them (x-rate-limit, observed upstream). */
export const streamRateLimits = ${json(facts.rateLimits)} as const;

/** The request that keeps a connection open, and how long an idle connection lasts (x-keepalive, observed upstream). */
export const streamKeepalive = ${json(facts.keepalive)} as const;

/** The HTTP operation that issues the token \`authorize\` presents, and the field of its answer holding it (x-token-operation). */
export const streamTokenOperation = ${json(facts.tokenOperation)} as const;

/** The params of every request and update, by method. */
export const streamParams = ${json(facts.params)} as const satisfies Readonly<Record<string, StreamParamsFacts>>;
`;
}
