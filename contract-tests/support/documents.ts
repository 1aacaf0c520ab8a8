// What the suite knows of the API, all of it read from generated/operations.ts and openapi/:
// the operations, which of them write, each operation's request and response schemas and
// named examples, and validators for them.
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { type OperationId, operations, signedBodyFields } from '../../generated/operations.ts';
import { createSchemaValidator, dereference, projectRoot } from '../../scripts/openapi-document.ts';
import { loadApiDocuments } from '../../scripts/operation-facts.ts';

export type { OperationId };
export type Facts = (typeof operations)[OperationId];
export type ApiName = Facts['api'];
// biome-ignore lint/suspicious/noExplicitAny: a parsed, dereferenced OpenAPI document
export type Json = any;

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
  loadApiDocuments(projectRoot).map((api) => [api.name, api.file]),
);

export function readDocumentFile(file: string): Json {
  return parse(readFileSync(isAbsolute(file) ? file : `${projectRoot}/${file}`, 'utf8'));
}

export interface NamedExample {
  name: string;
  value: unknown;
}

/** One operation as a set of documents describes it. */
export interface OperationModel {
  facts: Facts;
  operation: Json;
  requestSchema: Json | undefined;
  requestExamples: NamedExample[];
  /** Declared statuses, with their JSON schema (if any) and named examples. */
  responses: Map<number, { schema: Json | undefined; examples: NamedExample[] }>;
  validateResponse(status: number, body: unknown): string[];
  validateRequest(body: unknown): string[];
}

const examplesOf = (mediaType: Json): NamedExample[] =>
  Object.entries<Json>(mediaType?.examples ?? {}).map(([name, example]) => ({ name, value: example.value }));

/** Problems of a value against a schema, each naming the field (instance path) it concerns. */
export function schemaProblems(validate: ValidateFunction, value: unknown): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (error) =>
      `${error.instancePath.slice(1).replaceAll('/', '.') || '(body)'}: ${error.message ?? error.keyword}`,
  );
}

/** A model of the operations of the given documents (by API name); by default the real ones. */
export function createModel(documents: Record<string, Json> = loadDocuments()) {
  const ajv = createSchemaValidator();
  const compiled = new Map<Json, ValidateFunction>();
  const validator = (schema: Json) => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(schema);
      compiled.set(schema, validate);
    }
    return validate;
  };
  const models = new Map<OperationId, OperationModel>();
  const model = (operationId: OperationId): OperationModel => {
    const cached = models.get(operationId);
    if (cached) return cached;
    const facts = factsOf(operationId);
    const operation = documents[facts.api]?.paths?.[facts.path]?.[facts.method];
    if (!operation) throw new Error(`${operationId}: not in the ${facts.api} document`);
    const request = operation.requestBody?.content?.['application/json'];
    const responses = new Map<number, { schema: Json | undefined; examples: NamedExample[] }>(
      Object.entries<Json>(operation.responses)
        // `default` (any other failure) is not a status a call can be told to answer.
        .filter(([status]) => /^\d{3}$/.test(status))
        .map(([status, response]) => {
          const media = response.content?.['application/json'];
          return [Number(status), { schema: media?.schema, examples: examplesOf(media) }];
        }),
    );
    const built: OperationModel = {
      facts,
      operation,
      requestSchema: request?.schema,
      requestExamples: examplesOf(request),
      responses,
      validateResponse(status, body) {
        const declared = responses.get(status);
        if (!declared) return [`status ${status} is not declared`];
        if (!declared.schema) return [];
        return schemaProblems(validator(declared.schema), body);
      },
      validateRequest(body) {
        return request?.schema ? schemaProblems(validator(request.schema), body) : [];
      },
    };
    models.set(operationId, built);
    return built;
  };
  return { model, documents };
}

export type Model = ReturnType<typeof createModel>;

export function loadDocuments(files: Record<string, string> = documentFiles): Record<string, Json> {
  return Object.fromEntries(
    Object.entries(files).map(([api, file]) => [api, dereference(readDocumentFile(file))]),
  );
}

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
