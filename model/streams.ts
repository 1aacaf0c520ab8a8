// The AsyncAPI documents of the WebSocket streams (asyncapi/), beside the OpenAPI documents of the
// HTTP API: each root document as written and dereferenced, by the same dereferencer
// (model/document.ts), and an ajv for their schemas. Their schemas are AsyncAPI schemas, a
// superset of JSON Schema draft-07 (a tuple is `items` written as a list), so they get a
// draft-07 ajv, not the 2020-12 one of the OpenAPI documents; the HTTP API's components they
// share by $ref hold to both drafts.
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { type FileReader, projectRoot, resolveReferences, workingTreeReader } from './document.ts';
import { isRecord, type JsonRecord, recordAt, stringAt } from './json.ts';
import { parseYaml } from './parse-yaml.ts';

/** The root document of each stream API, relative to the project root, by name. */
export const streamDocumentFiles = {
  'public-v4': 'asyncapi/public-v4.yaml',
  'private-v4': 'asyncapi/private-v4.yaml',
} as const;

export type StreamDocumentName = keyof typeof streamDocumentFiles;

/** One stream API: its root document as written, and dereferenced. */
export interface StreamDocument {
  name: StreamDocumentName;
  /** The root document, relative to the project root. */
  file: string;
  /** The root document as written (its channels are $refs to asyncapi/channels/). */
  document: JsonRecord;
  /** The document with every $ref resolved, the operations' references to channels and messages too. */
  dereferenced: JsonRecord;
  /** Every file the document is made of, root first, relative to the project root. */
  files: readonly string[];
}

/** The stream documents, read through `read`. */
export function loadStreamDocumentsFrom(read: FileReader): StreamDocument[] {
  return Object.entries(streamDocumentFiles).map(([name, file]) => {
    const text = read(file);
    if (text === undefined) throw new Error(`no stream document ${file}`);
    const document: unknown = parseYaml(text);
    if (!isRecord(document)) throw new Error(`${file} is not an object`);
    // The operations point into the channels (`#/channels/depth/messages/query`), which are $refs
    // to files: they are resolved once the channels are, against the channels dereferenced.
    const { operations, ...parts } = document;
    const { value: resolved, files } = resolveReferences(parts, { file, read });
    const { value } = resolveReferences({ ...(resolved as JsonRecord), operations }, { file, read });
    if (!isRecord(value)) throw new Error(`${file} is not an object once dereferenced`);
    return { name: name as StreamDocumentName, file, document, dereferenced: value, files };
  });
}

/** The stream documents of a project root, in the working tree. */
export function loadStreamDocuments(root: string = projectRoot): StreamDocument[] {
  return loadStreamDocumentsFrom(workingTreeReader(root));
}

/** One message of a channel, dereferenced, with where it is. */
export interface StreamMessage {
  document: StreamDocumentName;
  /** The channel's name in the document (`depth`). */
  channel: string;
  /** The message's key in the channel (`subscribe`). */
  key: string;
  message: JsonRecord;
}

/** Every message of every channel of a document, in the document's order. */
export function streamMessages(document: StreamDocument): StreamMessage[] {
  return Object.entries(recordAt(document.dereferenced, 'channels')).flatMap(([channel, item]) =>
    Object.entries(recordAt(item, 'messages')).flatMap(([key, message]) =>
      isRecord(message) ? [{ document: document.name, channel, key, message }] : [],
    ),
  );
}

/** The `method` a message's payload fixes (its `const`), if it fixes one. */
export function messageMethod(message: JsonRecord): string | undefined {
  return stringAt(message, 'payload', 'properties', 'method', 'const');
}

/** An ajv for the stream documents' schemas (draft-07), formats included, knowing their vendor keywords. */
export function createStreamSchemaValidator(): Ajv {
  // Its code's source is kept, for the validators kept across processes (model/compiled-schema.ts).
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, code: { source: true } });
  addFormats.default(ajv);
  ajv.addVocabulary([
    'example',
    'x-field-name',
    'x-enum-varnames',
    'x-enum-descriptions',
    'x-unix-time',
    'x-cli-flag',
    'x-sensitive',
    'x-window-seconds',
  ]);
  return ajv;
}
