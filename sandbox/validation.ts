// Turns ajv's findings on a request body into the service's validation answer: the status,
// code and message of the operation's `x-validation-example`, and `errors` naming each
// offending field (`actionTypes.0` for an element) with the message a named example of the
// same status gives that field, else the documents' `x-validation-messages` wording.
import type { ErrorObject } from 'ajv';
import type { OperationId } from '../generated/operations.ts';
import type { Answer } from './answer.ts';
import {
  exampleNames,
  fillTemplate,
  requestValidator,
  responseExample,
  validationExampleName,
  validationTemplate,
} from './document.ts';
import { type FieldErrors, validation } from './errors.ts';

/** `dateFrom` → `date from`, the `{words}` of a message template. */
function words(field: string): string {
  return field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

/** The documents' wording for a field that breaks the schema. */
function message(error: ErrorObject, field: string): string {
  const template = validationTemplate(error.keyword, String(error.params.type));
  const limit = error.params.limit === undefined ? {} : { limit: String(error.params.limit) };
  return fillTemplate(template, { field, words: words(field), ...limit });
}

/** The messages of the documented examples that name one field, by field (the first wins). */
function documentedMessages(operationId: OperationId): Map<string, string[]> {
  const messages = new Map<string, string[]>();
  const example = validationExampleName(operationId);
  for (const name of [example, ...siblingExamples(operationId, example)]) {
    const errors = (responseExample(operationId, name).value as { errors?: FieldErrors }).errors ?? {};
    const fields = Object.entries(errors);
    const [field, list] = fields[0] ?? [];
    if (fields.length === 1 && field && list && list.length > 0 && !messages.has(field)) {
      messages.set(field, list);
    }
  }
  return messages;
}

/** The other examples documented under the same status as `example`. */
function siblingExamples(operationId: OperationId, example: string): string[] {
  const { status } = responseExample(operationId, example);
  return exampleNames(operationId, status).filter((name) => name !== example);
}

const messageCache = new Map<OperationId, Map<string, string[]>>();

/** Validates a request body against the operation's document schema; undefined when it passes. */
export function validateRequest(operationId: OperationId, body: unknown): Answer | undefined {
  const validate = requestValidator(operationId);
  if (!validate || validate(body)) return undefined;
  let documentedByField = messageCache.get(operationId);
  if (!documentedByField) {
    documentedByField = documentedMessages(operationId);
    messageCache.set(operationId, documentedByField);
  }
  const errors: FieldErrors = {};
  for (const error of validate.errors ?? []) {
    const field =
      error.keyword === 'required'
        ? String(error.params.missingProperty)
        : error.instancePath.slice(1).replaceAll('/', '.') || 'body';
    const texts =
      error.keyword !== 'required' && documentedByField.has(field)
        ? (documentedByField.get(field) as string[])
        : [message(error, field)];
    const list = errors[field] ?? [];
    for (const text of texts) if (!list.includes(text)) list.push(text);
    errors[field] = list;
  }
  return validation(operationId, validationExampleName(operationId), errors);
}
