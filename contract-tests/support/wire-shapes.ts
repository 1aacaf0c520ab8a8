// What a call looks like on the wire, per operation, derived from its document: the method, the
// signing headers or none, where its parameters go (path, query), what kind of JSON body it sends,
// its success answer (status and JSON type), and every error answer it declares (status, with a
// body or without). A transport sees nothing else of an operation: the engine above it has already
// built the URL, signed the body and set the headers, and reads the answer's text back into data
// or an ApiError the same way whatever carried it.
//
// The fetch transport runs the contract checks over one operation of each shape (`wireSample`);
// the first transport runs them over every operation. Every way a request can travel and every
// declared answer it can meet, on either transport, is then exercised: a second operation of the
// same shape only repeats, on the wire, what the first one did, and differs in what the documents
// and the engine do with it, which the first transport checks for every operation.
import { isRecord, type JsonRecord } from '../../model/json.ts';
import { type Model, type OperationId, operationIds, signedFields } from './documents.ts';

export interface WireShape {
  /** The request and its success answer: `POST signed, body with nested fields, 200 array`. */
  request: string;
  /** Each declared answer that is not a success: `private-v4 404 without a body`. */
  answers: string[];
  /** The length of its longest success example, as JSON (the largest answer Prism sends for it). */
  largestAnswer: number;
}

/** The JSON type of a schema, or `one of several forms` for a choice (anyOf, oneOf). */
function jsonType(schema: JsonRecord | undefined): string {
  if (!schema) return 'no body';
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) return 'one of several forms';
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  return typeof schema.type === 'string' ? schema.type : 'any JSON';
}

/** The kind of JSON body a POST sends: only what the client signs, flat fields, or nested ones. */
function bodyKind(schema: JsonRecord | undefined): string {
  const properties = isRecord(schema?.properties) ? schema.properties : {};
  const callers = Object.entries(properties).filter(([field]) => !signedFields.has(field));
  if (callers.length === 0) return 'body of the signed fields only';
  const nested = callers.some(
    ([, field]) =>
      isRecord(field) && (jsonType(field).includes('array') || jsonType(field).includes('object')),
  );
  return nested ? 'body with nested fields' : 'body of flat fields';
}

/** The wire shape of one operation, from its document. */
export function wireShapeOf(model: Model, operationId: OperationId): WireShape {
  const operation = model.model(operationId);
  const { facts } = operation;
  const places = [...new Set(operation.parameters.map((parameter) => parameter.in))].sort();
  const sent =
    facts.method === 'get'
      ? places.length > 0
        ? `parameters in ${places.join(' and ')}`
        : 'no parameters'
      : bodyKind(operation.requestSchema);
  const responses = [...operation.responses.values()];
  const successes = responses.filter(({ status }) => status < 300);
  const answered = successes.map(({ status, schema }) => `${status} ${jsonType(schema)}`).join(', ');
  return {
    request: `${facts.method.toUpperCase()} ${facts.auth}, ${sent}, ${answered}`,
    answers: responses
      .filter(({ status }) => status >= 300)
      .map(({ status, schema }) => `${facts.api} ${status} ${schema ? 'with a body' : 'without a body'}`),
    largestAnswer: Math.max(
      0,
      ...successes.flatMap(({ examples }) => examples.map((example) => JSON.stringify(example.value).length)),
    ),
  };
}

/**
 * One operation of each wire shape, each with the reasons it is there: the first operation (in the
 * documents' order) of each request shape, then the first that declares an error answer no chosen
 * one declares, then the one with the largest success example. Operations added to the documents
 * join the sample as soon as they bring a shape or an answer it lacks.
 */
export function wireSample(model: Model, operationIds: readonly OperationId[]): Map<OperationId, string[]> {
  const shapes = new Map(operationIds.map((operationId) => [operationId, wireShapeOf(model, operationId)]));
  const sample = new Map<OperationId, string[]>();
  const because = (operationId: OperationId, reason: string) =>
    sample.set(operationId, [...(sample.get(operationId) ?? []), reason]);
  const requests = new Set<string>();
  for (const [operationId, shape] of shapes) {
    if (requests.has(shape.request)) continue;
    requests.add(shape.request);
    because(operationId, `the first call of its shape: ${shape.request}`);
  }
  const answers = new Set(
    [...sample.keys()].flatMap((operationId) => shapes.get(operationId)?.answers ?? []),
  );
  for (const [operationId, shape] of shapes) {
    for (const answer of shape.answers.filter((candidate) => !answers.has(candidate))) {
      answers.add(answer);
      because(operationId, `the first to declare the answer ${answer}`);
    }
  }
  const [largest] = [...shapes].sort(([, a], [, b]) => b.largestAnswer - a.largestAnswer)[0] ?? [];
  if (largest)
    because(largest, `the largest success example (${shapes.get(largest)?.largestAnswer} characters)`);
  return sample;
}

const samples = new WeakMap<Model, ReadonlySet<OperationId>>();
/** The operations of the documents' wire sample (`wireSample` of every operation), made once a model. */
export function sampledOperations(model: Model): ReadonlySet<OperationId> {
  let sample = samples.get(model);
  if (!sample) {
    sample = new Set(wireSample(model, operationIds).keys());
    samples.set(model, sample);
  }
  return sample;
}
