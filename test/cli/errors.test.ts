import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { operations } from '../../generated/operations.ts';
import { environmentVariables } from '../../model/environment.ts';
import { documentModel } from '../../model/model.ts';
import { credentialKey, loadFixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { timeLimits } from '../../scripts/time-limits.ts';
import { exitCodes } from '../../src/cli/exit-codes.ts';
import { fieldFlag, fieldFlags, flagName } from '../../src/cli/flags.ts';
import { cliOperations } from '../../src/cli/operations.ts';
import { type ApiError, createPrivateClient, type PrivateClient } from '../../src/index.ts';
import { guideText } from '../manual.ts';
import { credentials, outputs, runTxc, runTxcInProcess, scratchDirectory } from './helpers.ts';

const fixture = loadFixture();
const key = credentialKey(fixture);
const ordinary = fixture.keys.find((candidate) => !candidate.partner && candidate.enabled !== false);
let sandbox: Sandbox;
let env: Record<string, string>;
let client: PrivateClient;
let tooMany: Server;
let tooManyUrl: string;
const scratch = scratchDirectory();

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  env = credentials(sandbox.url, key);
  client = createPrivateClient({ baseUrl: sandbox.url, apiKey: key.apiKey, apiSecret: key.secret });
  // Answers every call with 429, to see the exit code of a rate-limited call.
  tooMany = createServer((_request, response) => {
    response.writeHead(429, { 'retry-after': '7' }).end();
  });
  await new Promise<void>((resolve) => tooMany.listen(0, '127.0.0.1', resolve));
  tooManyUrl = `http://127.0.0.1:${(tooMany.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await client?.close();
  await sandbox?.close();
  await new Promise((resolve) => tooMany?.close(resolve));
  scratch.remove();
});

const plan = () => {
  const found = fixture.plans.find((candidate) => candidate.status === 'active');
  if (!found) throw new Error('the fixture has no active plan');
  return found;
};

/** The client's own refusal of a body, to compare the CLI's message with. */
async function clientRefusal(path: string, body: object): Promise<ApiError> {
  const result = await (
    client as unknown as { POST(path: string, init: object): Promise<{ error?: ApiError }> }
  ).POST(path, { body });
  if (!result.error) throw new Error('the client accepted the body');
  return result.error;
}

// A usage error is found before anything is sent: most are checked on txc's main() in this
// process (runTxcInProcess, the same program a spawned txc runs, with the environment it would
// have), a process start saved for each. That such an error is the exit code of a process is
// checked on spawned runs: an unknown flag here, a write without a terminal (whose check reads
// the process's own stdin), and the failed calls below.
describe('txc usage errors exit 2', () => {
  it('an unknown flag', async () => {
    const run = await runTxc(['balance', '--no-such-flag'], env);
    expect(run.code).toBe(exitCodes.usage);
    expect(run.stderr).toBe("txc: unknown option '--no-such-flag' (txc --help for usage)\n");
  });

  it(
    "a renamed field's old flag still works, hidden, and is refused beside the new one",
    async () => {
      const renamed = cliOperations.flatMap((operation) =>
        fieldFlags(operation.body).flatMap((flag) => (flag.alias ? [{ operation, flag }] : [])),
      );
      expect(renamed.length).toBeGreaterThan(0);
      for (const { operation, flag } of renamed) {
        const yes = operation.writes ? ['--yes'] : [];
        // The other required fields with their example's values: the renamed one is what is wrong.
        const view = documentModel().operation(operation.facts.operationId);
        const example = (view.requestExamples[0]?.value ?? {
          ...view.parametersExample?.path,
          ...view.parametersExample?.query,
        }) as Record<string, unknown>;
        const others = operation.body.required
          .filter((field) => field !== flag.field && example[field] !== undefined)
          .flatMap((field) => [
            fieldFlag(field, operation.body.properties[field] ?? {}),
            String(example[field]),
          ]);
        // A value the field's check refuses, so nothing is sent: the message names the new flag.
        // '!' breaks a format, a pattern, an enum or a number; text of any kind but empty is
        // refused only when empty.
        const schema = operation.body.properties[flag.field] ?? {};
        const anyText =
          schema.type === 'string' && !schema.format && !schema.pattern && !schema.enum && schema.minLength;
        const refused = anyText ? '' : '!';
        const old = await runTxcInProcess(
          [operation.name, ...others, flag.alias as string, refused, ...yes],
          env,
        );
        expect(old.code, old.stderr).toBe(exitCodes.usage);
        expect(old.stderr).toMatch(
          new RegExp(`^txc: invalid-request: ${flag.field}[ .].*\\(${flag.flag}\\)\n$`),
        );
        const both = await runTxcInProcess(
          [operation.name, ...others, flag.alias as string, refused, flag.flag, refused, ...yes],
          env,
        );
        expect(both.code).toBe(exitCodes.usage);
        expect(both.stderr).toBe(`txc: ${flag.alias} is another name of ${flag.flag}: give one of them\n`);
      }
    },
    timeLimits.processTestMs,
  );

  it('an unknown subcommand: one txc line, with the suggestion on it', async () => {
    const [operation] = cliOperations;
    if (!operation) throw new Error('no operation');
    const misspelt = operation.name.slice(0, -1);
    const run = await runTxcInProcess([misspelt], env);
    expect(run.code).toBe(exitCodes.usage);
    expect(run.stderr.split('\n')).toEqual([expect.stringMatching(/^txc: unknown command /), '']);
    expect(run.stderr).toContain(operation.name);
  });

  it('no subcommand', async () => {
    expect((await runTxcInProcess([], env)).code).toBe(exitCodes.usage);
  });

  it('a bad value gets the message the client gives for the same body field, and the flag', async () => {
    const path = operations.listFlexInvestmentHistory.path;
    const refusal = await clientRefusal(path, { limit: 'ten' });
    const run = await runTxcInProcess(['history', '--limit', 'ten'], env);
    expect(run.code).toBe(exitCodes.usage);
    expect(run.stderr).toContain(refusal.message);
    expect(run.stderr).toContain(flagName('limit'));
    expect(run.stderr.trim().split('\n')).toHaveLength(1);

    const badItem = await clientRefusal(path, { actionTypes: [1, 99] });
    const items = await runTxcInProcess(['history', '--action-types', '1,99'], env);
    expect(items.code).toBe(exitCodes.usage);
    expect(items.stderr).toContain(badItem.message);
  });

  it('a missing required field, before any confirmation', async () => {
    const refusal = await clientRefusal(operations.createFixedInvestment.path, { planId: plan().id });
    const run = await runTxcInProcess(['invest', '--plan-id', plan().id], env);
    expect(run.code).toBe(exitCodes.usage);
    expect(run.stderr).toContain(refusal.message);
    expect(run.stderr).toContain(flagName(refusal.field as string));
  });

  it.each([environmentVariables.apiKey, environmentVariables.apiSecret])('missing %s', async (name) => {
    const { [name]: _missing, ...rest } = env;
    const run = await runTxcInProcess(['balance'], rest);
    expect(run.code).toBe(exitCodes.usage);
    expect(run.stderr).toContain(`${name} is not set`);
    expect(run.stdout).toBe('');
  });

  it('no origin names the variable and flag that set it', async () => {
    const { [environmentVariables.baseUrl]: _missing, ...rest } = env;
    const run = await runTxcInProcess(['balance'], rest);
    expect(run.code).toBe(exitCodes.usage);
    expect(run.stderr).toContain(environmentVariables.baseUrl);
    expect(run.stderr).toContain('--base-url');
  });

  it('a timeout that is not a number names --timeout-ms', async () => {
    const run = await runTxcInProcess(['balance', '--timeout-ms', 'soon'], env);
    expect(run.code).toBe(exitCodes.usage);
    expect(run.stderr).toContain('--timeout-ms');
  });

  it('an env file that cannot be read', async () => {
    const run = await runTxcInProcess(['balance', '--env-file', `${scratch.dir}/missing.env`], {});
    expect(run.code).toBe(exitCodes.usage);
    expect(run.stderr).toContain('--env-file');
  });

  it('the secret as a flag is refused without echoing it', async () => {
    for (const args of [[`--api-secret=${key.secret}`], ['--secret', key.secret]]) {
      const run = await runTxcInProcess(['balance', ...args], env);
      expect(run.code).toBe(exitCodes.usage);
      expect(run.stderr).toContain(environmentVariables.apiSecret);
      expect(run.stdout).toBe('');
    }
  });

  it('a write without a terminal and without --yes sends nothing', async () => {
    const before = structuredClone(sandbox.state.account(key.account).orders);
    const run = await runTxc(['cancel-all'], env);
    expect(run.code).toBe(exitCodes.usage);
    expect(run.stderr).toContain('--yes');
    expect(sandbox.state.account(key.account).orders).toEqual(before);
  });
});

describe('txc failed calls: exit code by kind, one line with kind, status, code and fields', () => {
  it('unauthorized: 3', async () => {
    const run = await runTxc(['balance'], { ...env, [environmentVariables.apiSecret]: 'not-the-secret' });
    expect(run.code).toBe(exitCodes.denied);
    expect(run.stderr).toMatch(/^txc: unauthorized, HTTP 401/);
  });

  it('forbidden (a partner-only operation with an ordinary key): 3', async () => {
    if (!ordinary) throw new Error('the fixture has no ordinary key');
    const run = await runTxc(['history'], credentials(sandbox.url, ordinary));
    expect(run.code).toBe(exitCodes.denied);
    expect(run.stderr).toMatch(/^txc: forbidden, HTTP 403/);
  });

  it('rate limited: 4, with the wait', async () => {
    const run = await runTxc(['balance'], { ...env, [environmentVariables.baseUrl]: tooManyUrl });
    expect(run.code).toBe(exitCodes.rateLimited);
    expect(run.stderr).toMatch(/^txc: rate-limited, HTTP 429.*retry after 7 s/);
  });

  it('server error: 5', async () => {
    sandbox.setFaults({ status5xx: 1, operations: ['getMainBalance'] });
    const run = await runTxc(['balance'], env);
    sandbox.setFaults(undefined);
    expect(run.code).toBe(exitCodes.unavailable);
    expect(run.stderr).toMatch(/^txc: server-error, HTTP 503/);
  });

  it('--retry rides out a server error on a retry-safe operation', async () => {
    sandbox.setFaults({ status5xx: 1, operations: ['getMainBalance'] });
    const faults = sandbox.faults;
    const run = await runTxc(['balance', '--retry'], env);
    sandbox.setFaults(undefined);
    expect(faults.injected.unavailable).toBe(1);
    expect(run.code).toBe(exitCodes.success);
  });

  it('timeout and transport failure: 5', async () => {
    // The sandbox's delay on fake timers: the call is held until txc has given up, however slowly
    // a loaded machine runs txc (the sandbox is in this process, txc in its own).
    sandbox.setFaults({ delayMs: 2000, operations: ['getMainBalance'] });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const slow = await runTxc(['balance', '--timeout-ms', '200'], env).finally(() => vi.useRealTimers());
    sandbox.setFaults(undefined);
    expect(slow.code).toBe(exitCodes.unavailable);
    expect(slow.stderr).toMatch(/^txc: timeout/);
    const closed = await runTxc(['balance'], {
      ...env,
      [environmentVariables.baseUrl]: 'http://127.0.0.1:9',
    });
    expect(closed.code).toBe(exitCodes.unavailable);
    expect(closed.stderr).toMatch(/^txc: transport/);
  });

  it('the service refusing an invest: 1, with kind, status, code and the field with its flag', async () => {
    const body = { planId: plan().id, amount: '0' };
    const refusal = await clientRefusal(operations.createFixedInvestment.path, body);
    const run = await runTxc(['invest', '--plan-id', body.planId, '--amount', body.amount, '--yes'], env);
    expect(run.code).toBe(exitCodes.other);
    const line = run.stderr.trim();
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toContain(`${refusal.kind}, HTTP ${refusal.status}, code ${refusal.code}`);
    const fields = Object.entries(refusal.fieldErrors);
    expect(fields.length).toBeGreaterThan(0);
    for (const [field, messages] of fields) {
      expect(line).toContain(`${field} (${flagName(field)}): ${messages.join(' ')}`);
    }
  });
});

/**
 * A flag's own help: its text up to the next flag outside a bracket. Inside its bracket of facts
 * another flag may be named (`[boolean; --no-hedge-mode sends false; required]`).
 */
function ownHelp(help: string): string {
  let depth = 0;
  for (let index = 2; index < help.length; index++) {
    const char = help[index];
    if (char === '[') depth++;
    else if (char === ']') depth = Math.max(0, depth - 1);
    else if (depth === 0 && help.startsWith(' --', index)) return help.slice(0, index);
  }
  return help;
}

describe('txc --help', () => {
  it('lists every subcommand and the exit codes', async () => {
    const run = await runTxc(['--help']);
    expect(run.code).toBe(exitCodes.success);
    for (const operation of cliOperations) expect(run.stdout).toContain(operation.name);
    expect(run.stdout).toContain(`${exitCodes.rateLimited} rate limited`);
  });

  it.each(cliOperations.map((operation) => [operation.name, operation] as const))(
    '%s --help shows every body field as a flag with its description',
    async (name, operation) => {
      // In this process: the same program, without a process start for each of 64 subcommands.
      const run = await runTxcInProcess([name, '--help']);
      expect(run.code).toBe(exitCodes.success);
      const text = run.stdout.replace(/\s+/g, ' ');
      for (const [field, facts] of Object.entries(operation.body.properties)) {
        expect(text).toContain(`${fieldFlag(field, facts)} `);
        if (facts.description) expect(text).toContain(facts.description.replace(/\s+/g, ' '));
      }
      for (const field of operation.body.required) {
        const help = text.slice(text.indexOf(`${fieldFlag(field, operation.body.properties[field] ?? {})} `));
        expect(ownHelp(help)).toContain('required]');
      }
      expect(text).toContain(`${operation.facts.rateLimit.requests} requests per`);
    },
  );
});

describe('the txc guide', () => {
  it('documents every exit code', () => {
    const guide = guideText('txc');
    const section = guide.slice(guide.indexOf('| exit code | when |'));
    const documented = [...section.matchAll(/^\| (\d+) \|/gm)].map((match) => Number(match[1]));
    expect(documented.sort()).toEqual(Object.values(exitCodes).sort());
  });
});

// The fiat gateway's call: its token from TXC_GATEWAY_TOKEN (never a flag), never printed; the
// card number never printed whole. In this process, against the file's sandbox.
describe('txc card-token', () => {
  const cardNumber = '4111111111111111';
  const issued = async () => {
    const result = await client.POST('/api/v4/jwt');
    if (result.error) throw result.error;
    return result.data.data.token;
  };

  it('sends the gateway token from TXC_GATEWAY_TOKEN and prints the card token', async () => {
    const token = await issued();
    const run = await runTxcInProcess(['card-token', '--card-number', cardNumber, '--yes', '--json'], {
      ...env,
      [environmentVariables.gatewayToken]: token,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(exitCodes.success);
    expect(JSON.parse(run.stdout)).toEqual({ data: { token: expect.stringMatching(/^ct_/) } });
    expect(run.stdout + run.stderr).not.toContain(token);
  });

  it('refuses to run without TXC_GATEWAY_TOKEN, naming it, and takes no token flag', async () => {
    const run = await runTxcInProcess(['card-token', '--card-number', cardNumber, '--yes'], env);
    expect(run.code).toBe(exitCodes.usage);
    expect(run.stderr).toContain(environmentVariables.gatewayToken);
    const flag = await runTxcInProcess(
      ['card-token', '--card-number', cardNumber, '--yes', '--gateway-token', 'x'],
      env,
    );
    expect(flag.code).toBe(exitCodes.usage);
  });

  it('exits as unauthorized for a token the sandbox never issued, without printing it or the card', async () => {
    const forged = 'forged-gateway-token-value';
    const run = await runTxcInProcess(['card-token', '--card-number', cardNumber, '--yes'], {
      ...env,
      [environmentVariables.gatewayToken]: forged,
    });
    expect(run.code).toBe(exitCodes.denied);
    expect(run.stdout + run.stderr).not.toContain(forged);
    expect(run.stdout + run.stderr).not.toContain(cardNumber);
  });

  it('shows a card number of the wrong form by its last four digits only', async () => {
    const run = await runTxcInProcess(['card-token', '--card-number', '4111111111111112', '--yes'], {
      ...env,
      [environmentVariables.gatewayToken]: await issued(),
    });
    expect(run.code).not.toBe(exitCodes.success);
    expect(run.stderr).toMatch(/cardNumber/);
    expect(run.stdout + run.stderr).not.toContain('4111111111111112');
  });
});

describe('txc output', () => {
  it('never printed the secret', () => {
    expect(outputs.length).toBeGreaterThan(10);
    for (const output of outputs) expect(output).not.toContain(key.secret);
  });
});
