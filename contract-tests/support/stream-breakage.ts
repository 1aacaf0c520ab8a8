// Deliberate breakage for the proofs that the stream part can fail: mutant stream mocks, each the
// stream mock with one fault, picked from the documents rather than named by hand.
// - an update whose strings are numbers (an amount as a number breaks every decimal string);
// - an answer without a field its schema requires; an answer with another id;
// - a catalog in which unsubscribing is a mere query, so the updates go on;
// - a mock that never pushes an update.
import { isRecord, type JsonRecord } from '../../model/json.ts';
import type { StreamCatalog, StreamChannelView, StreamRequestView } from '../../model/stream-catalog.ts';
import type { OutgoingMessage } from '../../scripts/stream-mock.ts';
import { stringsToNumbers } from './breakage.ts';

export interface StreamBreakage {
  channel: StreamChannelView;
  /** The message whose examples the mutant breaks (`DepthUpdate`, `DepthResult`). */
  message: string;
  /** A field the broken message gets wrong (the key of a string that became a number, or the dropped field). */
  field: string;
  /** The stream mock's hook that breaks it. */
  outgoing(message: JsonRecord, about: OutgoingMessage): unknown;
}

/**
 * The first public channel whose update, with its params' strings turned into numbers, breaks the
 * update's schema (public: a URL target without a token checks it too).
 */
export function pickUpdateBreakage(catalog: StreamCatalog): StreamBreakage {
  for (const channel of catalog.channels.filter((candidate) => !candidate.requiresAuthorization)) {
    for (const update of channel.updates) {
      const example = update.message.examples[0]?.payload;
      if (!isRecord(example)) continue;
      const keys: string[] = [];
      const broken = { ...example, params: stringsToNumbers(example.params, keys, 'params') };
      const field = keys.find((key) => key !== 'params') ?? keys[0];
      if (field && update.message.problems(broken).length > 0) {
        return {
          channel,
          message: update.message.name,
          field,
          outgoing: (message, about) =>
            about.kind === 'update' && about.message === update.message.name
              ? { ...message, params: stringsToNumbers(message.params) }
              : message,
        };
      }
    }
  }
  throw new Error('no public update with strings to break');
}

/** The first public query whose answer has a required field in `result` to drop: the mutant drops it. */
export function pickReplyBreakage(catalog: StreamCatalog): StreamBreakage & { request: StreamRequestView } {
  for (const channel of catalog.channels.filter((candidate) => !candidate.requiresAuthorization)) {
    for (const request of channel.requests.filter(
      (candidate) => candidate.role === 'query' && candidate.reply,
    )) {
      const reply = request.reply;
      const example = reply?.examples[0]?.payload;
      if (!reply || !isRecord(example) || !isRecord(example.result)) continue;
      const required = reply.payload.properties;
      const field = (
        isRecord(required) && isRecord(required.result) && Array.isArray(required.result.required)
          ? (required.result.required as unknown[])
          : []
      ).find((name): name is string => typeof name === 'string' && name in (example.result as JsonRecord));
      if (!field) continue;
      const drop = (message: JsonRecord) => {
        const { [field]: _dropped, ...rest } = message.result as JsonRecord;
        return { ...message, result: rest };
      };
      if (reply.problems(drop(example)).length === 0) continue;
      return {
        channel,
        request,
        message: reply.name,
        field,
        outgoing: (message, about) =>
          about.kind === 'reply' && about.message === reply.name && isRecord(message.result)
            ? drop(message)
            : message,
      };
    }
  }
  throw new Error('no public answer with a required field to drop');
}

/** Every answer with an id one more than the request's. */
export const wrongIds = (message: JsonRecord, about: OutgoingMessage): unknown =>
  about.kind === 'reply' && typeof message.id === 'number' ? { ...message, id: message.id + 1 } : message;

/** No update at all. */
export const noUpdates = (message: JsonRecord, about: OutgoingMessage): unknown =>
  about.kind === 'update' ? undefined : message;

/** The catalog with every unsubscribe taken as a query: answered, and the updates go on. */
export function withoutUnsubscribe(catalog: StreamCatalog): StreamCatalog {
  return {
    ...catalog,
    request(method) {
      const request = catalog.request(method);
      return request?.role === 'unsubscribe' ? { ...request, role: 'query' } : request;
    },
  };
}
