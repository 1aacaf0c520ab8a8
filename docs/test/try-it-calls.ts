// What a Try it call of a reference page must do at the sandbox, judged the same way whether the
// panel sent it in the browser (reference-site.test.ts, an operation of each request shape) or this process
// sent the request the page's own request builder makes (reference-pages.test.ts, every operation).
import { expect } from 'vitest';
import { signingHeaders } from '../../generated/operations.ts';
import { documentModel, placedBy } from '../../model/model.ts';
import type { FixtureKey } from '../../sandbox/fixture.ts';
import type { Sandbox } from '../../sandbox/server.ts';
import { createPrivateClient } from '../../src/index.ts';
import type { TryItOperation } from '../try-it.ts';

/** What one call did: what it sent, and what the sandbox answered and logged. */
export interface TryItOutcome {
  /** The order placed first for the call, and the error placing it, if any. */
  placed: { operationId: string; error: unknown } | undefined;
  /** The sandbox's log lines for the call. */
  answered: string[];
  status: number;
  /** The answer's body, as text. */
  answer: string;
  /** The request as sent, its first line `METHOD URL` and then its headers. */
  request: string;
}

/**
 * Readies the sandbox for `operation` sent with its first example: the fixture's state again
 * (nonces kept), then the order the example names placed by the operation that places it (an
 * earlier operation's example may have spent it).
 */
export async function readyFor(
  sandbox: Sandbox,
  key: FixtureKey,
  operation: TryItOperation,
): Promise<TryItOutcome['placed']> {
  sandbox.reset();
  const placing = placedBy(documentModel(), operation.operationId, operation.examples[0]?.fields ?? {});
  if (!placing) return undefined;
  const client = createPrivateClient({ apiKey: key.apiKey, apiSecret: key.secret, baseUrl: sandbox.url });
  try {
    const { error } = await client.POST(placing.path as never, {
      body: (placing.requestExamples[0]?.value ?? {}) as never,
    });
    return { operationId: placing.operationId, error };
  } finally {
    await client.close();
  }
}

/** The example the operation documents as its refusal while the account is in some state, of this status. */
export function refusedWhile(operationId: string, status: number): unknown {
  const operation = documentModel().operation(operationId);
  const declared = (operation.object.responses as Record<string, unknown>)?.[String(status)] as
    | { content?: { 'application/json'?: { examples?: Record<string, Record<string, unknown>> } } }
    | undefined;
  const named = Object.entries(declared?.content?.['application/json']?.examples ?? {}).find(
    ([, example]) => example['x-refused-while'] !== undefined,
  );
  return named && operation.responses.get(status) ? named[1].value : undefined;
}

/**
 * The call of `operation` with its first example, sent to `sandboxUrl`: the order it names was
 * placed first; the sandbox accepted it, or gave exactly the refusal the operation documents for
 * the default account's state (x-refused-while: it holds positions); its path was filled in from
 * the example and a signed operation's request carries the signing headers; a token operation's
 * (the fiat gateway's) was sent after the signed call that issued its token, and shows where the
 * token came from, never the token, and no signing header.
 */
export function expectSandboxTook(operation: TryItOperation, call: TryItOutcome, sandboxUrl: string): void {
  const id = operation.operationId;
  if (call.placed) expect(call.placed.error, call.placed.operationId).toBeUndefined();
  const refusal = refusedWhile(id, call.status);
  if (refusal) {
    expect(JSON.parse(call.answer), id).toEqual(refusal);
  } else {
    const issuing = operation.token
      ? [expect.stringMatching(new RegExp(`^${operation.token.sourceOperationId} 2\\d\\d$`))]
      : [];
    expect(call.answered, id).toEqual([...issuing, expect.stringMatching(new RegExp(`^${id} 2\\d\\d$`))]);
    expect(call.status, id).toBeGreaterThanOrEqual(200);
    expect(call.status, id).toBeLessThan(300);
  }
  const fields = operation.examples[0]?.fields ?? {};
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => String(fields[name]));
  expect(call.request, id).toContain(`${operation.method.toUpperCase()} ${sandboxUrl}${path}`);
  if (operation.signed) {
    for (const name of Object.values(signingHeaders)) expect(call.request, id).toContain(name);
  }
  if (operation.token) {
    expect(call.request, id).toContain(`${operation.token.header}: (the token ${operation.token.sourcePath}`);
    for (const name of Object.values(signingHeaders)) expect(call.request, id).not.toContain(name);
  }
}
