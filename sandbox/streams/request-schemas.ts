// The stream requests' schemas, from the documents: a request whose payload breaks its message's
// schema is refused before a channel reads it. The documents are read once per process, at the
// first request (not when a sandbox starts: most never serve a stream), and each message's
// validator is compiled when it is first needed.
import type { ValidateFunction } from 'ajv';
import { isRecord, type JsonRecord } from '../../model/json.ts';
import { createStreamSchemaValidator, loadStreamDocuments, streamMessages } from '../../model/streams.ts';

interface Schemas {
  payloads: Map<string, JsonRecord>;
  validators: Map<string, ValidateFunction>;
  ajv: ReturnType<typeof createStreamSchemaValidator>;
}

let schemas: Schemas | undefined;

function loaded(): Schemas {
  if (!schemas) {
    const payloads = new Map<string, JsonRecord>();
    for (const document of loadStreamDocuments()) {
      for (const { message } of streamMessages(document)) {
        const name = message.name;
        if (typeof name === 'string' && isRecord(message.payload)) payloads.set(name, message.payload);
      }
    }
    schemas = { payloads, validators: new Map(), ajv: createStreamSchemaValidator() };
  }
  return schemas;
}

/** Whether `payload` is a valid `message` (a message name of the documents). */
export function isValidRequest(message: string, payload: unknown): boolean {
  const { payloads, validators, ajv } = loaded();
  let validate = validators.get(message);
  if (!validate) {
    const schema = payloads.get(message);
    if (!schema) throw new Error(`the stream documents have no message ${message}`);
    validate = ajv.compile(schema);
    validators.set(message, validate);
  }
  return validate(payload) === true;
}
