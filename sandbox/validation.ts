// Turns ajv's findings on a request body into the service's validation answer. Where the
// operator words a kind of schema failure with a named example of its own (a missing field, a
// side that is neither buy nor sell, …) and the operation documents it, that example answers:
// its status, code and message, with `errors` naming the failing fields. Otherwise the answer
// takes the status, code and message of the operation's `x-validation-example`, and `errors`
// names each offending field (`actionTypes.0` for an element) with the message a named example
// of the same status gives that field, else the documents' `x-validation-messages` wording.
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

/** One field that breaks the schema: the ajv keyword it breaks and the value it has. */
interface SchemaFailure {
  field: string;
  keyword: string;
  value: unknown;
}

const isType = (failure: SchemaFailure) => failure.keyword === 'type';
const isFormat = (failure: SchemaFailure) => ['type', 'pattern', 'format'].includes(failure.keyword);

/**
 * The named examples in which the operator words a kind of schema failure, by example name, in
 * order of preference: an operation that documents one answers a failure of a field the example
 * names, of that kind, with it. An empty market is its own case before the other forms.
 */
const failureExamples: readonly [string, (failure: SchemaFailure) => boolean][] = [
  ['missingFields', (failure) => failure.keyword === 'required'],
  ['missingRequiredField', (failure) => failure.keyword === 'required'],
  ['orderIdMissing', (failure) => failure.keyword === 'required'],
  ['ordersMissing', (failure) => failure.keyword === 'required' || isType(failure)],
  ['ordersNotArray', (failure) => failure.keyword === 'required' || isType(failure)],
  ['tooManyOrders', (failure) => failure.keyword === 'maxItems' || failure.keyword === 'minItems'],
  ['marketEmpty', (failure) => failure.value === ''],
  ['invalidMarket', isFormat],
  ['marketNotAvailable', isFormat],
  ['sideInvalid', (failure) => failure.keyword === 'enum'],
  ['invalidFromTo', (failure) => failure.keyword === 'enum'],
  ['amountNotNumeric', isFormat],
  ['priceNotNumeric', isFormat],
  ['clientOrderIdNotString', isType],
  ['clientOrderIdInvalid', (failure) => failure.keyword === 'pattern'],
  ['orderIdNotInteger', isType],
  ['tickerNotString', isType],
  ['invalidTypes', isType],
  ['typeNotArray', isType],
  ['pageNotInteger', isType],
  ['pageTooLarge', (failure) => failure.keyword === 'maximum'],
  ['pageTooSmall', (failure) => failure.keyword === 'minimum'],
];

/** The example of `failureExamples` that words this failure for the operation, and its messages. */
function failureExample(
  operation: OperationDocument,
  failure: SchemaFailure,
): { example: string; messages: string[] } | undefined {
  for (const [example, matches] of failureExamples) {
    if (!operation.has(example) || !matches(failure)) continue;
    const messages = (operation.example(example).value as { errors?: FieldErrors }).errors?.[failure.field];
    if (messages && messages.length > 0) return { example, messages };
  }
  return undefined;
}

/** The value at a JSON pointer of the body (ajv's instancePath). */
function valueAt(body: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>(
      (node, step) => (node !== null && typeof node === 'object' ? Reflect.get(node, step) : undefined),
      body,
    );
}

/**
 * The validation answer to ajv's findings on `body`: the one named example that words every
 * failure when there is one, else the `x-validation-example` with each field's wording.
 */
export function schemaRefusal(
  operation: OperationDocument,
  body: unknown,
  errors: readonly ErrorObject[],
): Answer {
  let documentedByField = messageCache.get(operation);
  if (!documentedByField) {
    documentedByField = documentedMessages(operation);
    messageCache.set(operation, documentedByField);
  }
  const found: FieldErrors = {};
  const examples = new Set<string>();
  for (const error of errors) {
    const path = error.instancePath.slice(1).replaceAll('/', '.');
    const field =
      error.keyword === 'required'
        ? [path, String(error.params.missingProperty)].filter(Boolean).join('.')
        : path || 'body';
    const worded = failureExample(operation, {
      field,
      keyword: error.keyword,
      value: valueAt(body, error.instancePath),
    });
    examples.add(worded?.example ?? '');
    const texts =
      worded?.messages ??
      (error.keyword !== 'required' && documentedByField.has(field)
        ? (documentedByField.get(field) as string[])
        : [message(operation, error, field)]);
    const list = found[field] ?? [];
    for (const text of texts) if (!list.includes(text)) list.push(text);
    found[field] = list;
  }
  const [only] = examples;
  return validation(operation, examples.size === 1 && only ? only : operation.validationExampleName(), found);
}

/**
 * The refusal of required fields a body lacks where the schema alone cannot say so (one of two
 * forms of a request, each with fields of its own): worded as the schema's own refusal would be.
 */
export function missingFields(
  operation: OperationDocument,
  body: unknown,
  fields: readonly string[],
): Answer {
  return schemaRefusal(
    operation,
    body,
    fields.map((field) => ({
      keyword: 'required',
      instancePath: '',
      schemaPath: '#/required',
      params: { missingProperty: field },
    })),
  );
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
  return schemaRefusal(operation, body, validate.errors ?? []);
}
