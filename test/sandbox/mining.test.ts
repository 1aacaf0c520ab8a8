// The mining pool's writes against the sandbox, through the real client, each read back by the
// read it feeds: a mining account made is listed, newest first, and its name cannot be taken
// again; a payout destination set is the one read; a watcher link made is listed for the mining
// accounts it shows until its lifetime (x-live-seconds) runs out on the sandbox's clock. Refusals
// are the documented examples and change nothing; another account sees none of it. One sandbox,
// on a fake clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { createPrivateClient, type PrivateClient, unwrap } from '../../src/index.ts';
import { defaultFixture, documentOf, findKey, present } from './helpers.ts';

const fixture = defaultFixture();
const ownerKey = findKey(fixture, (key) => key.account === 'partner' && key.enabled !== false);
const strangerKey = findKey(fixture, (key) => key.account === 'trader' && key.enabled !== false);
const seeded = present(
  fixture.accounts.find((account) => account.id === ownerKey.account)?.miningAccounts?.[0],
  'a mining account of the owner in the default fixture',
).name;
const lifetimes = documentOf('createMiningWatcherLink').object['x-live-seconds'] as Record<
  string,
  number | null
>;
const hour = present(lifetimes['1h'], "x-live-seconds' 1h");
const address = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';

describe('mining: each write shows in the read it feeds', () => {
  const clock = { now: Date.UTC(2024, 0, 1) };
  let sandbox: Sandbox | undefined;
  let owner: PrivateClient;
  let stranger: PrivateClient;
  const clients: PrivateClient[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, strict: true, fixture, clock: () => clock.now });
    for (const key of [ownerKey, strangerKey])
      clients.push(
        createPrivateClient({
          apiKey: key.apiKey,
          apiSecret: key.secret,
          baseUrl: present(sandbox, 'the sandbox').url,
        }),
      );
    [owner, stranger] = clients as [PrivateClient, PrivateClient];
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await sandbox?.close();
    expect(sandbox?.violations).toEqual([]);
  });

  const names = async (client: PrivateClient, name?: string) =>
    (
      await unwrap(client.POST('/api/v4/mining/accounts', { body: name === undefined ? {} : { name } }))
    ).data?.map((account) => account.name);
  const destination = (accountName: string) =>
    unwrap(owner.POST('/api/v4/mining/payout-destination', { body: { accountName } }));
  const linkIds = async (account: string) =>
    (await unwrap(owner.POST('/api/v4/mining/watcher-links/list', { body: { account } }))).data?.map(
      (link) => link.id,
    );

  it('a mining account made is listed first, found by its name, and its name is not taken twice', async () => {
    const made = await unwrap(owner.POST('/api/v4/mining/accounts/create', { body: { name: 'farm_east' } }));
    expect(made.data).toEqual({ name: 'farm_east', createdAt: Math.floor(clock.now / 1000) });
    expect((await names(owner))?.[0]).toBe('farm_east');
    expect(await names(owner, 'farm_east')).toEqual(['farm_east']);
    expect(await names(stranger)).toEqual([]);

    const before = await names(owner);
    const again = await owner.POST('/api/v4/mining/accounts/create', { body: { name: 'farm_east' } });
    expect(again.error?.body).toEqual(documentOf('createMiningAccount').example('nameTaken').value);
    expect(await names(owner)).toEqual(before);
  });

  it('a payout destination set is the one read, and a refused change leaves it', async () => {
    const set = documentOf('setMiningPayoutDestination');
    // Never set: the documented default.
    expect(await destination('farm_east')).toEqual(
      documentOf('getMiningPayoutDestination').successExample()?.value,
    );
    const external = await unwrap(
      owner.POST('/api/v4/mining/payout-destination/edit', {
        body: { accountName: 'farm_east', destination: 'external_address', address },
      }),
    );
    expect(external).toEqual({ payoutDestination: 'external_address', externalAddress: address });
    expect(await destination('farm_east')).toEqual(external);

    const noAddress = await owner.POST('/api/v4/mining/payout-destination/edit', {
      body: { accountName: 'farm_east', destination: 'external_address' },
    });
    expect(noAddress.error?.body).toEqual(set.example('btcAddressRequired').value);
    const unknown = await stranger.POST('/api/v4/mining/payout-destination/edit', {
      body: { accountName: 'farm_east', destination: 'main_balance' },
    });
    expect(unknown.error?.body).toEqual(set.example('accountNotFound').value);
    expect(await destination('farm_east')).toEqual(external);

    await unwrap(
      owner.POST('/api/v4/mining/payout-destination/edit', {
        body: { accountName: 'farm_east', destination: 'main_balance', address },
      }),
    );
    expect(await destination('farm_east')).toEqual({
      payoutDestination: 'main_balance',
      externalAddress: null,
    });
  });

  it('a watcher link is listed for the accounts it shows until its lifetime runs out', async () => {
    const made = await unwrap(
      owner.POST('/api/v4/mining/watcher-links/create', {
        body: { accounts: ['farm_east'], name: 'for_an_hour', permissions: ['dashboard'], liveUntil: '1h' },
      }),
    );
    const forever = await unwrap(
      owner.POST('/api/v4/mining/watcher-links/create', {
        body: {
          accounts: ['farm_east', seeded],
          name: 'forever',
          permissions: ['rewards'],
          liveUntil: 'always',
        },
      }),
    );
    const hourly = present(made.data, 'the link made');
    expect(hourly.liveUntil).toBe(present(hourly.createdAt, 'createdAt') + hour);
    expect(forever.data?.liveUntil).toBeNull();
    expect(hourly.link).toContain(hourly.id);
    expect(await linkIds('farm_east')).toEqual([hourly.id, forever.data?.id]);
    expect(await linkIds(seeded)).toEqual([forever.data?.id]);
    const listed = (
      await unwrap(owner.POST('/api/v4/mining/watcher-links/list', { body: { account: 'farm_east' } }))
    ).data?.[0];
    expect(listed).toEqual({
      ...hourly,
      accounts: ['farm_east'],
      name: 'for_an_hour',
      permissions: ['dashboard'],
    });

    // One second before the hour is up it is listed; at the hour it is not.
    present(sandbox, 'the sandbox').advanceClock((hour - 1) * 1000);
    expect(await linkIds('farm_east')).toContain(hourly.id);
    present(sandbox, 'the sandbox').advanceClock(1000);
    expect(await linkIds('farm_east')).toEqual([forever.data?.id]);
  });

  it('a link or a list of a mining account that is not the caller’s is refused, naming it', async () => {
    const create = documentOf('createMiningWatcherLink');
    const refused = await stranger.POST('/api/v4/mining/watcher-links/create', {
      body: { accounts: ['farm_east'], name: 'peek', permissions: ['workers'], liveUntil: '24h' },
    });
    expect(refused.error?.status).toBe(create.example('accountNotFound').status);
    expect(refused.error?.body).toMatchObject({
      code: 0,
      errors: { user: ["Mining pool account 'farm_east' not found"] },
    });
    const list = await stranger.POST('/api/v4/mining/watcher-links/list', { body: { account: 'farm_east' } });
    expect(list.error?.body).toMatchObject({
      errors: { user: ["Mining pool account 'farm_east' not found"] },
    });
    expect(await linkIds('farm_east')).toHaveLength(1);
  });
});
