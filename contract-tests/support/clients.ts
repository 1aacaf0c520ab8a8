// The real clients of src/, pointed at the target. The only seam used is the documented
// `fetch` option: a wrapper around globalThis.fetch that may add a Prefer header (to pick a
// mock response), rewrite the real client's request (to break it on purpose) and keep the
// response's headers (to read Prism's sl-violations).
import { signingHeaders } from '../../generated/operations.ts';
import { environmentVariables } from '../../src/cli/environment.ts';
import { createPrivateClient, createPublicClient } from '../../src/client.ts';
import type { ApiError } from '../../src/errors.ts';
import { nextNonce } from '../../src/nonce.ts';
import { createSigner } from '../../src/signing.ts';
import type { ApiName, Facts, OperationId } from './documents.ts';
import { factsOf } from './documents.ts';
import type { ContractContext } from './target.ts';
import { credentialsFromEnvironment } from './variables.ts';

/** A request rewrite: gets the real client's request, returns the one to send. */
export type Mutation = (request: Request) => Request | Promise<Request>;

export interface Tap {
  /** Value of the Prefer header (Prism: `code=401`, `example=invalidPlan`). */
  prefer?: string;
  mutate?: Mutation;
  /** The last request sent and response received through this tap. */
  sent?: Request;
  sentBody?: string;
  received?: Response;
}

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

export function tappedFetch(tap: Tap): (request: Request) => Promise<Response> {
  return async (original) => {
    let request = original;
    if (tap.prefer) request.headers.set('Prefer', tap.prefer);
    if (tap.mutate) request = await tap.mutate(request);
    tap.sent = request;
    tap.sentBody = await request.clone().text();
    const response = await globalThis.fetch(request);
    tap.received = response;
    return response;
  };
}

export interface Clients {
  tap: Tap;
  private: ReturnType<typeof createPrivateClient>;
  public: ReturnType<typeof createPublicClient>;
}

/** Both real clients, sending through one tap. */
export function clientsFor(context: ContractContext, tap: Tap = {}): Clients {
  const common = {
    fetch: tappedFetch(tap),
    // The mock needs no client-side limiting; a real deployment gets the documents' limits.
    rateLimit: !context.mock,
    timeoutMs: 15_000,
  };
  return {
    tap,
    private: createPrivateClient({ ...common, baseUrl: context.urls['private-v4'], ...credentials(context) }),
    public: createPublicClient({ ...common, baseUrl: context.urls['public-v4'] }),
  };
}

export interface Outcome {
  data?: unknown;
  error?: ApiError;
  response?: { status: number; headers: { get(name: string): string | null } };
}

/** Calls any operation through the real client, by operationId. */
export async function callOperation(
  clients: Clients,
  operationId: OperationId,
  body?: unknown,
): Promise<Outcome> {
  const facts: Facts = factsOf(operationId);
  if (facts.api === 'public-v4') {
    return (await clients.public.GET(facts.path as never)) as Outcome;
  }
  // biome-ignore lint/suspicious/noExplicitAny: one call site for every operation, typed per case elsewhere
  const post = clients.private.POST as (path: string, init: any) => Promise<Outcome>;
  return post(facts.path, body === undefined ? {} : { body });
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
    const at = location.findIndex((part) => part === 'body' || part === 'header' || part === 'query');
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
  const response = await fetch(new URL(facts.path, context.urls[facts.api as ApiName]), {
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

/** Rewrites of a signed request, for the checks that the suite notices a broken client. */
export const mutations = {
  /** Drops some signing headers (by scheme name: ApiKey, Payload, Signature). */
  drop:
    (...schemes: (keyof typeof signingHeaders)[]): Mutation =>
    (request) => {
      for (const scheme of schemes) request.headers.delete(signingHeaders[scheme]);
      return request;
    },
  /** Replaces one signing header's value. */
  set:
    (scheme: keyof typeof signingHeaders, value: (current: string) => string): Mutation =>
    (request) => {
      const name = signingHeaders[scheme];
      request.headers.set(name, value(request.headers.get(name) ?? ''));
      return request;
    },
  /** Rewrites the JSON body and signs it again correctly, as a client with that bug would. */
  rewriteBody:
    (apiSecret: string, rewrite: (body: Record<string, unknown>) => Record<string, unknown>): Mutation =>
    async (request) => {
      const body = JSON.stringify(rewrite(JSON.parse(await request.text())));
      const { payload, signature } = await createSigner(apiSecret)(body);
      const headers = new Headers(request.headers);
      headers.set(signingHeaders.Payload, payload);
      headers.set(signingHeaders.Signature, signature);
      return new Request(request.url, { method: request.method, headers, body });
    },
};
