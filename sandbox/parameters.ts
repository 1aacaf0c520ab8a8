// A GET's parameters as the service reads them: the path's values and the query string's, each
// taken as its document's schema types it (an integer from its digits, a list from a repeated
// name), then validated. A parameter that breaks its schema is refused as the operator's public
// endpoints refuse one: an object keyed by the parameter, with the wording of the operation's
// named example for that parameter where one shows it, else the documents' templates.
import type { ErrorObject } from 'ajv';
import type { JsonRecord } from '../model/json.ts';
import type { ParameterView } from '../model/model.ts';
import type { Answer } from './answer.ts';
import { fillTemplate, type OperationDocument } from './document.ts';

/** A call's parameters, by where they arrived. */
export interface CallParameters {
  readonly path: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
}

const schemaType = (schema: JsonRecord): string | undefined =>
  typeof schema.type === 'string' ? schema.type : undefined;

/** One text value as its schema types it; left as text when it is not of that type (ajv names it). */
function typed(text: string, schema: JsonRecord): unknown {
  switch (schemaType(schema)) {
    case 'integer':
      return /^-?\d+$/.test(text) ? Number(text) : text;
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    default:
      return text;
  }
}

function parameterValue(parameter: ParameterView, texts: readonly string[]): unknown {
  if (schemaType(parameter.schema) === 'array') {
    const items = (parameter.schema.items ?? {}) as JsonRecord;
    return texts.flatMap((text) => text.split(',')).map((text) => typed(text, items));
  }
  return typed(texts[texts.length - 1] ?? '', parameter.schema);
}

/** Whether an answer is a bag of messages keyed by parameter (a string or a list of strings each). */
const isBag = (value: unknown): value is Record<string, unknown> =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.values(value).every(
    (messages) =>
      typeof messages === 'string' ||
      (Array.isArray(messages) && messages.every((m) => typeof m === 'string')),
  );

/**
 * Where an example keeps its messages keyed by parameter: the whole body (the v4 market
 * endpoints), or its `message` (the v1 candles, answered with 200 and `success` false).
 */
const bagOf = (value: unknown): Record<string, unknown> | undefined =>
  isBag(value)
    ? value
    : isBag((value as { message?: unknown } | null)?.message)
      ? (value as { message: Record<string, unknown> }).message
      : undefined;

/** The messages the operation's named examples give a parameter, by parameter (the first wins). */
function documentedMessages(operation: OperationDocument, status: number): Map<string, string[]> {
  const messages = new Map<string, string[]>();
  for (const name of operation.exampleNames(status)) {
    for (const [field, list] of Object.entries(bagOf(operation.example(name).value) ?? {})) {
      if (!messages.has(field)) messages.set(field, Array.isArray(list) ? list.map(String) : [String(list)]);
    }
  }
  return messages;
}

/** The documents' wording of a parameter that breaks its schema, where no named example shows it. */
function worded(operation: OperationDocument, error: ErrorObject, field: string): string {
  const template = operation.documents.validationTemplate(
    operation.facts.api,
    error.keyword,
    String(error.params.type),
  );
  const limit = error.params.limit === undefined ? {} : { limit: String(error.params.limit) };
  return fillTemplate(template, { field, words: field, ...limit });
}

/** The refusal of parameters that break their schema: the status of the operation's validation example. */
function parameterRefusal(operation: OperationDocument, errors: readonly ErrorObject[]): Answer {
  const { status, value } = operation.example(operation.validationExampleName());
  const documented = documentedMessages(operation, status);
  const body: Record<string, string[]> = {};
  for (const error of errors) {
    const field =
      error.keyword === 'required'
        ? String(error.params.missingProperty)
        : error.instancePath.slice(1).split('/')[0] || 'params';
    // A named example words a value of the wrong kind; a bound it does not show is worded by template.
    const ofKind = ['type', 'pattern', 'format', 'enum'].includes(error.keyword);
    const messages = (ofKind && documented.get(field)) || [worded(operation, error, field)];
    body[field] = [...new Set([...(body[field] ?? []), ...messages])];
  }
  // The body the validation example has, its messages replaced by these.
  return { status, body: isBag(value) ? body : { ...(value as object), message: body } };
}

/** The call's parameters read and validated, or the refusal of those that break their schema. */
export function readParameters(
  operation: OperationDocument,
  pathParams: Readonly<Record<string, string>>,
  search: URLSearchParams,
): CallParameters | Answer {
  const parameters = operation.parameters();
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  for (const parameter of parameters) {
    if (parameter.in === 'path') {
      const text = pathParams[parameter.name];
      if (text !== undefined) path[parameter.name] = parameterValue(parameter, [text]);
    } else if (search.has(parameter.name)) {
      query[parameter.name] = parameterValue(parameter, search.getAll(parameter.name));
    }
  }
  const validate = operation.parametersValidator();
  if (validate && !validate({ ...query, ...path })) return parameterRefusal(operation, validate.errors ?? []);
  return { path, query };
}
