// The two OpenAPI documents, dereferenced, as the sandbox reads them: request and response
// validators compiled with ajv, and the named examples that carry the service's error bodies.
import type { ValidateFunction } from 'ajv';
import { type OperationId, operations } from '../generated/operations.ts';
import {
  createSchemaValidator,
  dereference,
  projectRoot,
  readDocument,
} from '../scripts/openapi-document.ts';
import { loadApiDocuments } from '../scripts/operation-facts.ts';

// biome-ignore lint/suspicious/noExplicitAny: a dereferenced OpenAPI document
type Json = any;

const documents: Record<string, Json> = Object.fromEntries(
  loadApiDocuments(projectRoot).map((api) => [api.name, dereference(readDocument(api.file))]),
);

const ajv = createSchemaValidator();

export function documentFor(operationId: OperationId): Json {
  const facts = operations[operationId];
  const document = documents[facts.api];
  if (!document) throw new Error(`no document ${facts.api}`);
  return document;
}

export function operationObject(operationId: OperationId): Json {
  const facts = operations[operationId];
  const operation = documentFor(operationId).paths?.[facts.path]?.[facts.method];
  if (!operation) throw new Error(`${operationId} is not in its document`);
  return operation;
}

const requestValidators = new Map<OperationId, ValidateFunction | undefined>();

/** The validator of the operation's JSON request body, or undefined when it takes none. */
export function requestValidator(operationId: OperationId): ValidateFunction | undefined {
  if (!requestValidators.has(operationId)) {
    const schema = operationObject(operationId).requestBody?.content?.['application/json']?.schema;
    requestValidators.set(operationId, schema ? ajv.compile(schema) : undefined);
  }
  return requestValidators.get(operationId);
}

/** What the document says an answer with this status looks like. */
export type ResponseShape =
  | { kind: 'undocumented' }
  | { kind: 'empty' }
  | { kind: 'json'; validate: ValidateFunction };

const responseShapes = new Map<string, ResponseShape>();

export function responseShape(operationId: OperationId, status: number): ResponseShape {
  const cacheKey = `${operationId} ${status}`;
  let shape = responseShapes.get(cacheKey);
  if (!shape) {
    const response = operationObject(operationId).responses?.[String(status)];
    const schema = response?.content?.['application/json']?.schema;
    shape = !response
      ? { kind: 'undocumented' }
      : schema
        ? { kind: 'json', validate: ajv.compile(schema) }
        : { kind: 'empty' };
    responseShapes.set(cacheKey, shape);
  }
  return shape;
}

let privateError: ValidateFunction | undefined;

/** The private error object of the private document, for answers the document does not list. */
export function privateErrorValidator(): ValidateFunction {
  privateError ??= ajv.compile(documents['private-v4'].components.schemas.PrivateError);
  return privateError;
}

const componentValidators = new Map<string, ValidateFunction>();

/** A validator of a schema component of a document, e.g. the private document's Nonce. */
export function componentValidator(api: string, component: string): ValidateFunction {
  const cacheKey = `${api} ${component}`;
  let validate = componentValidators.get(cacheKey);
  if (!validate) {
    const schema = documents[api]?.components?.schemas?.[component];
    if (!schema) throw new Error(`${api} has no schema ${component}`);
    validate = ajv.compile(schema);
    componentValidators.set(cacheKey, validate);
  }
  return validate;
}

export interface DocumentedExample {
  status: number;
  value: Json;
}

/** A named response example of an operation, with the status it is documented under. */
export function responseExample(operationId: OperationId, name: string): DocumentedExample {
  for (const [status, response] of Object.entries<Json>(operationObject(operationId).responses ?? {})) {
    const example = response?.content?.['application/json']?.examples?.[name];
    if (example) return { status: Number(status), value: structuredClone(example.value) };
  }
  throw new Error(`${operationId} documents no response example named ${name}`);
}

/** The enum of a schema component, e.g. the action types, as the document lists them. */
export function schemaEnum(api: string, component: string): unknown[] {
  const values = documents[api]?.components?.schemas?.[component]?.enum;
  if (!Array.isArray(values)) throw new Error(`${api} ${component} has no enum`);
  return values;
}

/** The names of an enum schema's values (x-enum-varnames), by value. */
export function enumNames(api: string, component: string): Map<unknown, string> {
  const schema = documents[api]?.components?.schemas?.[component];
  const names: string[] = schema?.['x-enum-varnames'] ?? [];
  return new Map(schemaEnum(api, component).map((value, index) => [value, names[index] ?? String(value)]));
}

/** The `default` of a request body property, e.g. the history's limit and offset. */
export function requestDefault(operationId: OperationId, property: string): unknown {
  return operationObject(operationId).requestBody?.content?.['application/json']?.schema?.properties?.[
    property
  ]?.default;
}
