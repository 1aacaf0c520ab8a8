// What the sandbox reads of the documents, through the document model (model/): request and
// response validators, schema components and the named examples that carry the service's
// error bodies, each keyed by the operationIds of generated/operations.ts.
import type { ValidateFunction } from 'ajv';
import type { OperationId } from '../generated/operations.ts';
import { at, numberAt, optionalRecordAt, stringAt } from '../model/json.ts';
import { documentModel } from '../model/model.ts';
import type { Answer } from './answer.ts';

const model = documentModel();

export function operationObject(operationId: OperationId) {
  return model.operation(operationId).object;
}

/** The validator of the operation's JSON request body, or undefined when it takes none. */
export function requestValidator(operationId: OperationId): ValidateFunction | undefined {
  const schema = model.operation(operationId).requestSchema;
  return schema ? model.validator(schema) : undefined;
}

/** What the document says an answer with this status looks like. */
export type ResponseShape =
  | { kind: 'undocumented' }
  | { kind: 'empty' }
  | { kind: 'json'; validate: ValidateFunction };

export function responseShape(operationId: OperationId, status: number): ResponseShape {
  const response = model.operation(operationId).responses.get(status);
  if (!response) return { kind: 'undocumented' };
  return response.schema ? { kind: 'json', validate: model.validator(response.schema) } : { kind: 'empty' };
}

/** The private error object of the private document, for answers the document does not list. */
export function privateErrorValidator(): ValidateFunction {
  return model.validator(model.component('private-v4', 'PrivateError'));
}

/** A validator of a schema component of a document, e.g. the private document's Nonce. */
export function componentValidator(api: string, component: string): ValidateFunction {
  return model.validator(model.component(api, component));
}

export interface DocumentedExample {
  status: number;
  value: unknown;
}

/** A named response example of an operation, with the status it is documented under. */
export function responseExample(operationId: OperationId, name: string): DocumentedExample {
  return model.responseExample(operationId, name);
}

/** The names of the examples documented under one status of an operation. */
export function exampleNames(operationId: OperationId, status: number): string[] {
  return (model.operation(operationId).responses.get(status)?.examples ?? []).map((example) => example.name);
}

/** The enum of a schema component, e.g. the action types, as the document lists them. */
export function schemaEnum(api: string, component: string): readonly unknown[] {
  return model.schemaEnum(api, component);
}

/** The names of an enum schema's values (x-enum-varnames), by value. */
export function enumNames(api: string, component: string): ReadonlyMap<unknown, string> {
  return model.enumNames(api, component);
}

/** The `default` of a request body property, e.g. the history's limit and offset. */
export function requestDefault(operationId: OperationId, property: string): unknown {
  return optionalRecordAt(model.operation(operationId).requestSchema, 'properties', property)?.default;
}

function requiredString(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new Error(`the private document has no string at ${where}`);
  return value;
}

/**
 * How the service refuses a body it cannot take as signed (`components/x-refusals`): the
 * invalid payload answer, and the message for a missing nonce, payload or request.
 */
export function signingRefusals(): {
  invalidPayload: Answer;
  notProvided: { nonce: string; payload: string; request: string };
} {
  const refusals = model.componentsExtension('private-v4', 'x-refusals');
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
 * The wording template for a field that breaks its schema (`components/x-validation-messages`),
 * by ajv keyword (and, for `type`, the expected type); the `other` template when none is given.
 */
export function validationTemplate(keyword: string, type?: string): string {
  const messages = model.componentsExtension('private-v4', 'x-validation-messages');
  const found = keyword === 'type' ? stringAt(messages, 'type', type ?? '') : stringAt(messages, keyword);
  return found ?? requiredString(stringAt(messages, 'other'), 'x-validation-messages.other');
}

/** The named example whose status, code and message a request validation failure takes. */
export function validationExampleName(operationId: OperationId): string {
  return requiredString(
    stringAt(model.operation(operationId).object, 'x-validation-example'),
    `${operationId} x-validation-example`,
  );
}

/** A wording template of the operation's own refusals (`x-messages`), by name. */
export function operationMessage(operationId: OperationId, name: string): string {
  return requiredString(
    stringAt(model.operation(operationId).object, 'x-messages', name),
    `${operationId} x-messages.${name}`,
  );
}

/** A vendor extension of a request body property, e.g. invest's `amount` `x-minimum-amount`. */
export function requestPropertyExtension(operationId: OperationId, property: string, name: string): unknown {
  return at(model.operation(operationId).requestSchema, 'properties', property, name);
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
