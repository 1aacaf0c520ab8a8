// What the sandbox reads of the documents, through the document model (model/): the operation
// table (paths, methods, rate limits, partner access, from the vendor extensions), request and
// response validators, and the named examples and wording templates that carry the service's
// answers. The project's documents by default; any document set (another project root, a
// copy with an operation more) serves the same way, so an operation costs only its YAML.
import type { ValidateFunction } from 'ajv';
import { at, isRecord, type JsonRecord, numberAt, optionalRecordAt, stringAt } from '../model/json.ts';
import {
  createDocumentModel,
  type DocumentModel,
  documentModel,
  loadDocuments,
  type ParameterView,
} from '../model/model.ts';
import {
  collectNonceWindowSeconds,
  collectOperationFacts,
  collectSigningHeaders,
  type OperationFacts,
} from '../scripts/operation-facts.ts';
import type { Answer } from './answer.ts';

export interface DocumentedExample {
  status: number;
  value: unknown;
}

/** What the document says an answer with this status looks like. */
export type ResponseShape =
  | { kind: 'undocumented' }
  | { kind: 'empty' }
  | { kind: 'json'; validate: ValidateFunction };

function requiredString(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new Error(`the documents have no string at ${where}`);
  return value;
}

/** One operation of the documents: its facts, validators, named examples and wording. */
export class OperationDocument {
  readonly facts: OperationFacts;
  readonly #documents: SandboxDocuments;
  readonly #envelopes = new Map<string, ValidateFunction>();

  constructor(documents: SandboxDocuments, facts: OperationFacts) {
    this.#documents = documents;
    this.facts = facts;
  }

  get id(): string {
    return this.facts.operationId;
  }

  get documents(): SandboxDocuments {
    return this.#documents;
  }

  get #view() {
    return this.#documents.model.operation(this.facts.operationId);
  }

  /** The dereferenced operation object, vendor extensions included. */
  get object(): JsonRecord {
    return this.#view.object;
  }

  /**
   * The state change the sandbox carries this operation out with (`x-sandbox-state`): its name,
   * and for a batch, the operation whose rules and refusals each item takes. Undefined for an
   * operation the sandbox answers from its success example.
   */
  stateChange(): { change: string; eachAs?: string } | undefined {
    const value = this.#view.object['x-sandbox-state'];
    if (value === undefined) return undefined;
    if (typeof value === 'string') return { change: value };
    const change = stringAt(value, 'change');
    if (!change) throw new Error(`${this.id}: x-sandbox-state must be a name or { change, eachAs }`);
    const eachAs = stringAt(value, 'eachAs');
    return eachAs ? { change, eachAs } : { change };
  }

  /** Its path and query parameters, in the document's order. */
  parameters(): readonly ParameterView[] {
    return this.#view.parameters;
  }

  /**
   * The validator of a GET's parameters, as one object of every parameter by name (path and
   * query together), or undefined when it takes none.
   */
  parametersValidator(): ValidateFunction | undefined {
    const parameters = this.#view.parameters;
    if (parameters.length === 0) return undefined;
    // One schema object per operation, so that the model compiles it once.
    this.#parametersSchema ??= {
      type: 'object',
      required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
      properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.schema])),
    };
    return this.#documents.model.validator(this.#parametersSchema);
  }

  #parametersSchema: JsonRecord | undefined;

  /** The validator of the JSON request body, or undefined when it takes none. */
  requestValidator(): ValidateFunction | undefined {
    const schema = this.#view.requestSchema;
    return schema ? this.#documents.model.validator(schema) : undefined;
  }

  /**
   * The validator of the request body with the array field `items` taken as any array: the
   * transition of a bulk operation checks the count and each item itself, and answers an item's
   * failure inside its own answer rather than refusing the whole request.
   */
  envelopeValidator(items: string): ValidateFunction | undefined {
    const schema = this.#view.requestSchema;
    if (!schema) return undefined;
    let validate = this.#envelopes.get(items);
    if (!validate) {
      const properties = optionalRecordAt(schema, 'properties') ?? {};
      validate = this.#documents.model.validator({
        ...schema,
        properties: { ...properties, [items]: { type: 'array' } },
      });
      this.#envelopes.set(items, validate);
    }
    return validate;
  }

  /**
   * The array field of a batch: the request body's one array of objects, when the success answer
   * is an array too (an outcome per item). A transition of such an operation checks the count
   * and each item itself, and answers an item's failure inside its answer. Undefined for any
   * other operation.
   */
  batchField(): string | undefined {
    if (at(this.successSchema(), 'type') !== 'array') return undefined;
    const properties = optionalRecordAt(this.#view.requestSchema, 'properties') ?? {};
    const batches = Object.keys(properties).filter(
      (name) =>
        at(properties, name, 'type') === 'array' && at(properties, name, 'items', 'type') === 'object',
    );
    return batches.length === 1 ? batches[0] : undefined;
  }

  /**
   * The batch of an operation that has one (batchField): the field, its bounds (minItems,
   * maxItems) and the validator of one item. Throws for any other operation.
   */
  batch(): { field: string; min: number; max: number; validateItem: ValidateFunction } {
    const field = this.batchField();
    const schema = field && optionalRecordAt(this.#view.requestSchema, 'properties', field);
    const items = optionalRecordAt(schema, 'items');
    if (!field || !items) throw new Error(`${this.id} has no batch field`);
    return {
      field,
      min: numberAt(schema, 'minItems') ?? 0,
      max: numberAt(schema, 'maxItems') ?? Infinity,
      validateItem: this.#documents.model.validator(items),
    };
  }

  responseShape(status: number): ResponseShape {
    const response = this.#view.responses.get(status);
    if (!response) return { kind: 'undocumented' };
    return response.schema
      ? { kind: 'json', validate: this.#documents.model.validator(response.schema) }
      : { kind: 'empty' };
  }

  /** A named response example, with the status it is documented under; throws when there is none. */
  example(name: string): DocumentedExample {
    return this.#documents.model.responseExample(this.id, name);
  }

  /** Whether the operation documents a response example of that name. */
  has(name: string): boolean {
    return [...this.#view.responses.values()].some((response) =>
      response.examples.some((example) => example.name === name),
    );
  }

  /** The names of the examples documented under one status, in document order. */
  exampleNames(status: number): string[] {
    return (this.#view.responses.get(status)?.examples ?? []).map((example) => example.name);
  }

  /** Every named response example of an error status (4xx), in document order. */
  errorExamples(): { name: string; status: number; value: unknown }[] {
    return [...this.#view.responses.values()]
      .filter((response) => response.status >= 400 && response.status < 500)
      .flatMap((response) =>
        response.examples.map((example) => ({
          name: example.name,
          status: response.status,
          value: structuredClone(example.value),
        })),
      );
  }

  /** The schema of the answer of the first success status that has one (dereferenced). */
  successSchema(): JsonRecord | undefined {
    return [...this.#view.responses.values()]
      .sort((a, b) => a.status - b.status)
      .find((response) => response.status >= 200 && response.status < 300 && response.schema)?.schema;
  }

  /** The first named example of the first success status that has one: the answer of a stateless call. */
  successExample(): DocumentedExample | undefined {
    for (const response of [...this.#view.responses.values()].sort((a, b) => a.status - b.status)) {
      if (response.status < 200 || response.status > 299) continue;
      const [first] = response.examples;
      if (first) return { status: response.status, value: structuredClone(first.value) };
    }
    return undefined;
  }

  /** The named request examples, in document order. */
  requestExamples(): { name: string; value: JsonRecord }[] {
    return this.#view.requestExamples.flatMap((example) =>
      isRecord(example.value) ? [{ name: example.name, value: structuredClone(example.value) }] : [],
    );
  }

  /** The fields the request body requires, in the schema's order. */
  requiredFields(): string[] {
    const required = this.#view.requestSchema?.required;
    return Array.isArray(required) ? required.map(String) : [];
  }

  /** The `default` of a request body property, e.g. a page's limit and offset. */
  requestDefault(property: string): unknown {
    return optionalRecordAt(this.#view.requestSchema, 'properties', property)?.default;
  }

  /** A vendor extension of a request body property, e.g. invest's `amount` `x-minimum-amount`. */
  requestPropertyExtension(property: string, name: string): unknown {
    return at(this.#view.requestSchema, 'properties', property, name);
  }

  /** The named example whose status, code and message a request validation failure takes. */
  validationExampleName(): string {
    return requiredString(stringAt(this.object, 'x-validation-example'), `${this.id} x-validation-example`);
  }

  /** A wording template of the operation's own refusals (`x-messages`), by name; throws when absent. */
  message(name: string): string {
    return requiredString(this.optionalMessage(name), `${this.id} x-messages.${name}`);
  }

  /** A wording template of `x-messages`, or undefined when the document words no such refusal. */
  optionalMessage(name: string): string | undefined {
    return stringAt(this.object, 'x-messages', name);
  }
}

/** The documents of one project root (or a model of them), read the way the sandbox needs them. */
export class SandboxDocuments {
  readonly model: DocumentModel;
  /** Every operation, by operationId. */
  readonly operations: ReadonlyMap<string, OperationDocument>;
  /** Header name of each signing security scheme, by scheme name (ApiKey, Payload, Signature). */
  readonly signingHeaders: { readonly ApiKey: string; readonly Payload: string; readonly Signature: string };
  /** How far from server time a window-mode nonce may be (x-window-seconds). */
  readonly nonceWindowSeconds: number;

  constructor(model: DocumentModel) {
    this.model = model;
    const apis = Object.entries(model.documents).map(([name, dereferenced]) => ({ name, dereferenced }));
    this.operations = new Map(
      collectOperationFacts(apis).map((facts) => [facts.operationId, new OperationDocument(this, facts)]),
    );
    const headers = collectSigningHeaders(apis);
    this.signingHeaders = {
      ApiKey: requiredString(headers.ApiKey, 'securitySchemes.ApiKey'),
      Payload: requiredString(headers.Payload, 'securitySchemes.Payload'),
      Signature: requiredString(headers.Signature, 'securitySchemes.Signature'),
    };
    this.nonceWindowSeconds = collectNonceWindowSeconds(apis);
  }

  /** The operation of that operationId; throws when the documents have none. */
  operation(operationId: string): OperationDocument {
    const operation = this.operations.get(operationId);
    if (!operation) throw new Error(`${operationId} is not an operation of the documents`);
    return operation;
  }

  /**
   * The operation a request reaches, with the values of its path's parameters (decoded), or
   * `wrong-method` for a path of another method, or undefined. A path written out in full wins
   * over a template that also matches it.
   */
  route(
    method: string,
    path: string,
  ): { operation: OperationDocument; pathParams: Record<string, string> } | 'wrong-method' | undefined {
    let found: 'wrong-method' | undefined;
    this.#routes ??= this.#compileRoutes();
    for (const { operation, pattern, names } of this.#routes) {
      const match = pattern.exec(path);
      if (!match) continue;
      if (operation.facts.method.toUpperCase() !== method) {
        found = 'wrong-method';
        continue;
      }
      const pathParams: Record<string, string> = {};
      for (const [index, name] of names.entries()) {
        const raw = match[index + 1] ?? '';
        try {
          pathParams[name] = decodeURIComponent(raw);
        } catch {
          pathParams[name] = raw;
        }
      }
      return { operation, pathParams };
    }
    return found;
  }

  #routes: { operation: OperationDocument; pattern: RegExp; names: string[] }[] | undefined;

  #compileRoutes() {
    const literally = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
    return [...this.operations.values()]
      .map((operation) => {
        const names: string[] = [];
        const source = operation.facts.path
          .split(/(\{[^}]+\})/)
          .map((part) => {
            const name = /^\{([^}]+)\}$/.exec(part)?.[1];
            if (!name) return literally(part);
            names.push(name);
            return '([^/]+)';
          })
          .join('');
        return { operation, pattern: new RegExp(`^${source}$`), names };
      })
      .sort((a, b) => a.names.length - b.names.length);
  }

  /** A validator of a schema component of a document, e.g. the private document's Nonce. */
  componentValidator(api: string, component: string): ValidateFunction {
    return this.model.validator(this.model.component(api, component));
  }

  /** The enum of a schema component, e.g. the action types, as the document lists them. */
  schemaEnum(api: string, component: string): readonly unknown[] {
    return this.model.schemaEnum(api, component);
  }

  /** The names of an enum schema's values (x-enum-varnames), by value. */
  enumNames(api: string, component: string): ReadonlyMap<unknown, string> {
    return this.model.enumNames(api, component);
  }

  /**
   * How the service refuses a body it cannot take as signed (`components/x-refusals` of the
   * document `api`): the invalid payload answer, and the message for a missing nonce, payload
   * or request.
   */
  signingRefusals(api: string): {
    invalidPayload: Answer;
    notProvided: { nonce: string; payload: string; request: string };
  } {
    const refusals = this.model.componentsExtension(api, 'x-refusals');
    const status = numberAt(refusals, 'invalidPayload', 'status');
    if (status === undefined) throw new Error('x-refusals.invalidPayload has no status');
    const message = (field: string) =>
      requiredString(stringAt(refusals, 'notProvided', field), `x-refusals.notProvided.${field}`);
    return {
      invalidPayload: { status, body: structuredClone(at(refusals, 'invalidPayload', 'body')) },
      notProvided: { nonce: message('nonce'), payload: message('payload'), request: message('request') },
    };
  }

  /**
   * The wording template for a field that breaks its schema (`components/x-validation-messages`
   * of the document `api`), by ajv keyword (and, for `type`, the expected type); the `other`
   * template when none is given.
   */
  validationTemplate(api: string, keyword: string, type?: string): string {
    const messages = this.model.componentsExtension(api, 'x-validation-messages');
    const found = keyword === 'type' ? stringAt(messages, 'type', type ?? '') : stringAt(messages, keyword);
    return found ?? requiredString(stringAt(messages, 'other'), 'x-validation-messages.other');
  }
}

let project: SandboxDocuments | undefined;

/** The project's own documents, read once and shared. */
export function projectDocuments(): SandboxDocuments {
  project ??= new SandboxDocuments(documentModel());
  return project;
}

/** The documents of a project root (its redocly.yaml names them), or of a model already loaded. */
export function sandboxDocuments(source?: string | DocumentModel): SandboxDocuments {
  if (source === undefined) return projectDocuments();
  return new SandboxDocuments(
    typeof source === 'string' ? createDocumentModel(loadDocuments(source)) : source,
  );
}

/**
 * A template with its `{placeholders}` filled; every placeholder must have a value, so that a
 * template and its caller cannot drift apart unnoticed.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([a-zA-Z]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for {${name}} in "${template}"`);
    return value;
  });
}
