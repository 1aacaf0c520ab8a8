// The real clients of src/, pointed at the target, sending through a real transport: the
// runtime's default one (undici on Node, the `#transport` import) or the fetch transport, as the
// vitest project in force says (contract-tests/vitest.config.ts runs every check once per
// transport). The only seam used is the documented `transport` client option: a wrapper around
// that transport which may add a Prefer header (to pick a mock response), rewrite the real
// client's signed request (to break it on purpose) and keep the exchange and its answer (to read
// Prism's sl-violations).
import { inject } from 'vitest';
import { createDefaultTransport } from '#transport';
import { signingHeaders } from '../../generated/operations.ts';
import { environmentVariables } from '../../model/environment.ts';
import { createPrivateClient, createPublicClient } from '../../src/client.ts';
import type { Answer, ApiError } from '../../src/errors.ts';
import { createSigner, nextNonce } from '../../src/signing.ts';
import { createFetchTransport } from '../../src/transport/fetch.ts';
import type { Outgoing, Target, Transport } from '../../src/transport/types.ts';
import { ApiNotStartedError } from './api-not-started-error.ts';
import { model } from './context.ts';
import type { ApiName, Facts, OperationId } from './documents.ts';
import { callerBody, factsOf } from './documents.ts';
import { pointer } from './links.ts';
import type { ContractContext } from './target.ts';
import type { TransportName } from './transport-names.ts';
import { credentialsFromEnvironment } from './variables.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    transport: TransportName;
  }
}

const transports: Record<TransportName, () => Transport> = {
  // What a Node caller gets without options: undici's connections, loaded with the client.
  undici: createDefaultTransport,
  fetch: () => createFetchTransport(),
};

/** The transport of this project, one per worker: its connections live as long as the worker. */
let shared: Transport | undefined;
function sharedTransport(): Transport {
  shared ??= transports[inject('transport')]();
  return shared;
}

/** A signed request as it goes out: the target's URL and method, and what the client signed. */
export type SentRequest = Pick<Target, 'url' | 'method'> & Outgoing;

/** A request rewrite: gets the real client's request, returns the one to send. */
export type Mutation = (request: SentRequest) => SentRequest | Promise<SentRequest>;

export interface Tap {
  /** Value of the Prefer header (Prism: `code=401`, `example=invalidPlan`). */
  prefer?: string;
  mutate?: Mutation;
  /** The last request sent and answer received through this tap. */
  sent?: SentRequest;
  received?: Answer;
  /** How long the last answer took, from sending to its last byte (ms). */
  elapsedMs?: number;
}

/** Header names as the client writes them: lowercase. */
const headerName = (name: string) => name.toLowerCase();

export interface Credentials {
  apiKey: string;
  apiSecret: string;
}

/** TXC_API_KEY/TXC_API_SECRET against a real target; throwaway ones for the mock (it checks formats only). */
export function credentials(context: ContractContext): Credentials {
  if (context.credentials) return context.credentials;
  if (!context.mock) {
    const fromEnvironment = credentialsFromEnvironment(process.env);
    if (!fromEnvironment) {
      const { apiKey, apiSecret } = environmentVariables;
      throw new Error(`${apiKey} and ${apiSecret} are required for a real target`);
    }
    return fromEnvironment;
  }
  return { apiKey: 'contract-test-key', apiSecret: 'contract-test-secret' };
}

/** The project's transport, seen through a tap: every request the client sends passes here. */
export function tappedTransport(tap: Tap, inner: Transport = sharedTransport()): Transport {
  return {
    async lease(target, deadline) {
      const lease = await inner.lease(target, deadline);
      return {
        // The request is seen (and rewritten) as it goes out: on its connection, signed.
        async send(outgoing) {
          let request: SentRequest = {
            url: target.url,
            method: target.method,
            headers: { ...outgoing.headers, ...(tap.prefer ? { prefer: tap.prefer } : {}) },
            body: outgoing.body,
          };
          if (tap.mutate) request = await tap.mutate(request);
          tap.sent = request;
          const started = performance.now();
          const answer = await lease.send({ headers: request.headers, body: request.body });
          tap.elapsedMs = performance.now() - started;
          tap.received = answer;
          return answer;
        },
        release: () => lease.release(),
      };
    },
    // The inner transport serves every client of the worker.
    close: async () => {},
  };
}

export interface Clients {
  tap: Tap;
  /** The fiat gateway's token for the calls it authorises (auth `gateway-token`), got once. */
  gatewayToken(operationId: OperationId): Promise<string>;
  private: ReturnType<typeof createPrivateClient>;
  public: ReturnType<typeof createPublicClient>;
}

/** Where the calls of an API go: its Prism, which the run must have started. */
export function apiUrl(context: ContractContext, api: ApiName): string {
  const url = context.urls[api];
  if (!url) throw new ApiNotStartedError(api);
  return url;
}

/** Both real clients, sending through one tap; each made at its first use, on its API's Prism. */
export function clientsFor(context: ContractContext, tap: Tap = {}): Clients {
  const common = {
    transport: tappedTransport(tap),
    // The mock needs no client-side limiting; a real deployment gets the documents' limits. A
    // call whose signing headers the tap breaks is refused before the sandbox counts it (its
    // windows count accepted calls only, sandbox/rate-limit.ts): limiting it would only wait, a
    // minute at a time on an operation allowed 10 calls a minute.
    rateLimit: !context.mock && !(context.target === 'sandbox' && tap.mutate),
    timeoutMs: 15_000,
  };
  let privateClient: Clients['private'] | undefined;
  let publicClient: Clients['public'] | undefined;
  return {
    tap,
    gatewayToken: (operationId) => gatewayTokenOn(context, operationId),
    get private() {
      privateClient ??= createPrivateClient({
        ...common,
        baseUrl: apiUrl(context, 'private-v4'),
        ...credentials(context),
      });
      return privateClient;
    },
    get public() {
      publicClient ??= createPublicClient({ ...common, baseUrl: apiUrl(context, 'public-v4') });
      return publicClient;
    },
  };
}

export interface Outcome {
  data?: unknown;
  error?: ApiError;
  response?: { status: number; headers: { get(name: string): string | null } };
}

/** A GET's fields by name put where each parameter goes: its path or its query string. */
export function paramsOf(facts: Facts, fields: unknown): { path?: object; query?: object } {
  const { params } = facts as { params?: { path?: { properties: object } } };
  const pathNames = Object.keys(params?.path?.properties ?? {});
  const split: { path?: Record<string, unknown>; query?: Record<string, unknown> } = {};
  for (const [name, value] of Object.entries((fields ?? {}) as Record<string, unknown>)) {
    const where = pathNames.includes(name) ? 'path' : 'query';
    split[where] = { ...split[where], [name]: value };
  }
  return split;
}

/** Where a token call's token comes from: its generated fact (model/token-source.ts derives it). */
function tokenSource(operationId: OperationId): { from: OperationId; status: number; at: string } {
  const facts = factsOf(operationId);
  const source = 'tokenSource' in facts ? facts.tokenSource : undefined;
  if (!source)
    throw new Error(
      `${operationId}: no link names where its gateway token comes from (x-stateful gatewayToken)`,
    );
  return { from: source.operationId as OperationId, status: source.status, at: source.at };
}

/** Tokens got so far, by target and operation: one issuing call a run. */
const gatewayTokens = new Map<string, Promise<string>>();

/**
 * The token a token call presents: on the mock, the one its source's success example shows (the
 * mock checks only that it is there); elsewhere, one the target issues through that source, with
 * the run's key, through a client of its own (no tap sees it).
 */
function gatewayTokenOn(context: ContractContext, operationId: OperationId): Promise<string> {
  const source = tokenSource(operationId);
  const key = `${context.target} ${operationId}`;
  let token = gatewayTokens.get(key);
  if (!token) {
    token = (async () => {
      if (context.mock) {
        const example = model.model(source.from).responses.get(source.status)?.examples[0]?.value;
        return String(pointer(example, source.at));
      }
      const client = createPrivateClient({
        baseUrl: apiUrl(context, factsOf(source.from).api as ApiName),
        ...credentials(context),
        transport: tappedTransport({}),
      });
      try {
        const post = client.POST as unknown as (path: string, init: { body?: unknown }) => Promise<Outcome>;
        const requestExample = model.model(source.from).requestExamples[0]?.value;
        const outcome = await post(factsOf(source.from).path, { body: callerBody(requestExample) });
        const value = pointer(outcome.data, source.at);
        if (typeof value !== 'string' || value === '')
          throw new Error(
            `${source.from} gave no token at ${source.at}: ${outcome.error?.message ?? 'none'}`,
          );
        return value;
      } finally {
        await client.close();
      }
    })();
    gatewayTokens.set(key, token);
  }
  return token;
}

/** Calls any operation through the real client, by operationId. */
export async function callOperation(
  clients: Clients,
  operationId: OperationId,
  body?: unknown,
): Promise<Outcome> {
  const facts: Facts = factsOf(operationId);
  // What the tap holds is this call's or nothing: a call the client refuses before sending must
  // not be reported, or reproduced, with the request and answer of the call before it.
  delete clients.tap.sent;
  delete clients.tap.received;
  delete clients.tap.elapsedMs;
  if (facts.auth === 'none') {
    // One call site for every operation, typed per case elsewhere.
    const get = clients.public.GET as (path: string, init?: { params: object }) => Promise<Outcome>;
    return get(facts.path, body === undefined ? undefined : { params: paramsOf(facts, body) });
  }
  const post = clients.private.POST as unknown as (
    path: string,
    init: { body?: unknown; gatewayToken?: string },
  ) => Promise<Outcome>;
  const gatewayToken = facts.auth === 'gateway-token' ? await clients.gatewayToken(operationId) : undefined;
  return post(facts.path, { ...(body === undefined ? {} : { body }), ...(gatewayToken && { gatewayToken }) });
}

/**
 * A token call sent raw: its fields as the JSON body, unsigned, with a token in the header its
 * scheme names, so that it reaches Prism without the client's checks.
 */
export async function rawTokenPost(
  context: ContractContext,
  operationId: OperationId,
  fields: Record<string, unknown>,
): Promise<{ status: number; headers: Headers; body: unknown; violations: Violation[] }> {
  const facts = factsOf(operationId) as Facts & { tokenHeader?: string };
  if (!facts.tokenHeader)
    throw new Error(`${operationId}: a gateway-token operation without its token header`);
  const token = await gatewayTokenOn(context, operationId);
  const response = await fetch(new URL(facts.path, apiUrl(context, facts.api as ApiName)), {
    method: 'POST',
    headers: { 'content-type': 'application/json', [facts.tokenHeader]: token },
    body: JSON.stringify(fields),
  });
  return rawAnswer(response);
}

export interface Violation {
  location: string[];
  message: string;
  /** The field the violation concerns, as a dotted path below `body`/`header` (`actionTypes.0`). */
  field: string;
}

function asViolations(value: unknown): Violation[] {
  if (!Array.isArray(value)) return [];
  return value.map((item) => {
    const location: string[] = Array.isArray(item?.location) ? item.location.map(String) : [];
    const at = location.findIndex(
      (part) => part === 'body' || part === 'header' || part === 'query' || part === 'path',
    );
    const message = String(item?.message ?? '');
    const path = at >= 0 ? location.slice(at + 1) : location;
    // A missing property is reported at its parent; name the property itself.
    const required = /required property '([^']+)'/.exec(message)?.[1];
    return { location, message, field: [...path, ...(required ? [required] : [])].join('.') };
  });
}

/**
 * Prism's violations of a response: the `sl-violations` header (request or response problems
 * Prism let through), plus the `validation` list of its problem JSON (problems it refused).
 */
export function prismViolations(
  headers: { get(name: string): string | null } | undefined,
  body: unknown,
): Violation[] {
  const header = headers?.get('sl-violations');
  let fromHeader: Violation[] = [];
  if (header) {
    try {
      fromHeader = asViolations(JSON.parse(header));
    } catch {
      fromHeader = [{ location: [], message: header, field: '' }];
    }
  }
  const fromBody = asViolations((body as { validation?: unknown } | undefined)?.validation);
  // A problem answer repeats its violations in the header: keep each once.
  const seen = new Set<string>();
  return [...fromHeader, ...fromBody].filter((violation) => {
    const key = `${violation.location.join('.')}\u0000${violation.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export const describeViolations = (violations: Violation[]): string =>
  violations.map((v) => `${v.location.join('.')}: ${v.message}`).join('; ');

/** A private call signed by the test itself, so that it reaches Prism without the client's checks. */
export async function rawSignedPost(
  context: ContractContext,
  operationId: OperationId,
  fields: Record<string, unknown>,
  options: { prefer?: string } = {},
): Promise<{ status: number; headers: Headers; body: unknown; violations: Violation[] }> {
  const facts = factsOf(operationId);
  const { apiKey, apiSecret } = credentials(context);
  // The client's own nonce sequence for the key, so raw calls never go back in time.
  const body = JSON.stringify({ request: facts.path, nonce: nextNonce(apiKey), ...fields });
  const { payload, signature } = await createSigner(apiSecret)(body);
  const response = await fetch(new URL(facts.path, apiUrl(context, facts.api as ApiName)), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [signingHeaders.ApiKey]: apiKey,
      [signingHeaders.Payload]: payload,
      [signingHeaders.Signature]: signature,
      ...(options.prefer ? { Prefer: options.prefer } : {}),
    },
    body,
  });
  return rawAnswer(response);
}

/** A raw call's answer: its status, headers, body (JSON when it parses) and Prism's violations. */
async function rawAnswer(
  response: Response,
): Promise<{ status: number; headers: Headers; body: unknown; violations: Violation[] }> {
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return {
    status: response.status,
    headers: response.headers,
    body: parsed,
    violations: prismViolations(response.headers, parsed),
  };
}

/** A GET sent raw, its parameters written as text, so that it reaches Prism without the client's checks. */
export async function rawGet(
  context: ContractContext,
  operationId: OperationId,
  fields: Record<string, unknown>,
): Promise<{ status: number; headers: Headers; body: unknown; violations: Violation[] }> {
  const facts = factsOf(operationId);
  const { path = {}, query = {} } = paramsOf(facts, fields) as {
    path?: Record<string, unknown>;
    query?: Record<string, unknown>;
  };
  const filled = facts.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(path[name])),
  );
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  const url = new URL(filled, apiUrl(context, facts.api as ApiName));
  url.search = search.toString();
  return rawAnswer(await fetch(url));
}

/** Rewrites of a signed request, for the checks that the suite notices a broken client. */
export const mutations = {
  /** Drops some signing headers (by scheme name: ApiKey, Payload, Signature). */
  drop:
    (...schemes: (keyof typeof signingHeaders)[]): Mutation =>
    (request) => {
      const dropped = new Set(schemes.map((scheme) => headerName(signingHeaders[scheme])));
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => !dropped.has(headerName(name))),
      );
      return { ...request, headers };
    },
  /** Replaces one signing header's value. */
  set:
    (scheme: keyof typeof signingHeaders, value: (current: string) => string): Mutation =>
    (request) => {
      const name = headerName(signingHeaders[scheme]);
      return { ...request, headers: { ...request.headers, [name]: value(request.headers[name] ?? '') } };
    },
  /** Rewrites the JSON body and signs it again correctly, as a client with that bug would. */
  rewriteBody:
    (apiSecret: string, rewrite: (body: Record<string, unknown>) => Record<string, unknown>): Mutation =>
    async (request) => {
      const body = JSON.stringify(rewrite(JSON.parse(request.body ?? '{}')));
      const { payload, signature } = await createSigner(apiSecret)(body);
      const headers = {
        ...request.headers,
        [headerName(signingHeaders.Payload)]: payload,
        [headerName(signingHeaders.Signature)]: signature,
      };
      return { ...request, headers, body };
    },
};

/** A header of a sent request, by name in any case. */
export const sentHeader = (request: SentRequest | undefined, name: string): string | undefined =>
  request?.headers[headerName(name)];
