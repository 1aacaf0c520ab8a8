// Every operation of the documents through txc, with no operation named: a local server answers
// each with its first success example, and each subcommand is run with flags written from the
// operation's first request example. What the server receives must be that example (objects and
// lists of objects as JSON flags, booleans with their --no- form, nullable fields as null), and
// what txc prints must be the answer. Most runs go through txc's main in this process; the kinds
// of flag the trading operations added also go through the real binary.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signedBodyFields } from '../../generated/operations.ts';
import { environmentVariables } from '../../model/environment.ts';
import { documentModel } from '../../model/model.ts';
import { fieldFlag, flagName, formOf, takesJson } from '../../src/cli/flags.ts';
import { type CliOperation, cliOperations } from '../../src/cli/operations.ts';
import { json, type LocalServer, sentBody, startLocalServer } from '../client/local-server.ts';
import { credentials, outputs, runTxc, runTxcInProcess } from './helpers.ts';

const model = documentModel();
const signed = new Set<string>(signedBodyFields);
const key = { apiKey: 'txc-every-key', secret: 'txc-every-secret' };
/** The fiat gateway's token, for the operations it authorises (TXC_GATEWAY_TOKEN). */
const gatewayToken = 'txc-every-gateway-token';

/** The first success status and example of an operation: what the local server answers. */
function answerOf(operationId: string): { status: number; body: unknown } {
  const [status, response] = [...model.operation(operationId).responses].find(([code]) => code < 300) ?? [];
  return { status: status ?? 200, body: response?.examples[0]?.value };
}

/**
 * The caller's part of the first request example (without request, nonce, nonceWindow), or of a
 * GET, its parameters' first examples by name.
 */
function exampleBody(operationId: string): Record<string, unknown> {
  const operation = model.operation(operationId);
  const params = operation.parametersExample;
  if (operation.requestExamples.length === 0 && params) return { ...params.path, ...params.query };
  const value = (operation.requestExamples[0]?.value ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(value).filter(([field]) => !signed.has(field)));
}

/** The URL a GET with these parameters goes to: its path filled in, then its query string. */
function urlOf(operationId: string, fields: Record<string, unknown>): string {
  const operation = model.operation(operationId);
  const inPath = (name: string) => operation.parameters.some((p) => p.name === name && p.in === 'path');
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(fields[name])),
  );
  const query = new URLSearchParams(
    Object.entries(fields)
      .filter(([name]) => !inPath(name))
      .map(([name, value]) => [name, String(value)]),
  ).toString();
  return query ? `${path}?${query}` : path;
}

/** The operation a request reaches: its method, and its path matched against each template. */
function operationAt(method: string, url: string): CliOperation | undefined {
  const [path = ''] = url.split('?');
  return cliOperations.find(
    (operation) =>
      operation.facts.method.toUpperCase() === method &&
      new RegExp(`^${operation.facts.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
  );
}

/** The flags that say `body` to txc, written from the field facts as a user would. */
function flagsFor(operation: CliOperation, body: Record<string, unknown>): string[] {
  return Object.entries(body).flatMap(([field, value]) => {
    const facts = operation.body.properties[field];
    if (!facts) throw new Error(`${operation.name}: the example's ${field} is not a body field`);
    const flag = fieldFlag(field, facts);
    if (value === null) return [flag, 'null'];
    if (takesJson(facts)) return [flag, JSON.stringify(value)];
    if (typeof value === 'boolean') return [value ? flag : `--no-${flag.slice(2)}`];
    if (Array.isArray(value)) return [flag, value.join(',')];
    return [flag, String(value)];
  });
}

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer((request, response) => {
    const reached = operationAt(request.method, request.url);
    const answer = reached && answerOf(reached.facts.operationId);
    json(response, answer?.status ?? 404, answer?.body ?? { message: 'no such operation' });
  });
});
afterAll(async () => {
  await server?.close();
});

/** Runs txc's main in this process, with its output captured. */
async function inProcess(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  vi.stubEnv(environmentVariables.apiKey, key.apiKey);
  vi.stubEnv(environmentVariables.apiSecret, key.secret);
  vi.stubEnv(environmentVariables.gatewayToken, gatewayToken);
  try {
    return await runTxcInProcess(args);
  } finally {
    vi.unstubAllEnvs();
  }
}

const argsOf = (operation: CliOperation, body: Record<string, unknown>) => [
  operation.name,
  ...flagsFor(operation, body),
  '--json',
  '--base-url',
  server.url,
  ...(operation.writes ? ['--yes'] : []),
];

describe('txc: every operation of the documents', () => {
  it.each(cliOperations.map((operation) => ({ name: operation.name, operation })))(
    '$name sends its request example and prints the answer',
    async ({ operation }) => {
      const body = exampleBody(operation.facts.operationId);
      const before = server.received.length;
      const run = await inProcess(argsOf(operation, body));
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual(answerOf(operation.facts.operationId).body);
      expect(server.received.length).toBe(before + 1);
      const sent = server.received.at(-1);
      if (operation.facts.auth === 'none') expect(sent?.url).toBe(urlOf(operation.facts.operationId, body));
      if (operation.facts.auth === 'signed' && sent) {
        const { request, nonce, ...caller } = sentBody(sent);
        expect(request).toBe(operation.facts.path);
        expect(nonce).toMatch(/^[0-9]+$/);
        expect(caller).toEqual(body);
      }
      // A fiat-gateway call: the body as it is, unsigned, the token in its header.
      if (operation.facts.auth === 'gateway-token' && sent) {
        expect(sentBody(sent)).toEqual(body);
        expect(sent.headers[String(operation.facts.tokenHeader).toLowerCase()]).toBe(gatewayToken);
      }
    },
  );

  const bulk = cliOperations.find((operation) =>
    Object.values(operation.body.properties).some(
      (facts) => takesJson(facts) && formOf(facts).form.type === 'array',
    ),
  );
  const nullable = cliOperations.find((operation) =>
    Object.values(operation.body.properties).some((facts) => formOf(facts).nullable),
  );

  it('a bad item in a JSON list is refused naming its path and flag, nothing sent', async () => {
    if (!bulk) throw new Error('no operation takes a list of objects');
    const [field, facts] = Object.entries(bulk.body.properties).find(([, each]) => takesJson(each)) ?? [];
    const item = formOf(facts ?? {}).form.items;
    const required = item?.required?.[0];
    if (!field || !required) throw new Error(`${bulk.name}: no required item field`);
    const good = (exampleBody(bulk.facts.operationId)[field] as Record<string, unknown>[])[0];
    const { [required]: _, ...withoutIt } = good ?? {};
    const before = server.received.length;
    const run = await inProcess([
      ...argsOf(bulk, exampleBody(bulk.facts.operationId)),
      flagName(field),
      JSON.stringify([good, withoutIt]),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${field}.1.${required} is required`);
    expect(run.stderr).toContain(`(${flagName(field)})`);
    expect(server.received.length).toBe(before);
  });

  it('--retry exists only where the documents allow a repeat', async () => {
    const never = cliOperations.find((operation) => operation.facts.retrySafe === false);
    if (!never) throw new Error('no operation is never repeated');
    const run = await inProcess([...argsOf(never, exampleBody(never.facts.operationId)), '--retry']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown option '--retry'");
    const byKey = cliOperations.find((operation) => typeof operation.facts.retrySafe === 'object');
    if (!byKey || typeof byKey.facts.retrySafe !== 'object')
      throw new Error('no operation is repeated by key');
    const help = await inProcess([byKey.name, '--help']);
    expect(help.stdout).toContain(`only when ${flagName(byKey.facts.retrySafe.idempotencyKey)} is given`);
  });

  it('the real binary sends a JSON list and a null, and asks before a write', async () => {
    if (!bulk || !nullable) throw new Error('no operation takes a list of objects or a null');
    const env = credentials(server.url, key);
    const bulkBody = exampleBody(bulk.facts.operationId);
    const before = server.received.length;
    const placed = await runTxc(argsOf(bulk, bulkBody), env);
    expect(placed.stderr).toBe('');
    expect(JSON.parse(placed.stdout)).toEqual(answerOf(bulk.facts.operationId).body);
    const [field] =
      Object.entries(nullable.body.properties).find(([, facts]) => formOf(facts).nullable) ?? [];
    if (!field) throw new Error('no nullable field');
    const nullBody = { ...exampleBody(nullable.facts.operationId), [field]: null };
    const cleared = await runTxc(argsOf(nullable, nullBody), env);
    expect(cleared.code, cleared.stderr).toBe(0);
    const sent = server.received.slice(before).map(sentBody);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatchObject(bulkBody);
    expect(sent[1]?.[field]).toBeNull();
    // Without --yes and without a terminal, a write is not sent.
    const unconfirmed = await runTxc(
      argsOf(bulk, bulkBody).filter((arg) => arg !== '--yes'),
      env,
    );
    expect(unconfirmed.code).not.toBe(0);
    expect(server.received.length).toBe(before + 2);
    for (const output of outputs) expect(output).not.toContain(key.secret);
  });
});
