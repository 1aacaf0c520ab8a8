// Sub-accounts' withdrawals waiting for the main account's confirmation, and a sub-account's
// verification link, against one sandbox through the real client: the list shows the fixture's
// waiting withdrawals newest first; confirming one takes it off the list and out of the
// sub-account's main balance at once (the withdrawal is on its way inside the exchange, so the
// ledger stays balanced and nothing leaves it yet); a second confirmation, another account's and
// one the balance does not cover are refused with the documents' examples and change nothing,
// until money moved to the sub-account covers it. The link is given for an active sub-account and
// refused, as the documents' examples, for a blocked, a KYC-sharing or an unknown one. Amounts are
// checked with the tests' own arithmetic (helpers.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureSubAccountWithdrawal } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { createPrivateClient, type PrivateClient, unwrap } from '../../src/index.ts';
import { heldInside } from './held-inside.ts';
import { decimalText, defaultFixture, documentOf, findKey, present, units } from './helpers.ts';

const fixture = defaultFixture();
const parentKey = findKey(fixture, (key) => key.account === 'partner' && key.enabled !== false);
const strangerKey = findKey(fixture, (key) => key.account === 'trader' && key.enabled !== false);
const refusal = (name: string) => documentOf('confirmSubAccountWithdrawal').example(name);
const kycRefusal = (name: string) => documentOf('getSubAccountKycUrl').example(name);

/** The parent's sub-accounts with their waiting withdrawals, from the fixture. */
const waiting = fixture.accounts.flatMap((account) =>
  account.subAccount?.parent === parentKey.account
    ? (account.subAccount.unconfirmedWithdrawals ?? []).map((withdrawal) => ({
        account,
        withdrawal,
      }))
    : [],
);
/** The fixture's waiting withdrawal that its sub-account's main balance covers, and one it does not. */
const coveredBy = (held: string | undefined, withdrawal: FixtureSubAccountWithdrawal) =>
  units(held ?? '0') >= units(withdrawal.amount);
const covered = present(
  waiting.find(({ account, withdrawal }) => coveredBy(account.mainBalances?.[withdrawal.ticker], withdrawal)),
  'a covered waiting withdrawal',
);
const uncovered = present(
  waiting.find(
    ({ account, withdrawal }) => !coveredBy(account.mainBalances?.[withdrawal.ticker], withdrawal),
  ),
  'an uncovered waiting withdrawal',
);

// One sandbox for the file: the suites run in order, each on what the one before left.
let sandbox: Sandbox | undefined;
const clients: PrivateClient[] = [];
let parent: PrivateClient;
let stranger: PrivateClient;
const started = () => present(sandbox, 'the sandbox starts in beforeAll');

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, strict: true, fixture });
  for (const key of [parentKey, strangerKey])
    clients.push(createPrivateClient({ apiKey: key.apiKey, apiSecret: key.secret, baseUrl: started().url }));
  [parent, stranger] = clients as [PrivateClient, PrivateClient];
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await sandbox?.close();
  expect(sandbox?.violations).toEqual([]);
});

describe("sub-accounts' withdrawals waiting for confirmation", () => {
  const listed = async (subAccountId?: string) =>
    (
      await unwrap(
        parent.POST('/api/v4/sub-account/withdraw/unconfirmed-list', {
          body: subAccountId === undefined ? {} : { subAccountId },
        }),
      )
    ).data.map((row) => row.id);
  const subMainOf = async (id: string, ticker: string) => {
    const balances = await unwrap(parent.POST('/api/v4/sub-account/balances', { body: { id, ticker } }));
    return units(present(balances[ticker]?.[0]?.main, `${ticker} of ${id}`));
  };
  const confirm = (client: PrivateClient, id: string) =>
    client.POST('/api/v4/sub-account/withdraw/confirm', { body: { id } });
  const balanced = () =>
    expect(started().state.ledger.imbalance(started().state.accounts.values())).toEqual({});

  it("lists the fixture's waiting withdrawals newest first, of one sub-account when asked", async () => {
    const newestFirst = [...waiting]
      .sort((a, b) => b.withdrawal.createdAt - a.withdrawal.createdAt)
      .map(({ withdrawal }) => withdrawal.id);
    expect(newestFirst.length).toBeGreaterThan(1);
    expect(await listed()).toEqual(newestFirst);
    expect(await listed(covered.account.id)).toEqual(
      waiting
        .filter(({ account }) => account.id === covered.account.id)
        .map(({ withdrawal }) => withdrawal.id),
    );
    // Another account's list does not show them.
    const theirs = await unwrap(stranger.POST('/api/v4/sub-account/withdraw/unconfirmed-list', { body: {} }));
    expect(theirs.data).toEqual([]);
  });

  it('another account cannot confirm one: refused, still waiting', async () => {
    const { error } = await confirm(stranger, covered.withdrawal.id);
    const expected = refusal('withdrawalNotFound');
    expect(error?.status).toBe(expected.status);
    expect(error?.body).toEqual(expected.value);
    expect(await listed()).toContain(covered.withdrawal.id);
  });

  it('confirming takes it off the list and out of the balance at once; a second time is refused', async () => {
    const { id, ticker, amount } = covered.withdrawal;
    const before = await subMainOf(covered.account.id, ticker);
    const inside = heldInside(started());
    expect(await unwrap(confirm(parent, id))).toEqual({});
    expect(await listed()).not.toContain(id);
    expect(await subMainOf(covered.account.id, ticker)).toBe(before - units(amount));
    // On its way: still inside the exchange, on the sub-account's history under its id.
    expect(heldInside(started())).toEqual(inside);
    const row = started()
      .state.account(covered.account.id)
      .transactions.find((candidate) => candidate.uniqueId === id);
    expect(row).toMatchObject({
      method: 'withdrawal',
      ticker,
      state: 'pending',
      gross: decimalText(units(amount)),
    });
    balanced();

    const again = await confirm(parent, id);
    const expected = refusal('withdrawalNotConfirmable');
    expect(again.error?.status).toBe(expected.status);
    expect(again.error?.body).toEqual(expected.value);
    expect(await subMainOf(covered.account.id, ticker)).toBe(before - units(amount));
  });

  it('one the balance does not cover is refused and waits, until money moved in covers it', async () => {
    const { id, ticker, amount } = uncovered.withdrawal;
    const sub = uncovered.account.id;
    const held = await subMainOf(sub, ticker);
    const refused = await confirm(parent, id);
    const expected = refusal('withdrawalNotPossible');
    expect(refused.error?.status).toBe(expected.status);
    expect(refused.error?.body).toEqual(expected.value);
    expect(await listed()).toContain(id);
    expect(await subMainOf(sub, ticker)).toBe(held);

    // A blocked sub-account takes no transfer: unblock it first, then move the shortfall in.
    if (uncovered.account.subAccount?.blocked)
      await unwrap(parent.POST('/api/v4/sub-account/unblock', { body: { id: sub } }));
    const shortfall = decimalText(units(amount) - held);
    await unwrap(
      parent.POST('/api/v4/sub-account/transfer', {
        body: { id: sub, direction: 'main_to_sub', ticker, amount: shortfall },
      }),
    );
    expect(await unwrap(confirm(parent, id))).toEqual({});
    expect(await listed()).not.toContain(id);
    expect(await subMainOf(sub, ticker)).toBe(0n);
    balanced();
  });

  it('an unknown id is refused as the documents say', async () => {
    const { error } = await confirm(parent, '00000000-0000-4000-8000-000000000000');
    const expected = refusal('unknownWithdrawal');
    expect(error?.status).toBe(expected.status);
    expect(error?.body).toEqual(expected.value);
  });
});

describe("a sub-account's verification link", () => {
  const linkOf = (id: string) => parent.POST('/api/v4/sub-account/kyc-url', { body: { id } });
  const expectRefusal = async (id: string, name: string) => {
    const { error } = await linkOf(id);
    const expected = kycRefusal(name);
    expect(error?.status, name).toBe(expected.status);
    expect(error?.body, name).toEqual(expected.value);
  };
  const subs = fixture.accounts.filter((account) => account.subAccount?.parent === parentKey.account);

  it('is given for an active sub-account, refused for a blocked, a KYC-sharing or an unknown one', async () => {
    const active = present(
      subs.find((account) => !account.subAccount?.blocked && !account.subAccount?.shareKyc),
      'an active sub-account',
    );
    const link = await unwrap(linkOf(active.id));
    expect(link.url).toMatch(/^https:\/\//);
    expect(link.expiresIn).toBeGreaterThan(0);

    const blocked = present(
      subs.find((account) => account.subAccount?.blocked),
      'a blocked sub-account',
    );
    await expectRefusal(blocked.id, 'subAccountNotActive');
    await expectRefusal('00000000-0000-4000-8000-000000000000', 'unknownSubAccount');

    const sharing = await unwrap(
      parent.POST('/api/v4/sub-account/create', {
        body: {
          alias: 'shares_kyc',
          shareKyc: true,
          permissions: { spotEnabled: true, collateralEnabled: false },
        },
      }),
    );
    await expectRefusal(sharing.id, 'sharedKycEnabled');
    // Unblocked, the blocked one gets its link.
    await unwrap(parent.POST('/api/v4/sub-account/unblock', { body: { id: blocked.id } }));
    expect((await unwrap(linkOf(blocked.id))).url).toBe(link.url);
  });
});
