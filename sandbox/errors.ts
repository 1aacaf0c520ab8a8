// The error answers of the sandbox, each read from the documents: a named example of the
// operation (with its status), or the document's `x-refusals`.
import type { Answer } from './answer.ts';
import { fillTemplate, type OperationDocument } from './document.ts';

export type FieldErrors = Record<string, string[]>;

/** 400 code 9: a body that is not canonical compact JSON (or cannot be read as JSON at all). */
export function invalidPayload(operation: OperationDocument): Answer {
  return operation.documents.signingRefusals(operation.facts.api).invalidPayload;
}

/** A documented example answer of the operation, as is. */
export function documented(operation: OperationDocument, example: string): Answer {
  const { status, value } = operation.example(example);
  return { status, body: value };
}

/** 401 code 10: unknown key, bad signature, payload not matching the body. */
export function unauthorized(operation: OperationDocument): Answer {
  return documented(operation, 'unauthorized');
}

/** A missing nonce, payload or request: 401 code 10, with the documents' message for it. */
export function notProvided(operation: OperationDocument, missing: 'nonce' | 'payload' | 'request'): Answer {
  const { status, body } = unauthorized(operation);
  const message = operation.documents.signingRefusals(operation.facts.api).notProvided[missing];
  return { status, body: { ...(body as object), message } };
}

/** 429 "Too many requests.": a rate limit or a nonce that is not acceptable. */
export function tooManyRequests(operation: OperationDocument): Answer {
  return documented(operation, 'tooManyRequests');
}

/** 403: the key is not enabled for this call. */
export function keyNotEnabled(operation: OperationDocument): Answer {
  return documented(operation, 'keyNotEnabled');
}

/** 403: the call needs B2B partner access. */
export function noPermission(operation: OperationDocument): Answer {
  return documented(operation, 'noPermission');
}

/**
 * A validation failure shaped like the documented example `example` (its status, code and
 * message), with `errors` naming the offending fields.
 */
export function validation(operation: OperationDocument, example: string, errors: FieldErrors): Answer {
  const { status, body } = documented(operation, example);
  return { status, body: { ...(body as object), errors } };
}

/**
 * A refusal that no named example shows, worded by the operation's `x-messages` template
 * `message` on `field`: the status, code and message of the named example `shape` (by default
 * the operation's `x-validation-example`).
 */
export function worded(
  operation: OperationDocument,
  field: string,
  message: string,
  values: Readonly<Record<string, string>> = {},
  shape: string = operation.validationExampleName(),
): Answer {
  return validation(operation, shape, { [field]: [fillTemplate(operation.message(message), values)] });
}
