// Sub-accounts against the sandbox, through the real client: one made has books of its own in
// the one ledger; a change shows in the list; a transfer is one balanced entry between the two
// main balances, in the history under the id it answered, and never makes money; a blocked
// sub-account neither receives nor sends and shows blocked, until unblocked; a deleted one is
// gone from every call, and what it held stays inside the exchange; another account cannot reach
// it; with retries on, a transfer whose answer was lost is not sent again. After each change the
// ledger is balanced and the sum over all accounts and houses but the outside is as it was.
// Amounts are checked with the tests' own arithmetic (helpers.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { createPrivateClient, type PrivateClient, unwrap } from '../../src/index.ts';
import { heldInside } from './held-inside.ts';
import { decimalText, defaultFixture, documentOf, findKey, present, units } from './helpers.ts';

const fixture = defaultFixture();
const parentKey = findKey(fixture, (key) => key.account === 'partner' && key.enabled !== false);
const strangerKey = findKey(fixture, (key) => key.account === 'trader' && key.enabled !== false);
const transferDoc = documentOf('transferToSubAccount');
const statuses = documentOf('listSubAccounts').object['x-sub-account-statuses'] as {
  active: string;
  blocked: string;
};

describe('sub-accounts: their own books in the one ledger', () => {
  let sandbox: Sandbox | undefined;
  const clients: PrivateClient[] = [];
  const started = () => present(sandbox, 'the sandbox starts in beforeAll');
  let parent: PrivateClient;
  let stranger: PrivateClient;
  let inside: Map<string, bigint>;
  let id = '';

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, strict: true, fixture });
    for (const key of [parentKey, strangerKey])
      clients.push(
        createPrivateClient({ apiKey: key.apiKey, apiSecret: key.secret, baseUrl: started().url }),
      );
    [parent, stranger] = clients as [PrivateClient, PrivateClient];
    inside = heldInside(started());
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await sandbox?.close();
    expect(sandbox?.violations).toEqual([]);
  });

  const reconciled = () => {
    expect(started().state.ledger.imbalance(started().state.accounts.values())).toEqual({});
    expect(heldInside(started())).toEqual(inside);
  };
  const listed = async (alias: string) =>
    (
      await unwrap(parent.POST('/api/v4/sub-account/list', { body: { search: alias, limit: 100 } }))
    ).data.find((sub) => sub.id === id);
  const mainOf = async (ticker: string) =>
    units(
      (await unwrap(parent.POST('/api/v4/main-account/balance', { body: { ticker } })))
        .main_balance as string,
    );
  const subMainOf = async (ticker: string) => {
    const balances = await unwrap(parent.POST('/api/v4/sub-account/balances', { body: { id, ticker } }));
    return units(present(balances[ticker]?.[0], ticker).main);
  };
  const move = (direction: 'main_to_sub' | 'sub_to_main', amount: string) =>
    parent.POST('/api/v4/sub-account/transfer', { body: { id, direction, amount, ticker: 'USDT' } });

  it('a sub-account made is listed, active, with empty books of its own', async () => {
    const made = await unwrap(
      parent.POST('/api/v4/sub-account/create', {
        body: {
          alias: 'desk_three',
          email: 'desk3@example.com',
          permissions: { spotEnabled: true, collateralEnabled: false },
        },
      }),
    );
    id = made.id;
    expect(made).toMatchObject({ alias: 'desk_three', status: statuses.active, email: 'd***@example.com' });
    expect(await listed('DESK_THREE')).toEqual(made);
    const balances = await unwrap(parent.POST('/api/v4/sub-account/balances', { body: { id } }));
    expect(Object.keys(balances).sort()).toEqual(Object.keys(fixture.assets).sort());
    for (const [ticker, [row]] of Object.entries(balances))
      expect(row, ticker).toEqual({ main: '0', spot: '0', collateral: '0' });
    expect(started().state.account(id).ledger).toBe(started().state.ledger);
    reconciled();
  });

  it('an edit shows in the list; an alias another sub-account has is refused', async () => {
    await unwrap(
      parent.POST('/api/v4/sub-account/edit', {
        body: { id, alias: 'desk_3', permissions: { spotEnabled: false, collateralEnabled: true } },
      }),
    );
    expect(await listed('desk_3')).toMatchObject({
      alias: 'desk_3',
      permissions: { spotEnabled: false, collateralEnabled: true },
    });
    const seededAlias = present(
      fixture.accounts.find((a) => a.subAccount?.parent === 'partner')?.subAccount,
      'a seeded sub-account',
    ).alias;
    const taken = await parent.POST('/api/v4/sub-account/edit', {
      body: { id, alias: seededAlias, permissions: { spotEnabled: true, collateralEnabled: true } },
    });
    expect(taken.error?.body).toEqual(documentOf('editSubAccount').example('aliasTaken').value);
    expect(await listed('desk_3')).toMatchObject({ alias: 'desk_3' });
  });

  it('a transfer is one balanced entry between the two main balances, listed under its id', async () => {
    const before = {
      main: await mainOf('USDT'),
      sub: await subMainOf('USDT'),
      entries: started().state.ledger.entries,
    };
    const out = await unwrap(move('main_to_sub', '30.5'));
    expect(started().state.ledger.entries).toBe(before.entries + 1);
    expect(await mainOf('USDT')).toBe(before.main - units('30.5'));
    expect(await subMainOf('USDT')).toBe(before.sub + units('30.5'));
    const back = await unwrap(move('sub_to_main', '0.5'));
    expect(await mainOf('USDT')).toBe(before.main - units('30'));
    expect(await subMainOf('USDT')).toBe(before.sub + units('30'));
    const history = await unwrap(parent.POST('/api/v4/sub-account/transfer/history', { body: { id } }));
    expect(history.data.map((row) => [row.transaction_id, row.direction, row.amount, row.currency])).toEqual([
      [back.transaction_id, 'sub_to_main', '0.5', 'USDT'],
      [out.transaction_id, 'main_to_sub', '30.5', 'USDT'],
    ]);
    const toSubOnly = await unwrap(
      parent.POST('/api/v4/sub-account/transfer/history', { body: { id, direction: 'main_to_sub' } }),
    );
    expect(toSubOnly.data.map((row) => row.transaction_id)).toEqual([out.transaction_id]);
    reconciled();
  });

  it('more than the source holds is refused with what it holds, and nothing moves', async () => {
    const held = await subMainOf('USDT');
    const before = started().state.snapshot();
    const refused = await move('sub_to_main', decimalText(held + 1n));
    expect(refused.error?.status).toBe(transferDoc.example('notEnoughBalance').status);
    expect(refused.error?.body).toMatchObject({
      code: 0,
      errors: { amount: [expect.stringContaining(decimalText(held))] },
    });
    expect(started().state.snapshot()).toEqual(before);
  });

  it('a blocked sub-account shows blocked and neither receives nor sends, until unblocked', async () => {
    await unwrap(parent.POST('/api/v4/sub-account/block', { body: { id } }));
    expect(await listed('desk_3')).toMatchObject({ status: statuses.blocked });
    const before = started().state.snapshot();
    for (const direction of ['main_to_sub', 'sub_to_main'] as const) {
      const refused = await move(direction, '1');
      expect(refused.error?.status, direction).toBe(transferDoc.example('subAccountBlocked').status);
      expect(refused.error?.body, direction).toEqual(transferDoc.example('subAccountBlocked').value);
    }
    expect(started().state.snapshot()).toEqual(before);
    await unwrap(parent.POST('/api/v4/sub-account/unblock', { body: { id } }));
    expect(await listed('desk_3')).toMatchObject({ status: statuses.active });
    const sub = await subMainOf('USDT');
    await unwrap(move('sub_to_main', '1'));
    expect(await subMainOf('USDT')).toBe(sub - units('1'));
    reconciled();
  });

  it('with retries on, a transfer whose answer was lost moves once: the client does not send it again', async () => {
    const retrying = createPrivateClient({
      apiKey: parentKey.apiKey,
      apiSecret: parentKey.secret,
      baseUrl: started().url,
      retry: true,
    });
    clients.push(retrying);
    const before = { main: await mainOf('USDT'), sub: await subMainOf('USDT') };
    started().setFaults({ dropConnections: 1, dropPhase: 'after', operations: ['transferToSubAccount'] });
    try {
      const lost = await retrying.POST('/api/v4/sub-account/transfer', {
        body: { id, direction: 'main_to_sub', amount: '2', ticker: 'USDT' },
      });
      expect(lost.error?.kind).toBeDefined();
      expect(started().faults.injected.dropped).toBe(1);
    } finally {
      started().setFaults();
    }
    expect(await mainOf('USDT')).toBe(before.main - units('2'));
    expect(await subMainOf('USDT')).toBe(before.sub + units('2'));
    const history = await unwrap(
      parent.POST('/api/v4/sub-account/transfer/history', { body: { id, limit: 1 } }),
    );
    expect(history.data[0]).toMatchObject({ direction: 'main_to_sub', amount: '2' });
    reconciled();
  });

  it('another account cannot reach the sub-account', async () => {
    const before = started().state.snapshot();
    const refused = await stranger.POST('/api/v4/sub-account/transfer', {
      body: { id, direction: 'sub_to_main', amount: '1', ticker: 'USDT' },
    });
    expect(refused.error?.body).toEqual(transferDoc.example('subAccountNotFound').value);
    const blocked = await stranger.POST('/api/v4/sub-account/block', { body: { id } });
    expect(blocked.error?.body).toEqual(documentOf('blockSubAccount').example('subAccountNotFound').value);
    expect(started().state.snapshot()).toEqual(before);
  });

  it('a deleted sub-account is gone from every call; what it held stays inside', async () => {
    const held = await subMainOf('USDT');
    expect(held).toBeGreaterThan(0n);
    await unwrap(parent.POST('/api/v4/sub-account/delete', { body: { id } }));
    expect(await listed('desk_3')).toBeUndefined();
    const again = await parent.POST('/api/v4/sub-account/delete', { body: { id } });
    expect(again.error?.body).toEqual(documentOf('deleteSubAccount').example('subAccountNotFound').value);
    const balances = await parent.POST('/api/v4/sub-account/balances', { body: { id } });
    expect(balances.error?.body).toEqual(
      documentOf('getSubAccountBalances').example('subAccountNotFound').value,
    );
    expect(units(started().state.account(id).main.get('USDT') ?? '0')).toBe(held);
    reconciled();
  });
});
