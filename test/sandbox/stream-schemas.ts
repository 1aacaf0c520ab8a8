// Every message a test stream received, checked against the stream documents (their catalog,
// model/stream-catalog.ts): an update against its method's update message, an answer against the
// message that answers its request. The documents describe a failed answer in words only
// (`result` null, `error` an object of an integer `code` and a `message`): a failed answer is
// held to that here. An answer the documents do not show (a public unsubscribe's) is held to the
// channel's subscribe answer, `Confirmed`.
import { isRecord } from '../../model/json.ts';
import { loadStreamCatalog } from '../../model/stream-catalog.ts';
import type { StreamMessage, TestStream } from './stream-client.ts';

const catalog = loadStreamCatalog();

/** The problems of one received message, given the method of each request sent by id. */
function problemsOf(message: StreamMessage, sent: ReadonlyMap<number, string>): string[] {
  if (message.id === null) {
    const update = catalog.update(message.method ?? '');
    return update ? update.message.problems(message) : [`no channel pushes ${message.method}`];
  }
  if (message.error !== null) {
    const { error } = message;
    const valid =
      message.result === null &&
      isRecord(error) &&
      Number.isInteger(error.code) &&
      typeof error.message === 'string' &&
      Object.keys(message).sort().join() === 'error,id,result';
    return valid ? [] : ['not a failed answer of the form the documents describe'];
  }
  const request = catalog.request(sent.get(message.id) ?? '');
  if (!request) return [`an answer to no request the documents name (id ${message.id})`];
  const channel = catalog.channels.find((candidate) => candidate.name === request.channel);
  const reply = request.reply ?? channel?.requests.find((candidate) => candidate.role === 'subscribe')?.reply;
  return reply ? reply.problems(message) : [`${request.method} has no answer in the documents`];
}

/** What is wrong with each message the stream received, by its position; empty when nothing is. */
export function schemaProblems(stream: TestStream): string[] {
  return stream.received.flatMap((message, index) =>
    problemsOf(message, stream.sent).map((problem) => `#${index} ${problem}: ${JSON.stringify(message)}`),
  );
}
