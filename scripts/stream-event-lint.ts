// Checks each operation's x-stream-events against both kinds of document: the channel it names is
// a channel of the stream documents (asyncapi/) with a subscribe request and an update; each field
// it names is a position of that update's params (its x-field-name) or a property below one; each
// `$request.body#/…` names a field of the operation's request body; its example is a request
// example of the operation. `npm run lint` runs it with the AsyncAPI parser's check
// (stream-lint-cli.ts). One line a problem: `<operation file> x-stream-events <what is wrong>`.
import { type ApiDocument, loadApiDocuments, pathItemFile, projectRoot } from '../model/document.ts';
import { at, isRecord, recordAt } from '../model/json.ts';
import { paramNames, paramSchema } from '../model/stream-catalog.ts';
import { loadStreamDocuments, messageMethod, streamMessages } from '../model/streams.ts';
import { collectOperationFacts } from './operation-facts.ts';

/** The names a field path may take below a schema: its properties (a $ref is resolved already). */
function hasPath(schema: unknown, path: readonly string[]): boolean {
  if (path.length === 0) return true;
  const [name, ...rest] = path;
  const properties = at(schema, 'properties');
  return isRecord(properties) && name !== undefined && name in properties && hasPath(properties[name], rest);
}

/** The request body field a runtime expression of the request names (`$request.body#/market`). */
const requestField = (value: unknown) =>
  typeof value === 'string' ? /^\$request\.body#\/([^/]+)/.exec(value)?.[1] : undefined;

export function lintStreamEvents(root: string = projectRoot): string[] {
  const apis: ApiDocument[] = loadApiDocuments(root);
  const channels = new Map(
    loadStreamDocuments(root).flatMap((document) => {
      const byChannel = new Map<string, ReturnType<typeof streamMessages>>();
      for (const message of streamMessages(document))
        byChannel.set(message.channel, [...(byChannel.get(message.channel) ?? []), message]);
      return [...byChannel];
    }),
  );
  const problems: string[] = [];
  for (const facts of collectOperationFacts(apis)) {
    if (facts.streamEvents.length === 0) continue;
    const api = apis.find((candidate) => candidate.name === facts.api);
    const file = api ? pathItemFile(api, facts.path) : facts.operationId;
    const operation = recordAt(api?.dereferenced, 'paths', facts.path, facts.method);
    const body = at(operation, 'requestBody', 'content', 'application/json');
    const bodyFields = Object.keys(recordAt(body, 'schema', 'properties'));
    const examples = Object.keys(recordAt(body, 'examples'));
    const problem = (what: string) => problems.push(`${file} x-stream-events ${what}`);
    for (const event of facts.streamEvents) {
      const messages = channels.get(event.channel);
      if (!messages) {
        problem(`names channel ${event.channel}, which no stream document has`);
        continue;
      }
      const method = (suffix: string) =>
        messages.find((message) => messageMethod(message.message)?.endsWith(suffix))?.message;
      const subscribe = method('_subscribe');
      const update = method('_update');
      if (!subscribe) problem(`${event.channel}: the channel has no subscribe request`);
      if (!update) {
        problem(`${event.channel}: the channel has no update`);
        continue;
      }
      const payload = recordAt(update, 'payload');
      const names = paramNames(payload) ?? [];
      for (const path of Object.keys(event.fields)) {
        const [name, ...rest] = path.split('.');
        const index = names.indexOf(name);
        if (index < 0 || !hasPath(paramSchema(payload, index), rest))
          problem(`${event.channel}: the update has no field ${path}`);
      }
      for (const value of [...event.subscribe, ...Object.values(event.fields)]) {
        const field = requestField(value);
        if (field !== undefined && !bodyFields.includes(field))
          problem(`${event.channel}: ${String(value)} names no field of the request body`);
      }
      if (event.example !== undefined && !examples.includes(event.example))
        problem(`${event.channel}: names no request example ${event.example}`);
    }
  }
  return problems;
}
