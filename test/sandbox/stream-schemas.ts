// Every message a test stream received, checked against the stream documents: an update against
// the update message of the channel its method belongs to, an answer against the message that
// answers its request (generated/streams.ts's `reply`). The documents describe a failed answer in
// words only (`result` null, `error` an object of an integer `code` and a `message`): a failed
// answer is held to that here.
import type { ValidateFunction } from 'ajv';
import {
  type StreamChannelFacts,
  type StreamRequestFacts,
  type StreamUpdateFacts,
  streamChannels,
} from '../../generated/streams.ts';
import { isRecord, type JsonRecord } from '../../model/json.ts';
import { createStreamSchemaValidator, loadStreamDocuments, streamMessages } from '../../model/streams.ts';
import type { StreamMessage, TestStream } from './stream-client.ts';

const payloads = new Map<string, JsonRecord>();
for (const document of loadStreamDocuments()) {
  for (const { message } of streamMessages(document)) {
    if (typeof message.name === 'string' && isRecord(message.payload))
      payloads.set(message.name, message.payload);
  }
}
const ajv = createStreamSchemaValidator();
const validators = new Map<string, ValidateFunction>();

function validatorOf(name: string): ValidateFunction {
  let validate = validators.get(name);
  if (!validate) {
    const payload = payloads.get(name);
    if (!payload) throw new Error(`the stream documents have no message ${name}`);
    validate = ajv.compile(payload);
    validators.set(name, validate);
  }
  return validate;
}

const channels: StreamChannelFacts[] = Object.values(streamChannels);
const requests: StreamRequestFacts[] = channels.flatMap((channel) => channel.requests);
const updates: StreamUpdateFacts[] = channels.flatMap((channel) => channel.updates);

/**
 * The message name of the documents a received message must be: its update's, or its request's
 * answer's; 'failed' for a failed answer. An answer to a request whose answer the documents do not
 * show (a public unsubscribe) is held to the answer of a subscribe request, `Confirmed`.
 */
export function messageNameOf(message: StreamMessage, sent: ReadonlyMap<number, string>): string {
  if (message.id === null) {
    const update = updates.find((candidate) => candidate.method === message.method);
    if (!update) throw new Error(`no channel pushes ${message.method}`);
    return update.message;
  }
  if (message.error !== null) return 'failed';
  const method = sent.get(message.id);
  const request = requests.find((candidate) => candidate.method === method);
  if (!request) throw new Error(`answer ${message.id} to no request the documents name`);
  return request.reply ?? 'Confirmed';
}

/** What is wrong with each message the stream received, by its position; empty when nothing is. */
export function schemaProblems(stream: TestStream): string[] {
  return stream.received.flatMap((message, index) => {
    const name = messageNameOf(message, stream.sent);
    if (name === 'failed') {
      const { error } = message;
      const valid =
        message.result === null &&
        isRecord(error) &&
        Number.isInteger(error.code) &&
        typeof error.message === 'string' &&
        Object.keys(message).sort().join() === 'error,id,result';
      return valid ? [] : [`#${index} failed answer: ${JSON.stringify(message)}`];
    }
    const validate = validatorOf(name);
    return validate(message)
      ? []
      : [`#${index} ${name}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(message)}`];
  });
}
