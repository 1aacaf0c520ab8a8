// The error answers of the sandbox, each read from the documents: a named example of the
// operation (with its status), or the private document's `x-refusals`.
import type { OperationId } from '../generated/operations.ts';
import type { Answer } from './answer.ts';
import { responseExample, signingRefusals } from './document.ts';

export type FieldErrors = Record<string, string[]>;

/** 400 code 9: a body that is not canonical compact JSON (or cannot be read as JSON at all). */
export function invalidPayload(): Answer {
  return signingRefusals().invalidPayload;
}

/** A documented example answer of the operation, as is. */
export function documented(operationId: OperationId, example: string): Answer {
  const { status, value } = responseExample(operationId, example);
  return { status, body: value };
}

/** 401 code 10: unknown key, bad signature, payload not matching the body. */
export function unauthorized(operationId: OperationId): Answer {
  return documented(operationId, 'unauthorized');
}

/** A missing nonce, payload or request: 401 code 10, with the documents' message for it. */
export function notProvided(operationId: OperationId, missing: 'nonce' | 'payload' | 'request'): Answer {
  const { status, body } = unauthorized(operationId);
  return { status, body: { ...(body as object), message: signingRefusals().notProvided[missing] } };
}

/** 429 "Too many requests.": a rate limit or a nonce that is not acceptable. */
export function tooManyRequests(operationId: OperationId): Answer {
  return documented(operationId, 'tooManyRequests');
}

/** 403: the key is not enabled for this call. */
export function keyNotEnabled(operationId: OperationId): Answer {
  return documented(operationId, 'keyNotEnabled');
}

/** 403: the call needs B2B partner access. */
export function noPermission(operationId: OperationId): Answer {
  return documented(operationId, 'noPermission');
}

/**
 * A validation failure shaped like the documented example `example` (its status, code and
 * message), with `errors` naming the offending fields.
 */
export function validation(operationId: OperationId, example: string, errors: FieldErrors): Answer {
  const { status, body } = documented(operationId, example);
  return { status, body: { ...(body as object), errors } };
}
