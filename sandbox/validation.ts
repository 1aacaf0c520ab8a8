// Turns ajv's findings on a request body into the service's validation answer: the status,
// code and message of the operation's `x-validation-example`, and `errors` naming each
// offending field (`actionTypes.0` for an element) with the message a named example of the
// same status gives that field, else the documents' `x-validation-messages` wording.
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Answer } from './answer.ts';
import { fillTemplate, type OperationDocument } from './document.ts';
import { type FieldErrors, validation } from './errors.ts';

/** `dateFrom` → `date from`, the `{words}` of a message template. */
function words(field: string): string {
  return field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

/** The documents' wording for a field that breaks the schema. */
function message(operation: OperationDocument, error: ErrorObject, field: string): string {
  const template = operation.documents.validationTemplate(
    operation.facts.api,
    error.keyword,
    String(error.params.type),
  );
  const limit = error.params.limit === undefined ? {} : { limit: String(error.params.limit) };
  return fillTemplate(template, { field, words: words(field), ...limit });
}

/** The messages of the documented examples that name one field, by field (the first wins). */
function documentedMessages(operation: OperationDocument): Map<string, string[]> {
  const messages = new Map<string, string[]>();
  const example = operation.validationExampleName();
  const { status } = operation.example(example);
  const siblings = operation.exampleNames(status).filter((name) => name !== example);
  for (const name of [example, ...siblings]) {
    const errors = (operation.example(name).value as { errors?: FieldErrors }).errors ?? {};
    const fields = Object.entries(errors);
    const [field, list] = fields[0] ?? [];
    if (fields.length === 1 && field && list && list.length > 0 && !messages.has(field)) {
      messages.set(field, list);
    }
  }
  return messages;
}

const messageCache = new WeakMap<OperationDocument, Map<string, string[]>>();

/** The field errors of ajv's findings, each worded as the documents word it. */
export function fieldErrors(operation: OperationDocument, errors: readonly ErrorObject[]): FieldErrors {
  let documentedByField = messageCache.get(operation);
  if (!documentedByField) {
    documentedByField = documentedMessages(operation);
    messageCache.set(operation, documentedByField);
  }
  const found: FieldErrors = {};
  for (const error of errors) {
    const path = error.instancePath.slice(1).replaceAll('/', '.');
    const field =
      error.keyword === 'required'
        ? [path, String(error.params.missingProperty)].filter(Boolean).join('.')
        : path || 'body';
    const texts =
      error.keyword !== 'required' && documentedByField.has(field)
        ? (documentedByField.get(field) as string[])
        : [message(operation, error, field)];
    const list = found[field] ?? [];
    for (const text of texts) if (!list.includes(text)) list.push(text);
    found[field] = list;
  }
  return found;
}

/**
 * Validates a request body against the operation's document schema; undefined when it passes.
 * With `items`, that array field is only checked to be an array: its count and items are the
 * transition's to check (a bulk call answers each item on its own).
 */
export function validateRequest(
  operation: OperationDocument,
  body: unknown,
  items?: string,
): Answer | undefined {
  const validate: ValidateFunction | undefined = items
    ? operation.envelopeValidator(items)
    : operation.requestValidator();
  if (!validate || validate(body)) return undefined;
  return validation(
    operation,
    operation.validationExampleName(),
    fieldErrors(operation, validate.errors ?? []),
  );
}
