// The document model: the documents of redocly.yaml parsed and dereferenced once, each operation
// found by its operationId, and the validators and named examples that the sandbox, the
// contract suite, the docs and the tests read, compiled or collected once and cached. A model
// can also be built from other documents (a deliberately broken copy, in the suite's self-test).
import type { ValidateFunction } from 'ajv';
import { compileSchema } from './compiled-schema.ts';
import { createSchemaValidator, loadApiDocuments } from './document.ts';
import { arrayAt, at, isRecord, type JsonRecord, optionalRecordAt, recordAt } from './json.ts';

export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface NamedExample {
  readonly name: string;
  readonly value: unknown;
  /**
   * x-caused-by of an error example: request fields that make any server give this answer,
   * whatever its state (an unknown market or plan), merged over the operation's first request
   * example.
   */
  readonly causedBy?: JsonRecord;
  /**
   * x-refused-while of an error example: the account state that makes the service answer a valid
   * call with it (`positions or orders are open`). A target that keeps state may give it to a
   * request example after earlier calls left that state.
   */
  readonly refusedWhile?: string;
}

/** One declared status of an operation: its JSON schema (if any) and named examples. */
export interface DeclaredResponse {
  readonly status: number;
  readonly schema: JsonRecord | undefined;
  readonly examples: readonly NamedExample[];
}

/** One parameter of a GET: where it goes, whether it must be given, its schema and named examples. */
export interface ParameterView {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly required: boolean;
  readonly schema: JsonRecord;
  readonly examples: readonly NamedExample[];
}

/** A GET's parameter values by where they go, as the client's `params` takes them. */
export interface ParamsValue {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
}

/** One operation as its document describes it. */
export interface OperationView {
  readonly operationId: string;
  readonly api: string;
  readonly path: string;
  readonly method: string;
  /** The dereferenced operation object, vendor extensions included. */
  readonly object: JsonRecord;
  readonly requestSchema: JsonRecord | undefined;
  readonly requestExamples: readonly NamedExample[];
  /** Its path and query parameters, in the document's order. */
  readonly parameters: readonly ParameterView[];
  /**
   * The parameters a reader would send first: each one's first named example, and for a required
   * one without any, its schema's default; undefined when the operation takes none.
   */
  readonly parametersExample: ParamsValue | undefined;
  /** Declared statuses (`default` is not one). */
  readonly responses: ReadonlyMap<number, DeclaredResponse>;
}

const examplesOf = (mediaType: unknown): NamedExample[] =>
  Object.entries(recordAt(mediaType, 'examples')).map(([name, example]) => {
    const causedBy = optionalRecordAt(example, 'x-caused-by');
    const refusedWhile = at(example, 'x-refused-while');
    return {
      name,
      value: isRecord(example) ? example.value : undefined,
      ...(causedBy && { causedBy }),
      ...(typeof refusedWhile === 'string' && { refusedWhile }),
    };
  });

/** An operation object's path and query parameters, in the document's order. */
export function parametersOf(object: JsonRecord): ParameterView[] {
  return arrayAt(object, 'parameters').flatMap((parameter) => {
    const where = at(parameter, 'in');
    if (!isRecord(parameter) || (where !== 'path' && where !== 'query')) return [];
    return [
      {
        name: String(parameter.name),
        in: where,
        required: parameter.required === true,
        schema: recordAt(parameter, 'schema'),
        examples: Object.entries(recordAt(parameter, 'examples')).map(([name, example]) => ({
          name,
          value: at(example, 'value'),
        })),
      },
    ];
  });
}

/** The parameters a reader would send first (see OperationView's parametersExample). */
export function parametersExampleOf(parameters: readonly ParameterView[]): ParamsValue | undefined {
  if (parameters.length === 0) return undefined;
  const value: ParamsValue = {};
  for (const parameter of parameters) {
    const chosen =
      parameter.examples[0]?.value ?? (parameter.required ? parameter.schema.default : undefined);
    if (chosen === undefined) continue;
    value[parameter.in] = { ...value[parameter.in], [parameter.name]: chosen };
  }
  return value;
}

/**
 * `fields` (parameter names, as an error example's x-caused-by gives them) put where each
 * parameter goes, over `base`.
 */
export function placeParameters(
  parameters: readonly ParameterView[],
  fields: Readonly<Record<string, unknown>>,
  base: ParamsValue = {},
): ParamsValue {
  const placed: ParamsValue = { path: { ...base.path }, query: { ...base.query } };
  for (const [name, value] of Object.entries(fields)) {
    const where = parameters.find((parameter) => parameter.name === name)?.in ?? 'query';
    (placed[where] as Record<string, unknown>)[name] = value;
  }
  return placed;
}

function viewOf(api: string, path: string, method: string, object: JsonRecord): OperationView {
  const request = optionalRecordAt(object, 'requestBody', 'content', 'application/json');
  const responses = new Map<number, DeclaredResponse>();
  for (const [status, response] of Object.entries(recordAt(object, 'responses'))) {
    if (!/^\d{3}$/.test(status)) continue;
    const media = optionalRecordAt(response, 'content', 'application/json');
    responses.set(Number(status), {
      status: Number(status),
      schema: optionalRecordAt(media, 'schema'),
      examples: examplesOf(media),
    });
  }
  const parameters = parametersOf(object);
  return {
    operationId: String(object.operationId),
    api,
    path,
    method,
    object,
    requestSchema: optionalRecordAt(request, 'schema'),
    requestExamples: examplesOf(request),
    parameters,
    parametersExample: parametersExampleOf(parameters),
    responses,
  };
}

export interface DocumentModel {
  /** The dereferenced documents, by API name. */
  readonly documents: Readonly<Record<string, JsonRecord>>;
  readonly operations: readonly OperationView[];
  /** The operation of that operationId; throws when no document has it. */
  operation(operationId: string): OperationView;
  /** The compiled validator of a schema node of these documents, compiled once. */
  validator(schema: JsonRecord): ValidateFunction;
  /** A schema component of a document, e.g. the private document's Nonce. */
  component(api: string, name: string): JsonRecord;
  /** A named response example of an operation, with the status it is documented under. */
  responseExample(operationId: string, name: string): { status: number; value: unknown };
  /** A vendor extension of a document's components (`x-…`), as the document writes it. */
  componentsExtension(api: string, name: string): unknown;
  /** The enum of a schema component, as the document lists it. */
  schemaEnum(api: string, component: string): readonly unknown[];
  /** The names of an enum component's values (x-enum-varnames), by value. */
  enumNames(api: string, component: string): ReadonlyMap<unknown, string>;
}

/** A model of the given dereferenced documents (by API name). */
export function createDocumentModel(documents: Readonly<Record<string, JsonRecord>>): DocumentModel {
  const operations: OperationView[] = [];
  for (const [api, document] of Object.entries(documents)) {
    for (const [path, item] of Object.entries(recordAt(document, 'paths'))) {
      for (const method of httpMethods) {
        const object = optionalRecordAt(item, method);
        if (object) operations.push(viewOf(api, path, method, object));
      }
    }
  }
  const byId = new Map(operations.map((view) => [view.operationId, view]));
  const ajv = createSchemaValidator();
  const compiled = new Map<JsonRecord, ValidateFunction>();
  const model: DocumentModel = {
    documents,
    operations,
    operation(operationId) {
      const view = byId.get(operationId);
      if (!view) throw new Error(`${operationId} is not an operation of the documents`);
      return view;
    },
    validator(schema) {
      let validate = compiled.get(schema);
      if (!validate) {
        validate = compileSchema(ajv, schema);
        compiled.set(schema, validate);
      }
      return validate;
    },
    component(api, name) {
      const schema = optionalRecordAt(documents[api], 'components', 'schemas', name);
      if (!schema) throw new Error(`${api} has no schema ${name}`);
      return schema;
    },
    responseExample(operationId, name) {
      for (const response of model.operation(operationId).responses.values()) {
        const example = response.examples.find((candidate) => candidate.name === name);
        if (example) return { status: response.status, value: structuredClone(example.value) };
      }
      throw new Error(`${operationId} documents no response example named ${name}`);
    },
    componentsExtension(api, name) {
      const value = at(documents[api], 'components', name);
      if (value === undefined) throw new Error(`${api} has no components extension ${name}`);
      return value;
    },
    schemaEnum(api, component) {
      const values = model.component(api, component).enum;
      if (!Array.isArray(values)) throw new Error(`${api} ${component} has no enum`);
      return values;
    },
    enumNames(api, component) {
      const names = arrayAt(model.component(api, component), 'x-enum-varnames');
      return new Map(
        model.schemaEnum(api, component).map((value, index) => {
          const name = names[index];
          return [value, typeof name === 'string' ? name : String(value)];
        }),
      );
    },
  };
  return model;
}

/** The project's documents, as redocly.yaml names them, dereferenced. */
export function loadDocuments(root?: string): Record<string, JsonRecord> {
  return Object.fromEntries(loadApiDocuments(root).map((api) => [api.name, api.dereferenced]));
}

let projectModel: DocumentModel | undefined;

/** The model of the project's documents: parsed on first use, then shared by every caller. */
export function documentModel(): DocumentModel {
  projectModel ??= createDocumentModel(loadDocuments());
  return projectModel;
}

/**
 * The body field whose value the service refuses while what it named is still in use, so that a
 * target that keeps state needs a fresh one for each call: x-retry-safe's `idempotencyKey` (a
 * quote id, refused once confirmed), or a client order id where the operation shows its refusal
 * (the named example `clientOrderIdUsed`: observed upstream, refused while an open order of the
 * account on the same market carries it, so it is no reason to repeat the call). Undefined when
 * the operation names neither.
 */
export function uniqueKeyOf(operation: JsonRecord): string | undefined {
  const key = optionalRecordAt(operation, 'x-retry-safe')?.idempotencyKey;
  if (typeof key === 'string' && key !== '') return key;
  const properties = optionalRecordAt(
    operation,
    'requestBody',
    'content',
    'application/json',
    'schema',
    'properties',
  );
  if (!properties || !('clientOrderId' in properties)) return undefined;
  const responses = optionalRecordAt(operation, 'responses') ?? {};
  const shown = Object.values(responses).some(
    (response) =>
      isRecord(response) &&
      isRecord(optionalRecordAt(response, 'content', 'application/json', 'examples')?.clientOrderIdUsed),
  );
  return shown ? 'clientOrderId' : undefined;
}

/**
 * The operation whose first request example places what this example names by its unique key
 * (`uniqueKeyOf`, a client order id): the example of cancelling or changing
 * an order by the client order id the limit order example placed it under. On a target that keeps
 * state, that example is sent first. Undefined when the example names nothing another places.
 */
export function placedBy(
  model: DocumentModel,
  operationId: string,
  fields: Readonly<Record<string, unknown>>,
): OperationView | undefined {
  return model.operations.find((candidate) => {
    if (candidate.operationId === operationId) return false;
    const key = uniqueKeyOf(candidate.object);
    if (key === undefined || fields[key] === undefined) return false;
    const placed = candidate.requestExamples[0]?.value;
    return isRecord(placed) && placed[key] === fields[key];
  });
}
