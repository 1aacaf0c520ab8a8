// Every subcommand against the sandbox, JSON output parsed and checked against what the client
// itself answers for the same body, or against the sandbox's state for the writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.ts';
import { credentialKey, loadFixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { runProgram } from '../../scripts/run-node.ts';
import { cliOperations } from '../../src/cli/operations.ts';
import { createPrivateClient, type PrivateClient, unwrap } from '../../src/index.ts';
import { cleanEnvironment, credentials, outputs, runTxc, scratchDirectory, writeEnvFile } from './helpers.ts';

const fixture = loadFixture();
const key = credentialKey(fixture);
let sandbox: Sandbox;
let env: Record<string, string>;
let client: PrivateClient;
const scratch = scratchDirectory();

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, strict: true });
  env = credentials(sandbox.url, key);
  client = createPrivateClient({ baseUrl: sandbox.url, apiKey: key.apiKey, apiSecret: key.secret });
});
afterAll(async () => {
  await client?.close();
  await sandbox?.close();
  scratch.remove();
});

const json = async (args: string[], environment = env) => {
  const run = await runTxc(args, environment);
  expect(run.stderr, args.join(' ')).toBe('');
  expect(run.code, args.join(' ')).toBe(0);
  return JSON.parse(run.stdout);
};

const activePlan = () => {
  const plan = fixture.plans.find((candidate) => candidate.status === 'active');
  if (!plan) throw new Error('the fixture has no active plan');
  return plan;
};

describe('txc against the sandbox', () => {
  it('has one subcommand per operation of the documents', () => {
    expect(cliOperations.map((operation) => operation.facts.operationId).sort()).toEqual(
      Object.keys(operations).sort(),
    );
    expect(new Set(cliOperations.map((operation) => operation.name)).size).toBe(cliOperations.length);
  });

  it('ping answers what the service answers', async () => {
    const expected = await (await fetch(`${sandbox.url}${operations.pingApi.path}`)).json();
    expect(await json(['ping'], { TXC_BASE_URL: sandbox.url })).toEqual(expected);
  });

  it('balance prints the balances as JSON when piped, amounts as strings', async () => {
    const output = await json(['balance']);
    expect(output).toEqual(await unwrap(client.POST('/api/v4/main-account/balance')));
    for (const entry of Object.values(output)) {
      expect(typeof (entry as { main_balance: unknown }).main_balance).toBe('string');
    }
    const [ticker] = Object.keys(output);
    expect(await json(['balance', '--ticker', ticker as string, '--json'])).toEqual(
      await unwrap(client.POST('/api/v4/main-account/balance', { body: { ticker: ticker as string } })),
    );
  });

  it('npm run txc runs the sources through tsx, as the txc guide shows', async () => {
    // The other tests run txc as built once (./txc-bundle.setup.ts): this is the path a user takes.
    const run = await runProgram('npm', ['run', '--silent', 'txc', '--', 'balance'], {
      env: { ...cleanEnvironment(), ...env },
    });
    outputs.push(run.stdout, run.stderr);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(await unwrap(client.POST('/api/v4/main-account/balance')));
  });

  it('the operationId works as the subcommand too', async () => {
    expect(await json(['getMainBalance'])).toEqual(await json(['balance']));
  });

  it('history filters by repeated or comma-separated flags, enum names or values', async () => {
    const expected = await unwrap(
      client.POST('/api/v4/main-account/smart-flex/investments/history', {
        body: { actionTypes: [1, 4], limit: 1, offset: 1 },
      }),
    );
    expect(expected.data.length).toBe(1);
    expect(await json(['history', '--action-types', '1,4', '--limit', '1', '--offset', '1'])).toEqual(
      expected,
    );
    expect(
      await json([
        'history',
        '--action-types',
        'INVEST',
        '--action-types',
        'daily_earning',
        '--limit=1',
        '--offset=1',
      ]),
    ).toEqual(expected);
  });

  it('collateral-summary narrows to a ticker', async () => {
    const [item] = sandbox.state.account(key.account).collateral;
    if (!item) throw new Error('the fixture has no collateral');
    const output = await json(['collateral-summary', '--ticker', item.asset]);
    expect(output).toEqual(
      await unwrap(
        client.POST('/api/v4/collateral-account/balance-summary', { body: { ticker: item.asset } }),
      ),
    );
  });

  it('invest with --yes invests exactly once, the amount untouched', async () => {
    const plan = activePlan();
    // More digits than a float holds: through Number it would arrive as the minimum itself.
    const amount = `${plan.minAmount}.000000000000000001`;
    const before = sandbox.state.account(key.account).investments.length;
    const output = await json(['invest', '--plan-id', plan.id, '--amount', amount, '--yes']);
    const investments = sandbox.state.account(key.account).investments;
    expect(investments.length).toBe(before + 1);
    expect(output).toEqual({ id: investments.at(-1)?.id });
    expect(investments.at(-1)).toMatchObject({ planId: plan.id, amount });
  });

  it('cancel-all with --yes cancels the matching orders only', async () => {
    const orders = () => [...sandbox.state.account(key.account).orders.values()];
    const target = orders()[0];
    if (!target) throw new Error('the fixture has no open orders');
    const matches = (order: { market: string; kind: string }) =>
      order.market === target.market && order.kind === target.kind;
    const others = orders().filter((order) => !matches(order));
    const output = await json(['cancel-all', '--market', target.market, '--type', target.kind, '--yes']);
    expect(output).toEqual([]);
    expect(orders()).toEqual(others);
  });

  it('reads credentials and origin from --env-file', async () => {
    const file = writeEnvFile(scratch.dir, env);
    expect(await json(['balance', '--env-file', file], {})).toEqual(
      await unwrap(client.POST('/api/v4/main-account/balance')),
    );
  });

  it('ops lists every operation with its facts', async () => {
    const output = (await json(['ops'])) as {
      command: string;
      operationId: keyof typeof operations;
      rateLimit: object;
      partnerOnly: boolean;
      retrySafe: boolean | { idempotencyKey: string };
      writes: boolean;
    }[];
    expect(output.map((row) => row.operationId).sort()).toEqual(Object.keys(operations).sort());
    for (const row of output) {
      const facts = operations[row.operationId];
      expect(row.rateLimit).toEqual({
        requests: facts.rateLimit.requests,
        windowSeconds: facts.rateLimit.windowSeconds,
      });
      expect(row.partnerOnly).toBe(facts.partnerOnly);
      expect(row.retrySafe).toEqual(facts.retrySafe);
      expect(row.writes).toBe(facts.writes);
    }
  });

  it('never prints the secret', () => {
    expect(outputs.length).toBeGreaterThan(0);
    for (const output of outputs) expect(output).not.toContain(key.secret);
  });
});
