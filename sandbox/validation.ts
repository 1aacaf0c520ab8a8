// Turns ajv's findings on a request body into the service's validation answer: the status,
// code and message of the operation's documented validation example, and `errors` naming each
// offending field (`actionTypes.0` for an element).
import type { ErrorObject } from 'ajv';
import type { OperationId } from '../generated/operations.ts';
import { exampleNames, requestValidator, responseExample } from './document.ts';
import { type ErrorAnswer, type FieldErrors, validation } from './errors.ts';

/**
 * The documented example whose status, code and message a request validation failure takes.
 */
const validationExample: Record<string, [OperationId, string]> = {
  getMainBalance: ['getMainBalance', 'invalidTicker'],
  listFlexInvestmentHistory: ['listFlexInvestmentHistory', 'invalidPlan'],
  createFixedInvestment: ['createFixedInvestment', 'unknownPlan'],
  getCollateralBalanceSummary: ['getCollateralBalanceSummary', 'invalidTicker'],
  cancelAllOrders: ['cancelAllOrders', 'typeNotArray'],
};

/** `dateFrom` → `date from`, the way the service words field names in messages. */
function words(field: string): string {
  return field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

function message(error: ErrorObject, field: string): string {
  const name = words(field);
  switch (error.keyword) {
    case 'required':
      return `The ${name} field is required.`;
    case 'type': {
      const type = String(error.params.type);
      return type === 'boolean'
        ? `The ${name} field must be true or false.`
        : `The ${name} must be ${article(type)}.`;
    }
    case 'enum':
    case 'const':
    case 'format':
      return `The selected ${field} is invalid.`;
    case 'pattern':
      return `The ${name} format is invalid.`;
    case 'minLength':
      return `The ${name} must be at least ${error.params.limit} characters.`;
    case 'maxLength':
      return `The ${name} may not be greater than ${error.params.limit} characters.`;
    default:
      return `The ${name} is invalid.`;
  }
}

/** The messages of the documented examples that name one field, by field (the first wins). */
function documentedMessages(operationId: OperationId): Map<string, string[]> {
  const messages = new Map<string, string[]>();
  const [source, example] = validationExample[operationId] ?? [];
  if (!source || !example) return messages;
  for (const name of [example, ...siblingExamples(source, example)]) {
    const errors = (responseExample(source, name).value as { errors?: FieldErrors }).errors ?? {};
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
export function validateRequest(operationId: OperationId, body: unknown): ErrorAnswer | undefined {
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
  const [source, example] = validationExample[operationId] ?? [operationId, ''];
  return validation(source, example, errors);
}
