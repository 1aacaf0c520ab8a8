// What the suite knows of the API: the operations of generated/operations.ts, which of them
// write, and each operation's request and response schemas, named examples and validators, read
// through the document model (model/) from the documents of openapi/.
import type { ValidateFunction } from 'ajv';
import { type OperationId, operations, signedBodyFields } from '../../generated/operations.ts';
import { loadApiDocuments } from '../../model/document.ts';
import type { JsonRecord } from '../../model/json.ts';
import {
  createDocumentModel,
  type DeclaredResponse,
  type DocumentModel,
  documentModel,
  type NamedExample,
  type OperationView,
  type ParameterView,
} from '../../model/model.ts';

export type { NamedExample, OperationId };
export type Facts = (typeof operations)[OperationId];
export type ApiName = Facts['api'];

export const operationIds = Object.keys(operations) as OperationId[];
export const factsOf = (operationId: OperationId): Facts => operations[operationId];

/**
 * Whether an operation writes (moves money, cancels, changes state), as its document says in
 * `x-writes`. This is the one list of writes the suite uses to decide what it may call on a
 * live target; nothing is guessed from names.
 */
export const isWrite = (operationId: OperationId): boolean => factsOf(operationId).writes;
export const writeOperations: readonly OperationId[] = operationIds.filter(isWrite);

/** The documents by API name, as redocly.yaml lists them (paths relative to the project root). */
export const documentFiles: Record<string, string> = Object.fromEntries(
  loadApiDocuments().map((api) => [api.name, api.file]),
);

/**
 * One operation as a set of documents describes it. What a caller sends is one object of fields
 * for every operation: a POST's body, or a GET's path and query parameters by name (the client's
 * call puts each where it goes), so that every case the suite derives from a request schema
 * serves both.
 */
export interface OperationModel {
  facts: Facts;
  operation: JsonRecord;
  /** The body's schema, or for a GET, one object schema of its parameters by name. */
  requestSchema: JsonRecord | undefined;
  /** The body's named examples, or for a GET, its parameters' first examples as one. */
  requestExamples: readonly NamedExample[];
  /** A GET's path and query parameters. */
  parameters: readonly ParameterView[];
  /** Declared statuses, with their JSON schema (if any) and named examples. */
  responses: ReadonlyMap<number, DeclaredResponse>;
  validateResponse(status: number, body: unknown): string[];
  validateRequest(body: unknown): string[];
}

/** Problems of a value against a schema, each naming the field (instance path) it concerns. */
export function schemaProblems(validate: ValidateFunction, value: unknown): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (error) =>
      `${error.instancePath.slice(1).replaceAll('/', '.') || '(body)'}: ${error.message ?? error.keyword}`,
  );
}

/** A GET's parameters as one object schema, by name; undefined when it takes none. */
function parametersSchema(parameters: readonly ParameterView[]): JsonRecord | undefined {
  if (parameters.length === 0) return undefined;
  return {
    type: 'object',
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.schema])),
  };
}

/** A GET's first parameters as one request example, by name. */
function parametersAsExamples(view: OperationView): NamedExample[] {
  const example = view.parametersExample;
  return example ? [{ name: 'parameters', value: { ...example.path, ...example.query } }] : [];
}

/**
 * A model of the operations of the given documents (dereferenced, by API name); by default the
 * project's, shared with everything else that reads them.
 */
export function createModel(documents?: Readonly<Record<string, JsonRecord>>) {
  const base: DocumentModel = documents ? createDocumentModel(documents) : documentModel();
  const models = new Map<OperationId, OperationModel>();
  const model = (operationId: OperationId): OperationModel => {
    const cached = models.get(operationId);
    if (cached) return cached;
    const facts = factsOf(operationId);
    const view = base.operation(operationId);
    const built: OperationModel = {
      facts,
      operation: view.object,
      requestSchema: view.requestSchema ?? parametersSchema(view.parameters),
      requestExamples: view.requestSchema ? view.requestExamples : parametersAsExamples(view),
      parameters: view.parameters,
      responses: view.responses,
      validateResponse(status, body) {
        const declared = view.responses.get(status);
        if (!declared) return [`status ${status} is not declared`];
        if (!declared.schema) return [];
        return schemaProblems(base.validator(declared.schema), body);
      },
      validateRequest(body) {
        const schema = built.requestSchema;
        return schema ? schemaProblems(base.validator(schema), body) : [];
      },
    };
    models.set(operationId, built);
    return built;
  };
  return { model, documents: base.documents };
}

export type Model = ReturnType<typeof createModel>;

/** Every named example of every request and response of the documents, with its problems. */
export function exampleProblems(model: Model): string[] {
  return operationIds.flatMap((operationId) => {
    const operation = model.model(operationId);
    const requests = operation.requestExamples.flatMap((example) =>
      operation
        .validateRequest(example.value)
        .map((p) => `${operationId} request example ${example.name}: ${p}`),
    );
    const responses = [...operation.responses].flatMap(([status, { examples }]) =>
      examples.flatMap((example) =>
        operation
          .validateResponse(status, example.value)
          .map((p) => `${operationId} ${status} example ${example.name}: ${p}`),
      ),
    );
    return [...requests, ...responses];
  });
}

/** The fields the client fills in itself; callers never write them. */
export const signedFields = new Set<string>(signedBodyFields);

/** A request example as a caller writes it: without `request`, `nonce` and `nonceWindow`. */
export function callerBody(example: unknown): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries((example ?? {}) as Record<string, unknown>).filter(([field]) => !signedFields.has(field)),
  );
}
