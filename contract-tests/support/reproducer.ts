// What the report says of a failed check: the check's name (Schemathesis's names where one
// exists) and the call that reproduces it, as a `txc` command line and as curl. The curl form
// carries the exact body that was signed and computes its payload and signature in the shell from
// the reader's own secret ($TXC_API_SECRET), with the openssl command that signs: the secret is
// never written, and the reader can recompute the signature that was sent.
import { signingHeaders } from '../../generated/operations.ts';
import { environmentVariables } from '../../model/environment.ts';
import { fieldFlag } from '../../src/cli/flags.ts';
import { cliOperations } from '../../src/cli/operations.ts';
import { hasSensitive, redactBody } from '../../src/request-checks.ts';
import { createSigner } from '../../src/signing.ts';
import type { DriftCheck } from '../../src/validation.ts';
import type { SentRequest } from './clients.ts';
import type { OperationId } from './documents.ts';
import type { ContractContext } from './target.ts';

declare module 'vitest' {
  interface TaskMeta {
    /** Why a check did not run on this target, for the report. */
    skipReason?: string;
  }
}

/** The checks the suite names in its report. */
export type CheckName =
  | DriftCheck
  | 'not_a_server_error'
  | 'positive_data_acceptance'
  | 'negative_data_rejection'
  | 'typed_result_conformance'
  | 'max_response_time'
  | 'stateful_link'
  // The stream part's (stream-checks.ts):
  | 'reply_matches_schema'
  | 'update_matches_schema'
  | 'reply_id_matches_request'
  | 'subscribe_then_update'
  | 'unsubscribe_stops_updates'
  | 'write_shows_on_stream';

/** A problem as the report shows it: the check's name first. */
export const named = (check: CheckName, problem: string): string => `[${check}] ${problem}`;

/** The names of the checks that a failure message holds, in order, once each. */
export function checkNamesIn(message: string): CheckName[] {
  // At a line's start, or after fast-check's "Got AssertionError: " (names all hold an underscore).
  const names = [...message.matchAll(/(?:^|\s)\[([a-z]+(?:_[a-z]+)+)\] /gm)].map(
    (match) => match[1] as CheckName,
  );
  return [...new Set(names)];
}

/** The first line of a reproducer, by which the report finds it. */
export const reproducerHeading = 'reproduce with';

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** The origin to show: the deployment for a URL target, else the local server the call went to. */
function originFor(context: ContractContext, sentUrl: string): string {
  if (/^https?:\/\//.test(context.target)) return new URL(context.target).origin;
  return new URL(sentUrl).origin;
}

function txcLine(operationId: OperationId, origin: string, body: Record<string, unknown>): string {
  const operation = cliOperations.find((candidate) => candidate.facts.operationId === operationId);
  // A sensitive field (x-sensitive: a card number) is shown by its last four digits only.
  const shown = redactBody(operation?.body, body);
  const flags = Object.entries(shown).flatMap(([field, value]) => {
    const facts = operation?.body.properties[field];
    if (facts === undefined) return [];
    const text = Array.isArray(value)
      ? value.join(',')
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
    return [`${fieldFlag(field, facts)} ${shellQuote(text)}`];
  });
  const yes = operation?.writes ? ' --yes' : '';
  // A fiat-gateway call's token comes from the reader's own variable, never from the report.
  const token =
    operation?.facts.auth === 'gateway-token'
      ? `${environmentVariables.gatewayToken}=<the token jwt-token prints> `
      : '';
  return `${token}${environmentVariables.baseUrl}=${shellQuote(origin)} txc ${operation?.name ?? operationId}${flags.length ? ` ${flags.join(' ')}` : ''}${yes} --json`;
}

/**
 * The reproducer of one request as the client sent it (possibly broken on purpose by a test): a
 * txc command for the call a caller would make, and curl for the exact request, signing headers
 * computed in the shell where the sent ones were the right ones, written as sent otherwise.
 */
export async function reproducer(
  context: ContractContext,
  operationId: OperationId,
  sent: SentRequest,
  apiSecret: string | undefined,
): Promise<string> {
  const origin = originFor(context, sent.url);
  const url = `${origin}${new URL(sent.url).pathname}`;
  let fields: Record<string, unknown> = {};
  try {
    fields = sent.body ? (JSON.parse(sent.body) as Record<string, unknown>) : {};
  } catch {
    // not JSON: the txc line carries no fields
  }
  const lines = [`${reproducerHeading} txc:`, `  ${txcLine(operationId, origin, fields)}`];
  // The body as sent, unless it holds a sensitive field: then that field masked (put it back to run it).
  const rules = cliOperations.find((candidate) => candidate.facts.operationId === operationId)?.body;
  const masked = hasSensitive(rules) && Object.keys(fields).length > 0;
  const bodyShown = masked ? JSON.stringify(redactBody(rules, fields)) : sent.body;
  const tokenHeader = (
    cliOperations.find((candidate) => candidate.facts.operationId === operationId)?.facts.tokenHeader ?? ''
  ).toLowerCase();
  const header = (name: string) =>
    Object.entries(sent.headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
  const payloadSent = header(signingHeaders.Payload);
  const signatureSent = header(signingHeaders.Signature);
  const keySent = header(signingHeaders.ApiKey);
  const expected =
    apiSecret && sent.body !== undefined ? await createSigner(apiSecret)(sent.body) : undefined;
  const curl = [`curl -sS -X ${sent.method.toUpperCase()} ${shellQuote(url)}`];
  for (const [name, value] of Object.entries(sent.headers)) {
    const lower = name.toLowerCase();
    if (lower === signingHeaders.ApiKey.toLowerCase()) {
      curl.push(`-H "${signingHeaders.ApiKey}: $${environmentVariables.apiKey}"`);
    } else if (lower === signingHeaders.Payload.toLowerCase()) {
      curl.push(
        value === expected?.payload
          ? `-H "${signingHeaders.Payload}: $PAYLOAD"`
          : `-H ${shellQuote(`${signingHeaders.Payload}: ${value}`)}`,
      );
    } else if (lower === signingHeaders.Signature.toLowerCase()) {
      curl.push(
        value === expected?.signature
          ? `-H "${signingHeaders.Signature}: $SIGNATURE"`
          : `-H ${shellQuote(`${signingHeaders.Signature}: ${value}`)}`,
      );
    } else if (tokenHeader && lower === tokenHeader) {
      curl.push(`-H "${tokenHeader}: $${environmentVariables.gatewayToken}"`);
    } else if (lower === 'content-type' || lower === 'prefer') {
      curl.push(`-H ${shellQuote(`${lower}: ${value}`)}`);
    }
  }
  if (sent.body !== undefined) curl.push(`--data-raw "$BODY"`);
  lines.push(
    `${reproducerHeading} curl (set ${environmentVariables.apiKey}${keySent ? ` (the key sent: ${keySent})` : ''} and ${environmentVariables.apiSecret}; a later call needs a greater nonce in BODY):`,
  );
  if (bodyShown !== undefined)
    lines.push(`  BODY=${shellQuote(bodyShown)}${masked ? '  # masked: put the full value back' : ''}`);
  if (payloadSent !== undefined || signatureSent !== undefined) {
    lines.push(`  PAYLOAD=$(printf '%s' "$BODY" | base64 | tr -d '\\n')`);
    lines.push(
      `  SIGNATURE=$(printf '%s' "$PAYLOAD" | openssl dgst -sha512 -hmac "$${environmentVariables.apiSecret}" | sed 's/^.*= //')`,
    );
  }
  lines.push(`  ${curl.join(' ')}`);
  return lines.join('\n');
}
