// Sub-accounts' API keys against the sandbox, each rule shown by a call the real client signs
// with such a key: a key made through the API acts as its sub-account, on that account's own
// books; its type's permissions, its address list, its sub-account being blocked, its deletion
// and its reset are enforced on the calls it signs; its secret shows nowhere but in the answer
// that hands it out. One sandbox for the file; the steps build on each other in order.
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tagsWithRules } from '../../sandbox/key-access.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { createPrivateClient, type PrivateClient, unwrap } from '../../src/index.ts';
import { defaultFixture, documentOf, findKey, operations, present } from './helpers.ts';

const fixture = defaultFixture();
const parentKey = findKey(fixture, (key) => key.account === 'partner' && key.enabled !== false);
const strangerKey = findKey(fixture, (key) => key.account === 'trader' && key.enabled !== false);
const forbidden = documentOf('getMainBalance');
const keyNotEnabled = forbidden.example('keyNotEnabled');
const noPermission = forbidden.example('noPermission');
const unauthorized = forbidden.example('unauthorized');
const withdrawal = documentOf('createWithdrawal').requestExamples()[0]?.value;

describe('sub-account API keys: made through the API, enforced on the calls they sign', () => {
  let sandbox: Sandbox | undefined;
  const started = () => present(sandbox, 'the sandbox starts in beforeAll');
  const clients: PrivateClient[] = [];
  const logged: string[] = [];
  /** Every secret any key of this file was given: none may show anywhere else. */
  const secrets: string[] = [];
  let parent: PrivateClient;
  let subAccountId = '';
  let trading = { id: '', apiKey: '' };
  let traderClient: PrivateClient;
  let treasuryClient: PrivateClient;

  const clientOf = (apiKey: string, apiSecret: string) => {
    const client = createPrivateClient({ apiKey, apiSecret, baseUrl: started().url });
    clients.push(client);
    return client;
  };
  const makeKey = async (type: 1 | 2, title: string) => {
    const made = await unwrap(
      parent.POST('/api/v4/sub-account/api-key/create', { body: { type, subAccountId, title } }),
    );
    const apiSecret = present(made.apiSecret, 'the secret, answered once');
    secrets.push(apiSecret);
    return { made, client: clientOf(present(made.apiKey, 'the public key'), apiSecret) };
  };
  const usdtOf = async (client: PrivateClient) =>
    (await unwrap(client.POST('/api/v4/main-account/balance', { body: { ticker: 'USDT' } }))).main_balance;
  /** A refusal of the sandbox: its status and body, as the document's named example. */
  const refusedAs = (
    reply: { error?: { status?: number | undefined; body?: unknown } | undefined },
    example: { status: number; value: unknown },
  ) => {
    expect(reply.error?.status).toBe(example.status);
    expect(reply.error?.body).toEqual(example.value);
  };
  const allow = (ip: string) =>
    unwrap(
      parent.POST('/api/v4/sub-account/api-key/ip-address/create', { body: { apiKeyId: trading.id, ip } }),
    );
  const disallow = (ip: string) =>
    unwrap(
      parent.POST('/api/v4/sub-account/api-key/ip-address/delete', { body: { apiKeyId: trading.id, ip } }),
    );

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, strict: true, fixture, log: (line) => logged.push(line) });
    parent = clientOf(parentKey.apiKey, parentKey.secret);
    const sub = await unwrap(
      parent.POST('/api/v4/sub-account/create', {
        body: {
          alias: 'key_desk',
          shareKyc: true,
          permissions: { spotEnabled: true, collateralEnabled: false },
        },
      }),
    );
    subAccountId = sub.id;
    await unwrap(
      parent.POST('/api/v4/sub-account/transfer', {
        body: { id: subAccountId, direction: 'main_to_sub', amount: '250', ticker: 'USDT' },
      }),
    );
    const trader = await makeKey(1, 'Trading Bot Key');
    trading = {
      id: present(trader.made.id, 'the key id'),
      apiKey: present(trader.made.apiKey, 'the public key'),
    };
    traderClient = trader.client;
    treasuryClient = (await makeKey(2, 'Treasury Key')).client;
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await sandbox?.close();
    expect(sandbox?.violations).toEqual([]);
  });

  it("the permission table names only the documents' tags", () => {
    const tags = new Set(
      Object.keys(operations).flatMap(
        (id) => documentOf(id as keyof typeof operations).object.tags as string[],
      ),
    );
    for (const tag of tagsWithRules()) expect(tags, tag).toContain(tag);
  });

  it('a key made signs as its sub-account: its own books, which the sub-account transfer credited', async () => {
    expect(await usdtOf(traderClient)).toBe('250');
    expect(await usdtOf(parent)).not.toBe('250');
    // A type-2 key moves the sub-account's money to its spot balance; the type-1 key trades with it.
    await unwrap(
      treasuryClient.POST('/api/v4/main-account/transfer', {
        body: { ticker: 'USDT', amount: '100', from: 'main', to: 'spot' },
      }),
    );
    const order = await unwrap(
      traderClient.POST('/api/v4/order/new', {
        body: { market: 'BTC_USDT', side: 'buy', amount: '0.001', price: '30000' },
      }),
    );
    const active = await unwrap(traderClient.POST('/api/v4/orders', { body: { market: 'BTC_USDT' } }));
    expect(active.map((row) => row.orderId)).toEqual([order.orderId]);
    expect(started().state.account(subAccountId).orders.has(present(order.orderId, 'the order id'))).toBe(
      true,
    );
  });

  it('a type-1 key is refused what its type lacks (deposits, withdrawals), a type-2 key is not', async () => {
    const before = started().state.snapshot();
    const { request: _, nonce: __, ...fields } = present(withdrawal, "the withdrawal's request example");
    refusedAs(
      await traderClient.POST('/api/v4/main-account/withdraw', { body: fields as never }),
      noPermission,
    );
    refusedAs(
      await traderClient.POST('/api/v4/main-account/create-new-address', {
        body: { ticker: 'USDT', network: 'TRC20' },
      }),
      noPermission,
    );
    expect(started().state.snapshot()).toEqual(before);
    const address = await treasuryClient.POST('/api/v4/main-account/create-new-address', {
      body: { ticker: 'USDT', network: 'TRC20' },
    });
    expect(address.error).toBeUndefined();
    // Neither type manages sub-accounts or their keys.
    refusedAs(await treasuryClient.POST('/api/v4/sub-account/api-key/list', { body: {} }), noPermission);
  });

  it('its address list: empty lets any address call; once set, only the addresses on it', async () => {
    // The fixture's key lists another address than the tests' own.
    const seeded = present(
      fixture.accounts
        .flatMap((account) => account.subAccount?.apiKeys ?? [])
        .find((key) => key.ipAddresses?.length),
      "a fixture's sub-account key with addresses",
    );
    expect(seeded.ipAddresses).not.toContain('127.0.0.1');
    refusedAs(
      await clientOf(seeded.apiKey, seeded.secret).POST('/api/v4/main-account/balance', {
        body: { ticker: 'USDT' },
      }),
      keyNotEnabled,
    );
    await allow('10.0.0.1');
    refusedAs(
      await traderClient.POST('/api/v4/main-account/balance', { body: { ticker: 'USDT' } }),
      keyNotEnabled,
    );
    expect((await allow('127.0.0.1')).data).toEqual(['10.0.0.1', '127.0.0.1']);
    expect(await usdtOf(traderClient)).toBe('150');
    await disallow('127.0.0.1');
    refusedAs(
      await traderClient.POST('/api/v4/main-account/balance', { body: { ticker: 'USDT' } }),
      keyNotEnabled,
    );
    expect((await disallow('10.0.0.1')).data).toEqual([]);
    expect(await usdtOf(traderClient)).toBe('150');
  });

  it('an endpoint turned off for the key is refused it, until turned on again', async () => {
    const edit = (enable: boolean) =>
      unwrap(
        parent.POST('/api/v4/sub-account/api-key/edit', {
          body: {
            apiKeyId: trading.id,
            title: 'Trading Bot Key',
            urls: [{ url: '/api/v4/main-account/balance', enable }],
          },
        }),
      );
    await edit(false);
    refusedAs(
      await traderClient.POST('/api/v4/main-account/balance', { body: { ticker: 'USDT' } }),
      noPermission,
    );
    await edit(true);
    expect(await usdtOf(traderClient)).toBe('150');
  });

  it("a blocked sub-account's key is refused, until the sub-account is unblocked", async () => {
    await unwrap(parent.POST('/api/v4/sub-account/block', { body: { id: subAccountId } }));
    refusedAs(
      await traderClient.POST('/api/v4/main-account/balance', { body: { ticker: 'USDT' } }),
      keyNotEnabled,
    );
    await unwrap(parent.POST('/api/v4/sub-account/unblock', { body: { id: subAccountId } }));
    expect(await usdtOf(traderClient)).toBe('150');
  });

  it('another account cannot reach the key', async () => {
    const stranger = clientOf(strangerKey.apiKey, strangerKey.secret);
    const reply = await stranger.POST('/api/v4/sub-account/api-key/reset', {
      body: { apiKeyId: trading.id },
    });
    refusedAs(reply, documentOf('resetSubAccountApiKey').example('apiKeyNotFound'));
    expect(await usdtOf(traderClient)).toBe('150');
  });

  it('a reset key: the old secret stops signing at once, the new one signs', async () => {
    const reset = await unwrap(
      parent.POST('/api/v4/sub-account/api-key/reset', { body: { apiKeyId: trading.id } }),
    );
    const apiSecret = present(reset.apiSecret, 'the new secret');
    secrets.push(apiSecret);
    expect(reset.apiKey).toBe(trading.apiKey);
    expect(secrets.slice(0, -1)).not.toContain(apiSecret);
    refusedAs(
      await traderClient.POST('/api/v4/main-account/balance', { body: { ticker: 'USDT' } }),
      unauthorized,
    );
    traderClient = clientOf(trading.apiKey, apiSecret);
    expect(await usdtOf(traderClient)).toBe('150');
  });

  it('the list shows the keys newest first, without secrets', async () => {
    // The fixture's key too, on its own sub-account.
    const seededSub = present(
      fixture.accounts.find((account) => account.subAccount?.apiKeys?.length),
      "a fixture's sub-account with a key",
    );
    const seeded = await unwrap(
      parent.POST('/api/v4/sub-account/api-key/list', { body: { subAccountId: seededSub.id } }),
    );
    expect(seeded.data.map((key) => [key.id, key.apiSecret])).toEqual(
      (seededSub.subAccount?.apiKeys ?? []).map((key) => [key.id, '']),
    );
    const listed = await unwrap(parent.POST('/api/v4/sub-account/api-key/list', { body: { subAccountId } }));
    expect(listed.data.map((key) => [key.title, key.type, key.apiSecret])).toEqual([
      ['Treasury Key', '2', ''],
      ['Trading Bot Key', '1', ''],
    ]);
  });

  it('no secret shows in the state, its snapshot, the log or an error', async () => {
    const refused = await traderClient.POST('/api/v4/main-account/withdraw', {
      body: { ticker: 'USDT' } as never,
    });
    expect(refused.error).toBeDefined();
    const shown = [
      inspect(started().state, { depth: 20 }),
      JSON.stringify(started().state.snapshot()),
      logged.join('\n'),
      String(refused.error),
      JSON.stringify(refused.error),
      inspect(refused.error, { depth: 10 }),
      inspect(traderClient, { depth: 10 }),
    ];
    for (const secret of secrets) for (const text of shown) expect(text).not.toContain(secret);
  });

  it('a deleted key stops signing at once, and so does every key of a deleted sub-account', async () => {
    await unwrap(parent.POST('/api/v4/sub-account/api-key/delete', { body: { apiKeyId: trading.id } }));
    refusedAs(
      await traderClient.POST('/api/v4/main-account/balance', { body: { ticker: 'USDT' } }),
      unauthorized,
    );
    const again = await parent.POST('/api/v4/sub-account/api-key/delete', { body: { apiKeyId: trading.id } });
    refusedAs(again, documentOf('deleteSubAccountApiKey').example('apiKeyNotFound'));
    expect(await usdtOf(treasuryClient)).toBe('150');
    await unwrap(parent.POST('/api/v4/sub-account/delete', { body: { id: subAccountId } }));
    refusedAs(
      await treasuryClient.POST('/api/v4/main-account/balance', { body: { ticker: 'USDT' } }),
      unauthorized,
    );
  });
});
