// Runs one operation from its parsed flags: builds the body, checks it with the client's own
// validation before anything else (so a bad flag never reaches a confirmation prompt), asks
// before a write, calls, and prints the answer or a one-line error. Returns the exit code.

import { callByPath } from '../client.ts';
import { type ApiError, type CallResult, createPrivateClient, createPublicClient } from '../index.ts';
import { checkBody, redactBody } from '../request-checks.ts';
import type { DriftEvent } from '../validation-options.ts';
import { confirmWrite } from './confirm.ts';
import { type ConnectionFlags, clientOptions, gatewayToken, privateClientOptions } from './connection.ts';
import { exitCodeOf, exitCodes } from './exit-codes.ts';
import { bodyFrom, type FieldFlag, flagOfField } from './flags.ts';
import { type CliOperation, paramsOf } from './operations.ts';
import { driftLines } from './output/drift-lines.ts';
import { errorLine } from './output/error-line.ts';
import { wantsJson, writeAnswer } from './output/write.ts';

export interface OperationFlags extends ConnectionFlags {
  json?: boolean;
  yes?: boolean;
}

const isEmptyAnswer = (data: unknown): boolean =>
  data === undefined ||
  data === null ||
  (Array.isArray(data) && data.length === 0) ||
  (typeof data === 'object' && Object.keys(data as object).length === 0);

// The path comes from the facts at run time, so the clients' per-path signatures cannot apply.
export async function runOperation(
  operation: CliOperation,
  flags: readonly FieldFlag[],
  values: OperationFlags & Record<string, unknown>,
  attributeOf: (flag: FieldFlag) => string,
): Promise<number> {
  const { facts } = operation;
  const flagOf = (field: string) => flagOfField(flags, field);
  const body = bodyFrom(flags, values, attributeOf);
  const violation = checkBody(operation.body, body);
  if (violation) {
    const flag = flagOf(violation.field);
    process.stderr.write(`txc: invalid-request: ${violation.message}${flag ? ` (${flag})` : ''}\n`);
    return exitCodes.usage;
  }

  let result: CallResult<unknown, unknown>;
  const drifts: DriftEvent[] = [];
  const validate = values.validate
    ? { validate: { onDrift: (event: DriftEvent) => drifts.push(event) } }
    : {};
  if (facts.auth === 'none') {
    const client = createPublicClient({ ...clientOptions(values), ...validate });
    try {
      result = await callByPath(client, facts.path, undefined, paramsOf(facts, body));
    } finally {
      await client.close();
    }
  } else {
    // A fiat-gateway call carries the gateway's token instead of a signature: read before anything.
    const token = facts.auth === 'gateway-token' ? { gatewayToken: gatewayToken(values) } : undefined;
    const options = { ...privateClientOptions(values), ...validate };
    const client = createPrivateClient(options);
    try {
      if (operation.writes) {
        const own = facts.servers?.[0];
        const where = String(
          client.options.baseUrl ??
            (own ? `the ${own.name} server` : `the ${String(client.options.server ?? 'global')} server`),
        );
        const confirmed = await confirmWrite(
          {
            command: operation.name,
            method: facts.method,
            url: `${where.replace(/\/$/, '')}${facts.path}`,
            apiKey: options.apiKey,
            body: redactBody(operation.body, body),
            retrySafe: facts.retrySafe,
          },
          values.yes === true,
        );
        if (!confirmed) {
          process.stderr.write('txc: not confirmed; nothing was sent\n');
          return exitCodes.other;
        }
      }
      result = await callByPath(client, facts.path, body, undefined, token);
    } finally {
      await client.close();
    }
  }

  // Drift is reported whatever the answer meant: an error answer can drift too.
  for (const line of driftLines(drifts)) process.stderr.write(`${line}\n`);
  if (result.error) {
    const error = result.error as ApiError;
    process.stderr.write(`${errorLine(error, flagOf)}\n`);
    return exitCodeOf(error.kind);
  }
  const json = wantsJson(values.json);
  // A write whose answer holds nothing (an empty list reads as "nothing was done") says what it did.
  if (!json && operation.writes && isEmptyAnswer(result.data)) {
    process.stdout.write(
      `Done: ${facts.summary.toLowerCase()} (${JSON.stringify(redactBody(operation.body, body))}); the service answered HTTP ${result.response.status} with nothing more.\n`,
    );
    return drifts.length > 0 ? exitCodes.other : exitCodes.success;
  }
  writeAnswer(result.data, json, facts.operationId);
  return drifts.length > 0 ? exitCodes.other : exitCodes.success;
}
