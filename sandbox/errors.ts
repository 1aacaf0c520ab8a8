// The error answers of the sandbox. Bodies the documents carry as named examples are read from
// there (with their status); the rest are what the live service is observed to send, which the
// documents do not carry as examples yet, and live only here.
import type { OperationId } from '../generated/operations.ts';
import { responseExample } from './document.ts';

export interface ErrorAnswer {
  status: number;
  body: unknown;
}

export type FieldErrors = Record<string, string[]>;

/**
 * Observed upstream, not in the documents as data: a body that is not canonical compact JSON is
 * refused with 400 code 9. The messages for a missing nonce, payload or request are observed
 * upstream with "a 4xx status"; the sandbox answers them as unauthorized requests (401, code 10,
 * a status every private operation documents), with the observed message.
 */
export const upstream = {
  invalidPayload: { status: 400, body: { code: 9, message: 'Invalid payload.' } },
  nonceNotProvided: 'Nonce not provided.',
  payloadNotProvided: 'Payload not provided.',
  requestNotProvided: 'Request not provided.',
} as const;

/** A documented example answer of the operation, as is. */
export function documented(operationId: OperationId, example: string): ErrorAnswer {
  const { status, value } = responseExample(operationId, example);
  return { status, body: value };
}

/** 401 code 10: unknown key, bad signature, payload not matching the body. */
export function unauthorized(operationId: OperationId): ErrorAnswer {
  return documented(operationId, 'unauthorized');
}

/** 401 with an observed "… not provided." message. */
export function notProvided(operationId: OperationId, message: string): ErrorAnswer {
  const { status, body } = unauthorized(operationId);
  return { status, body: { ...(body as object), message } };
}

/** 429 "Too many requests.": a rate limit or a nonce that is not acceptable. */
export function tooManyRequests(operationId: OperationId): ErrorAnswer {
  return documented(operationId, 'tooManyRequests');
}

/** 403: the key is not enabled for this call. */
export function keyNotEnabled(operationId: OperationId): ErrorAnswer {
  return documented(operationId, 'keyNotEnabled');
}

/** 403: the call needs B2B partner access. */
export function noPermission(operationId: OperationId): ErrorAnswer {
  return documented(operationId, 'noPermission');
}

/**
 * A validation failure shaped like the documented example `example` (its status, code and
 * message), with `errors` naming the offending fields.
 */
export function validation(operationId: OperationId, example: string, errors: FieldErrors): ErrorAnswer {
  const { status, body } = documented(operationId, example);
  return { status, body: { ...(body as object), errors } };
}
