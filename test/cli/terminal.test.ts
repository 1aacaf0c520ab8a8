// txc in a real terminal (tmux): a write asks for confirmation showing what it will send and
// sends nothing until "y"; a read prints a table with balances aligned on the decimal point,
// dates in ISO 8601 and action types by name. txc is the one built for the tests
// (./txc-bundle.setup.ts): the terminal sees the same program, started by plain node.
// The tests run their own tmux server (its own socket), killed at the end with the sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialKey, loadFixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { cliOperations } from '../../src/cli/operations.ts';
import { createPrivateClient, unwrap } from '../../src/index.ts';
import { credentials, scratchDirectory, writeEnvFile } from './helpers.ts';
import { startTmux, type Tmux } from './tmux.ts';

const fixture = loadFixture();
const key = credentialKey(fixture);
// The tmux server's socket lives in the scratch directory, removed with it.
const scratch = scratchDirectory();
let terminal: Tmux;
let sandbox: Sandbox;
let envFile: string;
let partnerEnvFile: string;
// A partner key whose account has history records (the history is partner-only).
const partner = fixture.keys.find(
  (candidate) =>
    candidate.partner &&
    (fixture.accounts.find((account) => account.id === candidate.account)?.history?.length ?? 0) > 1,
);

const startTxc = (...args: Parameters<Tmux['startTxc']>) => terminal.startTxc(...args);
const waitForExit = (session: string) => terminal.waitForExit(session);
const waitFor = (session: string, pattern: RegExp) => terminal.waitFor(session, pattern);
const tmux = (...args: string[]) => terminal.tmux(...args);
const joinedLines = (session: string) => terminal.joinedLines(session);

beforeAll(async () => {
  terminal = await startTmux(scratch.dir);
  sandbox = await startSandbox({ port: 0, strict: true });
  envFile = writeEnvFile(scratch.dir, credentials(sandbox.url, key));
  if (!partner) throw new Error('the fixture has no partner key with history');
  partnerEnvFile = writeEnvFile(scratch.dir, credentials(sandbox.url, partner), 'partner.env');
});
afterAll(async () => {
  await terminal?.kill();
  await sandbox?.close();
  scratch.remove();
});

describe('txc in a terminal', () => {
  it('cancel-all shows what it will send, sends nothing when declined, and cancels on "y"', async () => {
    const orders = () => [...sandbox.state.account(key.account).orders.values()];
    const [first] = orders();
    if (!first) throw new Error('the fixture has no open orders');
    const market = first.market;
    const before = structuredClone(orders());

    await startTxc('decline', ['cancel-all', '--market', market, '--env-file', envFile]);
    const prompt = await waitFor('decline', /Send it\? \[y\/N\]/);
    expect(prompt).toContain(`${sandbox.url}/api/v4/order/cancel/all`);
    expect(prompt).toContain(JSON.stringify({ market }));
    expect(prompt).toContain(key.apiKey);
    expect(prompt).not.toContain(key.secret);
    await tmux('send-keys', '-t', 'decline', 'n', 'Enter');
    expect(await waitForExit('decline')).toContain('[exit 1]');
    expect(orders()).toEqual(before);

    await startTxc('accept', ['cancel-all', '--market', market, '--env-file', envFile]);
    await waitFor('accept', /Send it\? \[y\/N\]/);
    expect(orders()).toEqual(before);
    await tmux('send-keys', '-t', 'accept', 'y', 'Enter');
    const done = await waitForExit('accept');
    expect(done).toContain('[exit 0]');
    // It says what it did: an empty answer is not printed as "(none)".
    const summary = cliOperations.find((operation) => operation.name === 'cancel-all')?.facts.summary ?? '';
    expect(done).toContain(`Done: ${summary.toLowerCase()} (${JSON.stringify({ market })})`);
    expect(done).not.toContain('(none)');
    expect(done).not.toContain(key.secret);
    expect(orders()).toEqual(before.filter((order) => order.market !== market));
  });

  it('history --help and invest --help name the plan by one flag, from the documents', async () => {
    // The operations whose body has a field that $refs PlanId, whatever its wire name.
    const withPlan = cliOperations.filter((operation) =>
      Object.values(operation.body.properties).some((facts) => facts.cliFlag === 'plan-id'),
    );
    expect(withPlan.map((operation) => operation.name).sort()).toEqual([
      'flex-auto-reinvest',
      'flex-close',
      'flex-invest',
      'flex-investments',
      'flex-payments',
      'flex-withdraw',
      'history',
      'interest-payments',
      'invest',
    ]);
    // Each spelling of the field (planId, plan) once: one process a spelling is enough.
    for (const operation of withPlan.filter((candidate) => ['history', 'invest'].includes(candidate.name))) {
      await startTxc(`help-${operation.name}`, [operation.name, '--help'], 100);
      const text = await waitForExit(`help-${operation.name}`);
      expect(text).toContain('[exit 0]');
      expect(text).toMatch(/^ {2}--plan-id <uuid> /m);
      // The old spelling works but is not offered.
      expect(text).not.toMatch(/--plan </);
    }
  });

  it('an unknown option is one txc: line on the terminal', async () => {
    await startTxc('unknown', ['balance', '--no-such-flag', '--env-file', envFile]);
    const text = await waitForExit('unknown');
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toEqual(["txc: unknown option '--no-such-flag' (txc --help for usage)", '[exit 2]']);
  });

  it('balance prints a table aligned on the decimal point, amounts as the service sent them', async () => {
    const client = createPrivateClient({ baseUrl: sandbox.url, apiKey: key.apiKey, apiSecret: key.secret });
    const balances = (await unwrap(client.POST('/api/v4/main-account/balance'))) as Record<
      string,
      { main_balance: string }
    >;
    await client.close();
    const tickers = Object.keys(balances);
    expect(tickers.length).toBeGreaterThan(1);

    await startTxc('balance', ['balance', '--env-file', envFile]);
    const text = await waitForExit('balance');
    expect(text).toContain('[exit 0]');
    expect(text).not.toContain('{');
    const lines = text.split('\n');
    const points: number[] = [];
    for (const ticker of tickers) {
      const amount = balances[ticker]?.main_balance as string;
      const line = lines.find((candidate) => candidate.startsWith(`${ticker} `));
      expect(line, ticker).toBeDefined();
      expect(line?.trim().split(/\s+/)).toEqual([ticker, amount]);
      const column = (line as string).indexOf(amount);
      points.push(column + (amount.includes('.') ? amount.indexOf('.') : amount.length));
    }
    expect(new Set(points).size).toBe(1);
  });

  it('history shows ISO dates and action type names; --json keeps the numbers', async () => {
    const records = sandbox.state.account(partner?.account as string).history;
    expect(records.length).toBeGreaterThan(1);
    // The names the history's --action-types flag takes, from the request schema.
    const actionType = cliOperations.flatMap(
      (operation) => operation.body.properties.actionTypes?.items ?? [],
    )[0];
    const names = new Map(
      (actionType?.enum ?? []).map((value, index) => [value, actionType?.enumNames?.[index]] as const),
    );
    expect(names.size).toBeGreaterThan(0);

    await startTxc('history', ['history', '--env-file', partnerEnvFile], 240);
    const text = await waitForExit('history');
    expect(text).toContain('[exit 0]');
    for (const record of records) {
      const line = text.split('\n').find((candidate) => candidate.includes(record.transaction_id));
      expect(line, record.transaction_id).toBeDefined();
      const cells = line?.trim().split(/\s+/) ?? [];
      expect(cells).toContain(new Date(record.createdAt * 1000).toISOString().replace('.000Z', 'Z'));
      expect(cells).toContain(names.get(record.actionType));
      expect(cells).toContain(record.amount);
      expect(cells).not.toContain(String(record.createdAt));
      expect(cells).not.toContain(String(record.actionType));
    }

    await startTxc('history-json', ['history', '--json', '--env-file', partnerEnvFile], 240);
    const json = await waitForExit('history-json');
    expect(json).toContain('[exit 0]');
    const [first] = records;
    expect(json).toContain(`"createdAt": ${first?.createdAt}`);
    expect(json).toContain(`"actionType": ${first?.actionType}`);
  });

  it('tables fit the width of the terminal: text cut with an ellipsis, then key/value lines', async () => {
    const records = sandbox.state.account(partner?.account as string).history;
    for (const [session, width] of [
      ['narrow', 100],
      ['narrowest', 50],
    ] as const) {
      await startTxc(session, ['history', '--env-file', partnerEnvFile], width);
      expect(await waitForExit(session)).toContain('[exit 0]');
      const lines = await joinedLines(session);
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(width);
      expect(lines.some((line) => line.includes('…'))).toBe(true);
      for (const record of records) expect(lines.join('\n')).not.toContain(record.transaction_id);
      const amounts = lines.flatMap((line) => line.trim().split(/\s+/));
      for (const record of records) expect(amounts).toContain(record.amount);
    }
    // At 50 columns each record is a list of `key  value` lines.
    const listed = await joinedLines('narrowest');
    expect(listed.filter((line) => /^createdAt\s+\d{4}-/.test(line))).toHaveLength(records.length);
  });

  it('ops fits 140 columns without wrapping', async () => {
    // Tall enough for every subcommand, its header and the exit line: none scrolls out of sight.
    await startTxc('ops', ['ops'], 140, cliOperations.length + 10);
    expect(await waitForExit('ops')).toContain('[exit 0]');
    const lines = await joinedLines('ops');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(140);
    for (const operation of cliOperations) {
      expect(lines.some((line) => line.startsWith(`${operation.name} `))).toBe(true);
    }
  });
});
