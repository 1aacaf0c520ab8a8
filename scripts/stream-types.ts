// The message payloads of a stream document (asyncapi/), as the components of an OpenAPI 3.1
// document that openapi-typescript types (scripts/generated-files.ts): one schema per message,
// named after the message's `name`, and one per shared schema file (a file under a
// `components/schemas/` folder, asyncapi/'s or openapi/'s), named after the file, so that the
// generated types keep the names the documents give (`DepthUpdate`, `Decimal`, `StreamOrder`).
// Every other $ref (a message file, a pointer within a file) is written out in place.
import { posix } from 'node:path';
import { atPointer, type FileReader } from '../model/document.ts';
import { isRecord, type JsonRecord, recordAt, stringAt } from '../model/json.ts';
import { parseYaml } from '../model/parse-yaml.ts';
import { type StreamDocumentName, streamDocumentFiles } from '../model/streams.ts';

/** A schema file shared by name: its type is named after the file. */
const sharedSchemaFile = /(^|\/)components\/schemas\/([A-Za-z][A-Za-z0-9]*)\.ya?ml$/;

/**
 * The OpenAPI document whose `components.schemas` are the payloads of the stream document `name`
 * of a project (through `read`) and the shared schemas they use. Two messages or two schema
 * files that would give one type name are an error, unless they are the same message (a shared
 * message that several channels name).
 */
export function streamTypesDocument(name: StreamDocumentName, read: FileReader): JsonRecord {
  const rootFile = streamDocumentFiles[name];
  const parsed = new Map<string, unknown>();
  const load = (file: string): unknown => {
    if (!parsed.has(file)) {
      const text = read(file);
      if (text === undefined) throw new Error(`no file ${file}`);
      parsed.set(file, parseYaml(text));
    }
    return parsed.get(file);
  };
  /** Where a $ref written in `file` points: the file and the node. */
  const follow = (ref: string, file: string) => {
    const hash = ref.indexOf('#');
    const path = hash === -1 ? ref : ref.slice(0, hash);
    const pointer = hash === -1 ? '' : ref.slice(hash + 1);
    const target = path === '' ? file : posix.normalize(posix.join(posix.dirname(file), path));
    const node = atPointer(load(target), pointer);
    if (node === undefined) throw new Error(`${file}: unresolved reference ${ref}`);
    return { target, pointer, node };
  };

  const shared = new Map<string, { file: string; schema: unknown }>();
  const convert = (node: unknown, file: string): unknown => {
    if (Array.isArray(node)) return node.map((item) => convert(item, file));
    if (!isRecord(node)) return node;
    const { $ref, ...siblings } = node;
    if (typeof $ref !== 'string')
      return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, convert(value, file)]));
    const { target, pointer, node: value } = follow($ref, file);
    const named = pointer === '' ? sharedSchemaFile.exec(target)?.[2] : undefined;
    if (named === undefined) return convert({ ...(value as JsonRecord), ...siblings }, target);
    const known = shared.get(named);
    if (known && known.file !== target)
      throw new Error(`${known.file} and ${target} would both be typed as ${named}`);
    if (!known) {
      shared.set(named, { file: target, schema: {} });
      shared.set(named, { file: target, schema: convert(value, target) });
    }
    // A description beside the $ref is the field's (the type keeps its own): it documents the field.
    const description = typeof siblings.description === 'string' ? { description: siblings.description } : {};
    return { $ref: `#/components/schemas/${named}`, ...description };
  };

  const messages = new Map<string, { where: string; schema: unknown }>();
  const root = load(rootFile);
  for (const [channel, item] of Object.entries(recordAt(root, 'channels'))) {
    const ref = stringAt(item, '$ref');
    const { target: channelFile, node: channelNode } = ref
      ? follow(ref, rootFile)
      : { target: rootFile, node: item };
    for (const [key, entry] of Object.entries(recordAt(channelNode, 'messages'))) {
      const messageRef = stringAt(entry, '$ref');
      const {
        target: messageFile,
        pointer,
        node: message,
      } = messageRef
        ? follow(messageRef, channelFile)
        : { target: channelFile, pointer: `/messages/${key}`, node: entry };
      const where = `${messageFile}#${pointer}`;
      const typeName = stringAt(message, 'name');
      if (!typeName) throw new Error(`${rootFile}: message ${channel}.${key} has no name`);
      const known = messages.get(typeName);
      if (known && known.where !== where)
        throw new Error(`${known.where} and ${where} are both named ${typeName}`);
      if (!known)
        messages.set(typeName, { where, schema: convert(recordAt(message, 'payload'), messageFile) });
    }
  }
  for (const typeName of messages.keys())
    if (shared.has(typeName))
      throw new Error(`a message and ${shared.get(typeName)?.file} would both be typed as ${typeName}`);

  const schemas = {
    ...Object.fromEntries([...messages].map(([typeName, { schema }]) => [typeName, schema])),
    ...Object.fromEntries(
      [...shared].sort(([a], [b]) => a.localeCompare(b)).map(([typeName, { schema }]) => [typeName, schema]),
    ),
  };
  return {
    openapi: '3.1.0',
    info: {
      title: stringAt(root, 'info', 'title') ?? name,
      version: stringAt(root, 'info', 'version') ?? '0',
    },
    paths: {},
    components: { schemas },
  };
}
