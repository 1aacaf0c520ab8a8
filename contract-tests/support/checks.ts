// The checks of the suite, as functions that return the problems they find (an empty list
// passes). The tests assert the list is empty for the real client and documents, and
// self-test.contract.ts asserts it is not for a deliberately broken client or document.
import { isDeepStrictEqual } from 'node:util';
import type { ApiErrorKind } from '../../src/errors.ts';
import {
  type Clients,
  callOperation,
  clientsFor,
  describeViolations,
  type Mutation,
  type Outcome,
  prismViolations,
  rawSignedPost,
} from './clients.ts';
import { callerBody, type Model, type OperationId } from './documents.ts';
import type { ContractContext } from './target.ts';

export interface CheckResult {
  problems: string[];
  outcome: Outcome;
}

const is2xx = (status: number) => status >= 200 && status < 300;

/** The ApiError kind the client must give each failing status (see src/errors.ts). */
export function expectedKind(api: string, status: number): ApiErrorKind {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 429) return 'rate-limited';
  if (status >= 500) return 'server-error';
  return api === 'public-v4' ? 'public-error' : 'private-error';
}

/** A valid body of the operation as a caller writes it: its first request example. */
export function validBody(model: Model, operationId: OperationId): Record<string, unknown> | undefined {
  const { facts, requestExamples } = model.model(operationId);
  if (facts.api === 'public-v4') return undefined;
  return callerBody(requestExamples[0]?.value);
}

/** A body with the values the target is known to hold put in place of the examples' values. */
export function onTarget<Body extends Record<string, unknown> | undefined>(
  context: ContractContext,
  body: Body,
): Body {
  if (!body || !context.known) return body;
  const known = Object.entries(context.known).filter(([field]) => field in body);
  return { ...body, ...Object.fromEntries(known) };
}

function describeError(outcome: Outcome): string {
  const error = outcome.error;
  if (!error) return '';
  const violations = prismViolations(outcome.response?.headers, error.body);
  const fields = Object.keys(error.fieldErrors).length ? ` ${JSON.stringify(error.fieldErrors)}` : '';
  return `${error.kind}${error.status ? ` HTTP ${error.status}` : ''}: ${error.message}${fields}${
    violations.length ? ` [Prism: ${describeViolations(violations)}]` : ''
  }`;
}

/**
 * A schema-valid call through the real client is accepted: a declared 2xx status, a body that
 * matches that status's schema, and no violation reported by Prism.
 */
export async function checkAccepted(
  model: Model,
  clients: Clients,
  operationId: OperationId,
  body: unknown = validBody(model, operationId),
  options: { alsoAccept?: number[] } = {},
): Promise<CheckResult> {
  const operation = model.model(operationId);
  const outcome = await callOperation(clients, operationId, body);
  const problems: string[] = [];
  const status = outcome.response?.status;
  if (outcome.error) {
    if (!(status !== undefined && options.alsoAccept?.includes(status))) {
      problems.push(`${operationId}: the call was not accepted: ${describeError(outcome)}`);
    }
    return { problems, outcome };
  }
  if (status === undefined || !is2xx(status) || !operation.responses.has(status)) {
    problems.push(`${operationId}: status ${status} is not a declared success status`);
  }
  const violations = prismViolations(outcome.response?.headers, undefined);
  if (violations.length) problems.push(`${operationId}: Prism reports ${describeViolations(violations)}`);
  if (status !== undefined) {
    for (const problem of operation.validateResponse(status, outcome.data)) {
      problems.push(`${operationId}: response body ${problem}`);
    }
  }
  return { problems, outcome };
}

/**
 * A declared status, requested from the mock with `Prefer: code=…[, example=…]`, arrives as the
 * example's data (2xx) or as the ApiError of the right kind carrying the example's body.
 */
export async function checkStatus(
  model: Model,
  context: ContractContext,
  operationId: OperationId,
  status: number,
  example?: string,
  body: unknown = validBody(model, operationId),
): Promise<CheckResult> {
  const operation = model.model(operationId);
  const declared = operation.responses.get(status);
  const expected = declared?.examples.find((candidate) => candidate.name === example);
  const clients = clientsFor(context, { prefer: `code=${status}${example ? `, example=${example}` : ''}` });
  const outcome = await callOperation(clients, operationId, body);
  const problems: string[] = [];
  const where = `${operationId} ${status}${example ? ` ${example}` : ''}`;
  if (!declared) problems.push(`${where}: not declared`);
  if (example && !expected) problems.push(`${where}: no such example`);
  if (outcome.response?.status !== status) {
    problems.push(`${where}: got ${outcome.response?.status ?? describeError(outcome)}`);
    return { problems, outcome };
  }
  const violations = prismViolations(outcome.response?.headers, undefined);
  if (violations.length) problems.push(`${where}: Prism reports ${describeViolations(violations)}`);
  const received = is2xx(status) ? outcome.data : outcome.error?.body;
  if (is2xx(status)) {
    if (outcome.error) problems.push(`${where}: a success arrived as an error: ${describeError(outcome)}`);
  } else {
    // A status the document declares without a body (the operator lists it, shows none) has
    // no error object to read: the client says the body was not what it expects.
    const byStatus = expectedKind(operation.facts.api, status);
    const needsBody = byStatus === 'private-error' || byStatus === 'public-error';
    const kind = needsBody && !declared?.schema ? 'unexpected-body' : byStatus;
    if (outcome.error?.kind !== kind)
      problems.push(`${where}: kind ${outcome.error?.kind}, expected ${kind}`);
    if (outcome.error?.status !== status) problems.push(`${where}: ApiError.status ${outcome.error?.status}`);
    if (kind === 'private-error' && expected) {
      const value = expected.value as { code?: number; errors?: Record<string, string[]> };
      if (outcome.error?.code !== value.code) problems.push(`${where}: code ${outcome.error?.code}`);
      if (!isDeepStrictEqual(outcome.error?.fieldErrors, value.errors ?? {})) {
        problems.push(`${where}: fieldErrors ${JSON.stringify(outcome.error?.fieldErrors)}`);
      }
    }
  }
  if (expected && !isDeepStrictEqual(received, expected.value)) {
    problems.push(`${where}: body ${JSON.stringify(received)} is not the example`);
  }
  if (declared?.schema) {
    for (const problem of operation.validateResponse(status, received)) {
      problems.push(`${where}: response body ${problem}`);
    }
  }
  return { problems, outcome };
}

/** A call whose signing headers were removed by `mutate` is rejected with 401, typed unauthorized. */
export async function checkUnsignedRejected(
  model: Model,
  context: ContractContext,
  operationId: OperationId,
  mutate: Mutation,
): Promise<CheckResult> {
  const clients = clientsFor(context, { mutate });
  const outcome = await callOperation(clients, operationId, validBody(model, operationId));
  const problems: string[] = [];
  if (outcome.response?.status !== 401 || outcome.error?.kind !== 'unauthorized') {
    problems.push(
      `${operationId}: a call without its signing headers got ${
        outcome.error ? describeError(outcome) : `HTTP ${outcome.response?.status} (accepted)`
      }, expected 401 unauthorized`,
    );
  }
  return { problems, outcome };
}

/** A call whose signing header `header` was malformed by `mutate` is rejected, naming the header. */
export async function checkMalformedRejected(
  model: Model,
  context: ContractContext,
  operationId: OperationId,
  header: string,
  mutate: Mutation,
): Promise<CheckResult> {
  const clients = clientsFor(context, { mutate });
  const outcome = await callOperation(clients, operationId, validBody(model, operationId));
  const problems: string[] = [];
  const status = outcome.response?.status;
  if (status !== 400 && status !== 422) {
    problems.push(`${operationId}: a malformed ${header} got HTTP ${status}, expected 400 or 422`);
  }
  const violations = prismViolations(outcome.response?.headers, outcome.error?.body);
  if (!violations.some((violation) => violation.field.toLowerCase() === header.toLowerCase())) {
    problems.push(
      `${operationId}: no violation names ${header}: ${describeViolations(violations) || 'none'}`,
    );
  }
  return { problems, outcome };
}

/** The client refuses an invalid body before sending, with `invalid-request` naming the field. */
export async function checkClientRefuses(
  context: ContractContext,
  operationId: OperationId,
  body: unknown,
  field: string,
): Promise<CheckResult> {
  const clients = clientsFor(context);
  const outcome = await callOperation(clients, operationId, body);
  const problems: string[] = [];
  if (clients.tap.sent) problems.push(`${operationId}: the client sent ${JSON.stringify(body)}`);
  if (outcome.error?.kind !== 'invalid-request') {
    problems.push(`${operationId}: ${JSON.stringify(body)} gave ${outcome.error?.kind ?? 'success'}`);
  } else if (!(outcome.error.field === field || outcome.error.field?.startsWith(`${field}.`))) {
    problems.push(`${operationId}: ${JSON.stringify(body)} named ${outcome.error.field}, expected ${field}`);
  } else if (!(field in outcome.error.fieldErrors || outcome.error.field in outcome.error.fieldErrors)) {
    problems.push(`${operationId}: fieldErrors lacks ${field}`);
  }
  return { problems, outcome };
}

/** Prism (the document) rejects an invalid body signed and sent raw, naming the field. */
export async function checkServerRejects(
  context: ContractContext,
  operationId: OperationId,
  body: Record<string, unknown>,
  field: string,
): Promise<string[]> {
  const answer = await rawSignedPost(context, operationId, body);
  const problems: string[] = [];
  if (answer.status < 400 || answer.status >= 500) {
    problems.push(`${operationId}: raw ${JSON.stringify(body)} got HTTP ${answer.status}, expected a 4xx`);
  }
  const named = answer.violations.some(
    (violation) => violation.field === field || violation.field.startsWith(`${field}.`),
  );
  if (!named) {
    problems.push(
      `${operationId}: raw ${JSON.stringify(body)}: no violation names ${field}: ${
        describeViolations(answer.violations) || 'none'
      }`,
    );
  }
  return problems;
}
