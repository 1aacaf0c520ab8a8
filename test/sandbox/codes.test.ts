// Codes against the sandbox, through the real client: making a code takes its amount from the
// creator's main balance once, into the codes account; the first account to apply it receives
// it, and a second apply is refused with the operator's answer, moving nothing; the account's own
// code, a wrong passphrase and a balance too small are refused too; with retries on, a code whose
// answer was lost is not made a second time. Every state change leaves the ledger balanced and
// the sum over all accounts and houses but the outside as it was. Amounts are checked with the
// tests' own arithmetic (helpers.ts), never the sandbox's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at } from '../../model/json.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { createPrivateClient, type PrivateClient, unwrap } from '../../src/index.ts';
import { heldInside } from './held-inside.ts';
import { decimalText, defaultFixture, documentOf, findKey, present, units } from './helpers.ts';

const fixture = defaultFixture();
const creatorKey = findKey(fixture, (key) => key.account === 'partner' && key.enabled !== false);
const receiverKey = findKey(fixture, (key) => key.account === 'trader' && key.enabled !== false);
const thirdKey = findKey(fixture, (key) => key.account === 'single' && key.enabled !== false);
const apply = documentOf('applyCode');
const create = documentOf('createCode');
const statuses = documentOf('listMyCodes').object['x-code-statuses'] as { open: string; applied: string };

describe('codes: made from the main balance, applied once', () => {
  let sandbox: Sandbox | undefined;
  const clients: PrivateClient[] = [];
  const started = () => present(sandbox, 'the sandbox starts in beforeAll');
  const clientOf = (key: { apiKey: string; secret: string }, retry = false) => {
    const client = createPrivateClient({
      apiKey: key.apiKey,
      apiSecret: key.secret,
      baseUrl: started().url,
      retry,
    });
    clients.push(client);
    return client;
  };
  let creator: PrivateClient;
  let receiver: PrivateClient;
  let third: PrivateClient;
  let inside: Map<string, bigint>;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, strict: true, fixture });
    creator = clientOf(creatorKey);
    receiver = clientOf(receiverKey);
    third = clientOf(thirdKey);
    inside = heldInside(started());
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await sandbox?.close();
    expect(sandbox?.violations).toEqual([]);
  });

  const mainOf = async (client: PrivateClient, ticker: string) =>
    units(
      (await unwrap(client.POST('/api/v4/main-account/balance', { body: { ticker } })))
        .main_balance as string,
    );
  const heldByCodes = (ticker: string) => units(started().state.ledger.house('codes', ticker));
  const myCodes = (client: PrivateClient) =>
    unwrap(client.POST('/api/v4/main-account/codes/my', { body: { limit: 100 } }));
  const history = (client: PrivateClient) =>
    unwrap(client.POST('/api/v4/main-account/codes/history', { body: { limit: 100 } }));
  /** Every change leaves the ledger balanced and what is inside the exchange as it was. */
  const reconciled = () => {
    expect(started().state.ledger.imbalance(started().state.accounts.values())).toEqual({});
    expect(heldInside(started())).toEqual(inside);
  };

  let made = '';

  it('making a code debits the creator once, into the codes account, and lists it', async () => {
    const before = { main: await mainOf(creator, 'USDT'), codes: heldByCodes('USDT') };
    const answer = await unwrap(
      creator.POST('/api/v4/main-account/codes', {
        body: { ticker: 'USDT', amount: '12.5', passphrase: 'lunch-42!', description: 'team lunch' },
      }),
    );
    expect(answer.message).toBe(at(create.successExample()?.value, 'message'));
    expect(answer.code).toMatch(/^WB[0-9a-f-]{36}USDT$/);
    made = answer.code;
    expect(await mainOf(creator, 'USDT')).toBe(before.main - units('12.5'));
    expect(heldByCodes('USDT')).toBe(before.codes + units('12.5'));
    const mine = await myCodes(creator);
    expect(mine.data[0]).toEqual({
      amount: '12.5',
      code: made,
      date: expect.any(Number),
      status: statuses.open,
      ticker: 'USDT',
      external_id: answer.external_id,
    });
    expect((await history(creator)).data[0]).toMatchObject({
      amount: '-12.5',
      code: made,
      status: statuses.open,
    });
    reconciled();
  });

  it('a wrong passphrase and the creator itself are refused, moving nothing', async () => {
    const before = started().state.snapshot();
    const wrong = await receiver.POST('/api/v4/main-account/codes/apply', {
      body: { code: made, passphrase: 'lunch-43!' },
    });
    expect(wrong.error?.status).toBe(apply.example('codeNotApplied').status);
    expect(wrong.error?.body).toEqual(apply.example('codeNotApplied').value);
    const own = await creator.POST('/api/v4/main-account/codes/apply', {
      body: { code: made, passphrase: 'lunch-42!' },
    });
    expect(own.error?.body).toEqual(apply.example('ownCode').value);
    expect(started().state.snapshot()).toEqual(before);
  });

  it('the first account to apply it receives the amount; a second apply is refused', async () => {
    const before = { main: await mainOf(receiver, 'USDT'), codes: heldByCodes('USDT') };
    const applied = await unwrap(
      receiver.POST('/api/v4/main-account/codes/apply', { body: { code: made, passphrase: 'lunch-42!' } }),
    );
    expect(applied).toMatchObject({ ticker: 'USDT', amount: '12.5' });
    expect(await mainOf(receiver, 'USDT')).toBe(before.main + units('12.5'));
    expect(heldByCodes('USDT')).toBe(before.codes - units('12.5'));
    reconciled();

    const after = started().state.snapshot();
    for (const client of [receiver, third]) {
      const again = await client.POST('/api/v4/main-account/codes/apply', {
        body: { code: made, passphrase: 'lunch-42!' },
      });
      const refused = apply.example('codeAlreadyApplied');
      expect(again.error?.status).toBe(refused.status);
      expect(again.error?.body).toEqual(refused.value);
    }
    expect(started().state.snapshot()).toEqual(after);
    expect(await mainOf(receiver, 'USDT')).toBe(before.main + units('12.5'));

    expect((await history(receiver)).data[0]).toEqual({
      amount: '+12.5',
      code: made,
      date: expect.any(Number),
      status: statuses.applied,
      ticker: 'USDT',
      external_id: applied.external_id,
    });
    expect((await myCodes(creator)).data[0]).toMatchObject({ code: made, status: statuses.applied });
  });

  it('a code of more than the main balance is refused with the balance, moving nothing', async () => {
    const balance = await mainOf(third, 'USDT');
    const before = started().state.snapshot();
    const refused = await third.POST('/api/v4/main-account/codes', {
      body: { ticker: 'USDT', amount: decimalText(balance + 1n) },
    });
    expect(refused.error?.status).toBe(create.example('notEnoughBalance').status);
    expect(refused.error?.body).toMatchObject({
      code: 5,
      errors: { amount: [expect.stringContaining(decimalText(balance))] },
    });
    expect(started().state.snapshot()).toEqual(before);
  });

  it('with retries on, a code whose answer was lost is made once: the client does not send it again', async () => {
    const retrying = clientOf(creatorKey, true);
    const before = {
      main: await mainOf(creator, 'BTC'),
      codes: heldByCodes('BTC'),
      count: (await myCodes(creator)).total,
    };
    started().setFaults({ dropConnections: 1, dropPhase: 'after', operations: ['createCode'] });
    try {
      const lost = await retrying.POST('/api/v4/main-account/codes', {
        body: { ticker: 'BTC', amount: '0.01' },
      });
      expect(lost.error?.kind).toBeDefined();
      expect(started().faults.injected.dropped).toBe(1);
    } finally {
      started().setFaults();
    }
    // Made once: the codes list is where a caller looks, and the balance moved once.
    expect((await myCodes(creator)).total).toBe(before.count + 1);
    expect(await mainOf(creator, 'BTC')).toBe(before.main - units('0.01'));
    expect(heldByCodes('BTC')).toBe(before.codes + units('0.01'));
    reconciled();
  });

  it('a seeded code applies as a made one does, and the sum inside is unchanged by it all', async () => {
    const seeded = present(
      fixture.codes?.find(
        (code) => code.appliedBy === undefined && code.creator === 'trader' && !code.passphrase,
      ),
      'a seeded open code of the trader without a passphrase',
    );
    const before = await mainOf(third, seeded.ticker);
    await unwrap(third.POST('/api/v4/main-account/codes/apply', { body: { code: seeded.code } }));
    expect(await mainOf(third, seeded.ticker)).toBe(before + units(seeded.amount));
    reconciled();
  });
});
