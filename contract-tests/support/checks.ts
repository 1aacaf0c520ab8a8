// The checks of the suite, as functions that return the problems they find (an empty list
// passes). The tests assert the list is empty for the real client and documents, and
// self-test.contract.ts asserts it is not for a deliberately broken client or document.
import { isDeepStrictEqual } from 'node:util';
import { contractVariables } from '../../model/environment.ts';
import { isRecord } from '../../model/json.ts';
import { type NamedExample, uniqueKeyOf } from '../../model/model.ts';
import type { ApiErrorKind } from '../../src/errors.ts';
import { createResponseValidator, type ResponseValidator } from '../../src/validation.ts';
import {
  type Clients,
  callOperation,
  clientsFor,
  credentials,
  describeViolations,
  type Mutation,
  type Outcome,
  prismViolations,
  rawGet,
  rawSignedPost,
  rawTokenPost,
  type Tap,
  type Violation,
} from './clients.ts';
import { callerBody, factsOf, isWrite, type Model, type OperationId } from './documents.ts';
import { documentLinks, type Link, linkBody } from './links.ts';
import { type CheckName, named, reproducer } from './reproducer.ts';
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

/**
 * A valid body of the operation as a caller writes it (a GET's parameters by name): its first
 * request example; undefined for a GET that takes none.
 */
export function validBody(model: Model, operationId: OperationId): Record<string, unknown> | undefined {
  const { facts, requestExamples } = model.model(operationId);
  if (facts.auth === 'none' && requestExamples.length === 0) return undefined;
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

let freshKeys = 0;
/**
 * The body with a fresh value for the field whose repeat the service refuses (`uniqueKeyOf`: a
 * quote id, or a client order id while its order is open): on a target that keeps state, an
 * example's own value is spent by its first use.
 */
export function withFreshKey(
  model: Model,
  operationId: OperationId,
  body: Record<string, unknown>,
): Record<string, unknown> {
  const key = uniqueKeyOf(model.model(operationId).operation);
  if (key === undefined || !(key in body)) return body;
  freshKeys += 1;
  return { ...body, [key]: `contract-${process.pid}-${Date.now()}-${freshKeys}` };
}

/**
 * The example's times (fields the documents mark `x-unix-time: seconds`) moved together so that the
 * latest is now: a window an example wrote down years ago, of the same length, as recent as a
 * target that keeps only recent history requires.
 */
function withCurrentTimes(
  model: Model,
  operationId: OperationId,
  body: Record<string, unknown>,
): Record<string, unknown> {
  const properties = model.model(operationId).requestSchema?.properties;
  if (!isRecord(properties)) return body;
  const times = Object.keys(body).filter((field) => {
    const schema = properties[field];
    return isRecord(schema) && schema['x-unix-time'] === 'seconds' && typeof body[field] === 'number';
  });
  if (times.length === 0) return body;
  const shift = Math.floor(Date.now() / 1000) - Math.max(...times.map((field) => body[field] as number));
  return { ...body, ...Object.fromEntries(times.map((field) => [field, (body[field] as number) + shift])) };
}

/**
 * An example's body made true on a target that keeps state (the sandbox, a deployment with writes
 * allowed). Its idempotency key is fresh. When a field of the example is one the documents' links
 * fill from another operation's answer (an order's id, from placing it), that operation is called
 * first, with its own first example, and the example takes the values of that fresh exchange: each
 * field a link from there fills, and each field the two requests share (the client order id the
 * order was placed with). An example's ids name things that a mock invents and a real target
 * holds only once: a cancel spends its order. On a mock, or when the source call is refused (the
 * check then reports what the target says), or where writes are not allowed, the example's own
 * ids stay.
 */
export async function preparedOnTarget(
  context: ContractContext,
  model: Model,
  clients: Clients,
  operationId: OperationId,
  example: Record<string, unknown> | undefined,
): Promise<Record<string, unknown> | undefined> {
  const written = onTarget(context, example);
  if (context.mock || !written) return written;
  const body = withCurrentTimes(model, operationId, written);
  const links = documentLinks(model);
  const fills = (link: Link) =>
    Object.entries(link.requestBody).filter(
      ([field, expression]) =>
        field in body && typeof expression === 'string' && expression.startsWith('$response.'),
    );
  const keyOf = (source: OperationId) => uniqueKeyOf(model.model(source).operation);
  // What a write's answer introduces: a field a link fills that its own request did not carry
  // (an order's id; not the market it echoes back).
  const introduces = (link: Link) => {
    const sent = validBody(model, link.from) ?? {};
    return fills(link).some(([field]) => !(field in sent));
  };
  // A link of a write that names something in the example: an id it answers with, or the key it
  // was placed under. One that leads here comes first (placing an order, for cancelling it). Only
  // a write of the same tag names the same kind of thing: a sub-account's `id` is no conditional
  // order's.
  const tagOf = (id: OperationId) => JSON.stringify(model.model(id).operation.tags ?? []);
  const candidates = links.filter(
    (link) =>
      link.from !== operationId &&
      isWrite(link.from) &&
      tagOf(link.from) === tagOf(operationId) &&
      (introduces(link) || (keyOf(operationId) === undefined && (keyOf(link.from) ?? '') in body)),
  );
  // Of several, one whose answer carries the field under its own name (an order's `orderId`,
  // not an OCO order's `id` filled into it) names the same kind of thing.
  const sameName = (link: Link) =>
    fills(link).some(([field, expression]) => String(expression).endsWith(`/${field}`));
  const source = (
    candidates.find((link) => link.to === operationId) ??
    candidates.find(sameName) ??
    candidates[0]
  )?.from;
  // The source is a write: never made on a target that has not allowed writes.
  if (!source || !context.allowWrites) return withFreshKey(model, operationId, body);
  const request = withFreshKey(model, source, onTarget(context, validBody(model, source)) ?? {});
  const outcome = await callOperation(clients, source, request);
  if (outcome.error) return withFreshKey(model, operationId, body);
  const exchange = { request, response: outcome.data };
  const filled: Record<string, unknown> = {};
  for (const link of links.filter((candidate) => candidate.from === source)) {
    const values = linkBody(link, exchange);
    for (const [field] of fills(link)) filled[field] = values[field];
  }
  const shared = Object.keys(body).filter((field) => field in request && !(field in filled));
  return { ...body, ...Object.fromEntries(shared.map((field) => [field, request[field]])), ...filled };
}

/** The check a Prism violation belongs to: where in the exchange it was found. */
function prismCheck(violations: Violation[]): CheckName {
  const [first] = violations;
  if (first?.location[0] !== 'response') return 'negative_data_rejection';
  return first.location[1] === 'headers' ? 'response_headers_conformance' : 'response_schema_conformance';
}

let validator: Promise<ResponseValidator> | undefined;

/**
 * The problems of the tap's last answer that Prism does not report: an undocumented content type,
 * a documented header missing or malformed; a server error; and, opt-in, a slow answer.
 */
async function answerProblems(
  operationId: OperationId,
  tap: Tap,
  serverErrorAsked = false,
): Promise<string[]> {
  const received = tap.received;
  if (!received) return [];
  const problems: string[] = [];
  const { status } = received.response;
  const prismFound = prismViolations(received.response.headers, undefined).length > 0;
  if (status >= 500 && !serverErrorAsked && !prismFound) {
    problems.push(named('not_a_server_error', `${operationId}: the server answered ${status}`));
  }
  validator ??= createResponseValidator({ onDrift: () => {} });
  const facts = factsOf(operationId);
  const drifts = (await validator).check({
    method: facts.method,
    path: facts.path,
    status,
    headers: received.response.headers,
    text: received.text,
  });
  for (const drift of drifts) {
    if (drift.check !== 'content_type_conformance' && drift.check !== 'response_headers_conformance')
      continue;
    problems.push(
      named(drift.check, `${operationId}: ${drift.field ? `${drift.field} ` : ''}${drift.message}`),
    );
  }
  const budget = Number(process.env[contractVariables.maxResponseMs]);
  if (budget > 0 && tap.elapsedMs !== undefined && tap.elapsedMs > budget) {
    problems.push(
      named(
        'max_response_time',
        `${operationId}: answered in ${Math.round(tap.elapsedMs)} ms, over ${budget} ms`,
      ),
    );
  }
  return problems;
}

/** The problems, with the reproducer of the tap's last request after them when there are any. */
async function withReproducer(
  context: ContractContext,
  operationId: OperationId,
  tap: Tap,
  problems: string[],
): Promise<string[]> {
  if (problems.length === 0 || !tap.sent) return problems;
  const secret = factsOf(operationId).auth === 'signed' ? credentials(context).apiSecret : undefined;
  return [...problems, await reproducer(context, operationId, tap.sent, secret)];
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
 * The error example with `x-refused-while` that a failed call's answer is exactly: its status,
 * its body equal to the example's value, and the ApiError of the kind the status takes. Undefined
 * for any other answer.
 */
export function refusedWhileExample(
  model: Model,
  operationId: OperationId,
  outcome: Outcome,
): (NamedExample & { status: number; refusedWhile: string }) | undefined {
  const status = outcome.response?.status;
  const error = outcome.error;
  if (status === undefined || !error || error.status !== status) return undefined;
  const operation = model.model(operationId);
  const declared = operation.responses.get(status);
  if (!declared?.schema || error.kind !== expectedKind(operation.facts.api, status)) return undefined;
  const example = declared.examples.find(
    (candidate) => candidate.refusedWhile !== undefined && isDeepStrictEqual(error.body, candidate.value),
  );
  return example?.refusedWhile === undefined
    ? undefined
    : { ...example, status, refusedWhile: example.refusedWhile };
}

/**
 * A schema-valid call through the real client is accepted: a declared 2xx status, a body that
 * matches that status's schema, and no violation reported by Prism. On a target that keeps state
 * (`refusedWhile`), an answer that is exactly an error example with `x-refused-while` counts as
 * accepted too: the service's correct answer on an account that earlier calls left in that
 * state; the result names the example (`refusedWhile`). Any other refusal still fails.
 */
export async function checkAccepted(
  model: Model,
  clients: Clients,
  operationId: OperationId,
  body: unknown = validBody(model, operationId),
  options: { alsoAccept?: number[]; context?: ContractContext; refusedWhile?: boolean } = {},
): Promise<CheckResult & { refusedWhile?: NamedExample & { status: number; refusedWhile: string } }> {
  const operation = model.model(operationId);
  const outcome = await callOperation(clients, operationId, body);
  const problems: string[] = [];
  const status = outcome.response?.status;
  if (outcome.error) {
    const refused = options.refusedWhile ? refusedWhileExample(model, operationId, outcome) : undefined;
    if (refused) return { problems: await finish(problems), outcome, refusedWhile: refused };
    if (!(status !== undefined && options.alsoAccept?.includes(status))) {
      // Prism's proxy answers a response that breaks the document with a 500 of its own: the
      // violation, not the status, is what failed.
      const violations = prismViolations(outcome.response?.headers, outcome.error.body);
      const check: CheckName = violations.some((violation) => violation.location[0] === 'response')
        ? prismCheck(violations.filter((violation) => violation.location[0] === 'response'))
        : status !== undefined && status >= 500
          ? 'not_a_server_error'
          : 'positive_data_acceptance';
      problems.push(named(check, `${operationId}: the call was not accepted: ${describeError(outcome)}`));
    }
    return { problems: await finish(problems), outcome };
  }
  if (status === undefined || !is2xx(status) || !operation.responses.has(status)) {
    problems.push(
      named('status_code_conformance', `${operationId}: status ${status} is not a declared success status`),
    );
  }
  const violations = prismViolations(outcome.response?.headers, undefined);
  if (violations.length)
    problems.push(
      named(prismCheck(violations), `${operationId}: Prism reports ${describeViolations(violations)}`),
    );
  if (status !== undefined) {
    for (const problem of operation.validateResponse(status, outcome.data)) {
      problems.push(named('response_schema_conformance', `${operationId}: response body ${problem}`));
    }
  }
  problems.push(...(await answerProblems(operationId, clients.tap)));
  return { problems: await finish(problems), outcome };

  /** A reproducer needs the target: given by the caller, else the URL the call went to. */
  function finish(found: string[]) {
    const context = options.context ?? { target: 'local', mock: true, allowWrites: false, urls: {} };
    return withReproducer(context as ContractContext, operationId, clients.tap, found);
  }
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
  const typed = (problem: string) => problems.push(named('typed_result_conformance', `${where}: ${problem}`));
  const finish = () => withReproducer(context, operationId, clients.tap, problems);
  if (!declared) problems.push(named('status_code_conformance', `${where}: not declared`));
  if (example && !expected) problems.push(named('response_schema_conformance', `${where}: no such example`));
  if (outcome.response?.status !== status) {
    problems.push(
      named('status_code_conformance', `${where}: got ${outcome.response?.status ?? describeError(outcome)}`),
    );
    return { problems: await finish(), outcome };
  }
  const violations = prismViolations(outcome.response?.headers, undefined);
  if (violations.length)
    problems.push(named(prismCheck(violations), `${where}: Prism reports ${describeViolations(violations)}`));
  const received = is2xx(status) ? outcome.data : outcome.error?.body;
  if (is2xx(status)) {
    if (outcome.error) typed(`a success arrived as an error: ${describeError(outcome)}`);
  } else {
    // A status the document declares without a body (the operator lists it, shows none) has
    // no error object to read: the client says the body was not what it expects.
    const byStatus = expectedKind(operation.facts.api, status);
    const needsBody = byStatus === 'private-error' || byStatus === 'public-error';
    const kind = needsBody && !declared?.schema ? 'unexpected-body' : byStatus;
    if (outcome.error?.kind !== kind) typed(`kind ${outcome.error?.kind}, expected ${kind}`);
    if (outcome.error?.status !== status) typed(`ApiError.status ${outcome.error?.status}`);
    if (kind === 'public-error' && expected && outcome.error) {
      // A refusal of parameters, keyed by parameter, is read as field errors.
      const value = expected.value as Record<string, unknown>;
      if (
        !('success' in value) &&
        !isDeepStrictEqual(Object.keys(outcome.error.fieldErrors), Object.keys(value))
      ) {
        typed(`fieldErrors ${JSON.stringify(outcome.error.fieldErrors)}`);
      }
    }
    if (kind === 'private-error' && expected) {
      const value = expected.value as { code?: number; errors?: Record<string, string[]> };
      if (outcome.error?.code !== value.code) typed(`code ${outcome.error?.code}`);
      if (!isDeepStrictEqual(outcome.error?.fieldErrors, value.errors ?? {})) {
        typed(`fieldErrors ${JSON.stringify(outcome.error?.fieldErrors)}`);
      }
    }
  }
  if (expected && !isDeepStrictEqual(received, expected.value)) {
    problems.push(
      named('response_schema_conformance', `${where}: body ${JSON.stringify(received)} is not the example`),
    );
  }
  if (declared?.schema) {
    for (const problem of operation.validateResponse(status, received)) {
      problems.push(named('response_schema_conformance', `${where}: response body ${problem}`));
    }
  }
  problems.push(...(await answerProblems(operationId, clients.tap, status >= 500)));
  return { problems: await finish(), outcome };
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
      named(
        'negative_data_rejection',
        `${operationId}: a call without its signing headers got ${
          outcome.error ? describeError(outcome) : `HTTP ${outcome.response?.status} (accepted)`
        }, expected 401 unauthorized`,
      ),
    );
  }
  return { problems: await withReproducer(context, operationId, clients.tap, problems), outcome };
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
    problems.push(
      named(
        'negative_data_rejection',
        `${operationId}: a malformed ${header} got HTTP ${status}, expected 400 or 422`,
      ),
    );
  }
  const violations = prismViolations(outcome.response?.headers, outcome.error?.body);
  if (!violations.some((violation) => violation.field.toLowerCase() === header.toLowerCase())) {
    problems.push(
      named(
        'negative_data_rejection',
        `${operationId}: no violation names ${header}: ${describeViolations(violations) || 'none'}`,
      ),
    );
  }
  return { problems: await withReproducer(context, operationId, clients.tap, problems), outcome };
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
  if (clients.tap.sent)
    problems.push(
      named('negative_data_rejection', `${operationId}: the client sent ${JSON.stringify(body)}`),
    );
  if (outcome.error?.kind !== 'invalid-request') {
    problems.push(
      named(
        'negative_data_rejection',
        `${operationId}: ${JSON.stringify(body)} gave ${outcome.error?.kind ?? 'success'}`,
      ),
    );
  } else if (!(outcome.error.field === field || outcome.error.field?.startsWith(`${field}.`))) {
    problems.push(
      named(
        'negative_data_rejection',
        `${operationId}: ${JSON.stringify(body)} named ${outcome.error.field}, expected ${field}`,
      ),
    );
  } else if (!(field in outcome.error.fieldErrors || outcome.error.field in outcome.error.fieldErrors)) {
    problems.push(named('negative_data_rejection', `${operationId}: fieldErrors lacks ${field}`));
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
  const answer =
    factsOf(operationId).auth === 'none'
      ? await rawGet(context, operationId, body)
      : factsOf(operationId).auth === 'gateway-token'
        ? await rawTokenPost(context, operationId, body)
        : await rawSignedPost(context, operationId, body);
  const problems: string[] = [];
  if (answer.status < 400 || answer.status >= 500) {
    problems.push(
      named(
        'negative_data_rejection',
        `${operationId}: raw ${JSON.stringify(body)} got HTTP ${answer.status}, expected a 4xx`,
      ),
    );
  }
  // Prism names a query parameter in lowercase.
  const asNamed = (name: string) => (factsOf(operationId).auth === 'none' ? name.toLowerCase() : name);
  const namesField = answer.violations.some(
    (violation) =>
      asNamed(violation.field) === asNamed(field) ||
      asNamed(violation.field).startsWith(`${asNamed(field)}.`),
  );
  if (!namesField) {
    problems.push(
      named(
        'negative_data_rejection',
        `${operationId}: raw ${JSON.stringify(body)}: no violation names ${field}: ${
          describeViolations(answer.violations) || 'none'
        }`,
      ),
    );
  }
  return problems;
}
