// Converting in the sandbox: a quote at the market's price, valid for the time the estimate's
// document states on the sandbox's (fake) clock, confirmed once, by the account that asked for it,
// moving both main balances by exactly the quoted amounts. Balances are read from the state and
// checked with the test's own arithmetic (scaled BigInts), never the sandbox's; every refusal is
// the document's named example.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Fixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { call, decimalText, defaultFixture, documentOf, ordinaryKey, partnerKey, units } from './helpers.ts';

const scale = 10n ** 18n;

let fixture: Fixture;
let sandbox: Sandbox;
let now: number;
const key = () => partnerKey(fixture);

/** The estimate's stated validity, in ms. */
const validMs = () => {
  const seconds = documentOf('estimateConversion').object['x-quote-valid-seconds'];
  if (typeof seconds !== 'number') throw new Error('the estimate states no x-quote-valid-seconds');
  return seconds * 1000;
};
const price = (name: string) => {
  const found = fixture.markets.find((market) => market.name === name);
  if (!found) throw new Error(`no market ${name}`);
  return found.price;
};
/** a ÷ b, cut to `places` decimals, in units. */
const quotient = (a: string, b: string, places: number) => {
  const step = 10n ** (18n - BigInt(places));
  return ((units(a) * scale) / units(b) / step) * step;
};
/** a × b, cut to `places` decimals, in units. */
const product = (a: string, b: string, places: number) => {
  const step = 10n ** (18n - BigInt(places));
  return ((units(a) * units(b)) / scale / step) * step;
};

const main = (ticker: string, accountId = key().account) =>
  units(sandbox.state.account(accountId).main.get(ticker) ?? '0');
const estimate = (fields: Record<string, unknown>, signer = key()) =>
  call(sandbox.url, signer, 'estimateConversion', { fields });
const confirm = (quoteId: string, signer = key(), extra: Record<string, unknown> = {}) =>
  call(sandbox.url, signer, 'confirmConversion', { fields: { quoteId, ...extra } });
const history = (fields: Record<string, unknown>, signer = key()) =>
  call(sandbox.url, signer, 'listConversionHistory', { fields });
const example = (operationId: 'estimateConversion' | 'confirmConversion', name: string) =>
  documentOf(operationId).example(name);

beforeEach(async () => {
  fixture = defaultFixture();
  now = Date.UTC(2031, 4, 1, 12);
  sandbox = await startSandbox({ port: 0, strict: true, fixture, clock: () => now });
});
afterEach(async () => {
  await sandbox.close();
  expect(sandbox.violations).toEqual([]);
});

describe('a quote, then its confirmation', () => {
  it('moves both balances by exactly the quoted amounts, at the market price', async () => {
    const [usdt, btc] = [main('USDT'), main('BTC')];
    const quoted = await estimate({ from: 'USDT', to: 'BTC', direction: 'from', amount: '100' });
    expect(quoted.status).toBe(200);
    // USDT is BTC_USDT's quote asset: the rate is one over the price, at 8 decimals.
    const rate = quotient('1', price('BTC_USDT'), 8);
    const receive = product('100', decimalText(rate), 8);
    expect(quoted.body).toEqual({
      id: expect.stringMatching(/^[0-9]+$/),
      from: 'USDT',
      to: 'BTC',
      give: '100',
      receive: decimalText(receive),
      rate: decimalText(rate),
      expireAt: Math.floor((now + validMs()) / 1000),
    });
    // A quote moves nothing.
    expect([main('USDT'), main('BTC')]).toEqual([usdt, btc]);

    now += 3_000;
    const confirmed = await confirm(quoted.body.id);
    expect(confirmed).toMatchObject({
      status: 200,
      body: { finalGive: '100', finalReceive: decimalText(receive) },
    });
    expect(main('USDT')).toBe(usdt - units('100'));
    expect(main('BTC')).toBe(btc + receive);
  });

  it('converts the other way round at the price itself, and to an amount received', async () => {
    const [usdt, btc] = [main('USDT'), main('BTC')];
    const sold = await estimate({ from: 'BTC', to: 'USDT', direction: 'from', amount: '0.123456789' });
    // Cut to 8 decimals; BTC is the market's base: the rate is its price; USDT has 6 decimals.
    expect(sold.body).toMatchObject({ give: '0.12345678', rate: price('BTC_USDT') });
    const gotUsdt = product('0.12345678', price('BTC_USDT'), 6);
    expect(sold.body.receive).toBe(decimalText(gotUsdt));

    const bought = await estimate({ from: 'USDT', to: 'BTC', direction: 'to', amount: '0.01' });
    expect(bought.body.receive).toBe('0.01');
    // What is given is rounded up (USDT has 6 decimals): enough for the amount, and no more.
    const rate = units(bought.body.rate);
    const give = units(bought.body.give);
    expect((give * rate) / scale).toBeGreaterThanOrEqual(units('0.01'));
    expect(((give - units('0.000001')) * rate) / scale).toBeLessThan(units('0.01'));

    expect((await confirm(sold.body.id)).status).toBe(200);
    expect((await confirm(bought.body.id)).status).toBe(200);
    expect(main('USDT')).toBe(usdt + gotUsdt - give);
    expect(main('BTC')).toBe(btc - units('0.12345678') + units('0.01'));
  });

  it('is refused once its time has run out on the sandbox clock, and moves nothing', async () => {
    const early = await estimate({ from: 'USDT', to: 'BTC', direction: 'from', amount: '10' });
    const late = await estimate({ from: 'USDT', to: 'BTC', direction: 'from', amount: '20' });
    now += validMs() - 1;
    expect((await confirm(early.body.id)).status).toBe(200);
    const [usdt, btc] = [main('USDT'), main('BTC')];
    now += 1;
    const refused = await confirm(late.body.id);
    const expired = example('confirmConversion', 'quoteExpired');
    expect(refused).toMatchObject({ status: expired.status, body: expired.value });
    expect([main('USDT'), main('BTC')]).toEqual([usdt, btc]);
  });

  it('is refused the second time, which moves nothing', async () => {
    const quoted = await estimate({ from: 'BTC', to: 'USDT', direction: 'from', amount: '0.01' });
    expect((await confirm(quoted.body.id)).status).toBe(200);
    const after = sandbox.state.snapshot();
    const again = await confirm(quoted.body.id);
    const used = example('confirmConversion', 'quoteAlreadyUsed');
    expect(again).toMatchObject({ status: used.status, body: used.value });
    expect(sandbox.state.snapshot()).toEqual(after);
  });

  it("is another account's to confirm only by the account that asked for it", async () => {
    const quoted = await estimate({ from: 'USDT', to: 'BTC', direction: 'from', amount: '10' });
    const before = sandbox.state.snapshot();
    const other = await confirm(quoted.body.id, ordinaryKey(fixture));
    const notFound = example('confirmConversion', 'quoteNotFound');
    expect(other).toMatchObject({ status: notFound.status, body: notFound.value });
    expect(sandbox.state.snapshot()).toEqual(before);
    expect((await confirm(quoted.body.id)).status).toBe(200);
  });

  it('checks the balance when quoting and again when confirming', async () => {
    const usdt = decimalText(main('USDT'));
    const tooMuch = await estimate({ from: 'USDT', to: 'BTC', direction: 'from', amount: `${usdt}1` });
    const balance = example('estimateConversion', 'insufficientBalance');
    expect(tooMuch).toMatchObject({ status: balance.status, body: balance.value });
    // Two quotes of three quarters of the balance each: both fit alone, not together.
    const threeQuarters = decimalText(((main('USDT') * 3n) / 4n / 10n ** 12n) * 10n ** 12n);
    const first = await estimate({ from: 'USDT', to: 'BTC', direction: 'from', amount: threeQuarters });
    const second = await estimate({ from: 'USDT', to: 'BTC', direction: 'from', amount: threeQuarters });
    expect((await confirm(first.body.id)).status).toBe(200);
    const before = sandbox.state.snapshot();
    const refused = await confirm(second.body.id);
    const atConfirm = example('confirmConversion', 'insufficientBalance');
    expect(refused).toMatchObject({ status: atConfirm.status, body: atConfirm.value });
    expect(sandbox.state.snapshot()).toEqual(before);
  });

  it('refuses assets no trading market converts between, and amounts that convert into nothing', async () => {
    const none = await estimate({ from: 'USDC', to: 'USDT', direction: 'from', amount: '10' });
    expect(none.body).toEqual(example('estimateConversion', 'marketsNotAvailable').value);
    const notTrading = await estimate({ from: 'LTC', to: 'USDT', direction: 'from', amount: '1' });
    expect(notTrading.body).toEqual(example('estimateConversion', 'marketsNotAvailable').value);
    const dust = await estimate({ from: 'USDT', to: 'BTC', direction: 'from', amount: '0.000001' });
    expect(dust.body).toEqual(example('estimateConversion', 'amountConvertsToZero').value);
  });
});

describe('the conversion history', () => {
  it('lists a confirmed conversion with the quoted amounts, newest first, and no quote not confirmed', async () => {
    const first = await estimate({ from: 'USDT', to: 'BTC', direction: 'from', amount: '50' });
    await confirm(first.body.id);
    now += 60_000;
    const second = await estimate({ from: 'BTC', to: 'USDT', direction: 'to', amount: '700' });
    await confirm(second.body.id);
    const unconfirmed = await estimate({ from: 'USDT', to: 'BTC', direction: 'from', amount: '5' });

    const one = await history({ quoteId: second.body.id });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      records: [
        {
          id: expect.stringMatching(/^[0-9]+$/),
          date: Math.floor(now / 1000),
          give: second.body.give,
          receive: '700',
          rate: second.body.rate,
          path: [{ from: 'BTC', to: 'USDT', rate: second.body.rate }],
        },
      ],
      total: 1,
      limit: 100,
      offset: 0,
    });
    expect((await history({ quoteId: unconfirmed.body.id })).body.records).toEqual([]);

    const all = await history({});
    expect(all.body.records.map((record: { give: string }) => record.give)).toEqual([
      second.body.give,
      first.body.give,
    ]);
    expect((await history({ fromTicker: 'USDT' })).body.records).toHaveLength(1);
    expect((await history({ toTicker: 'USDT', limit: 1 })).body).toMatchObject({ total: 1, limit: 1 });
    // Another account's history does not show them.
    expect((await history({}, ordinaryKey(fixture))).body.total).toBe(0);
  });

  it('refuses a window longer than 30 days and one older than six months back', async () => {
    const to = Math.floor(now / 1000);
    const wide = await history({ from: String(to - 31 * 86_400), to: String(to) });
    expect(wide.body).toEqual(documentOf('listConversionHistory').example('dateRangeExceeded').value);
    const old = String(to - 400 * 86_400);
    const early = await history({ from: old, to: String(Number(old) + 86_400) });
    expect(early.body).toEqual(documentOf('listConversionHistory').example('dateOutOfRange').value);
  });
});

describe('100 concurrent confirmations of distinct quotes', () => {
  it('reconcile exactly: what left one balance arrived in the other, nothing created or lost', async () => {
    // Less USDT than the quotes ask for together: some confirmations must be refused.
    await sandbox.close();
    const partner = fixture.accounts.find((candidate) => candidate.id === key().account);
    if (!partner) throw new Error('the fixture has no partner account');
    partner.mainBalances = { ...partner.mainBalances, USDT: '1000' };
    sandbox = await startSandbox({ port: 0, strict: true, fixture, clock: () => now });
    const account = sandbox.state.account(key().account);
    const quotes: { id: string; give: string; receive: string }[] = [];
    for (let i = 0; i < 100; i++) {
      const amount = `${10 + (i % 7)}.${i % 10}${(i * 7) % 10}`;
      const reply = await estimate({ from: 'USDT', to: 'BTC', direction: 'from', amount });
      expect(reply.status).toBe(200);
      quotes.push(reply.body);
    }
    const [usdt, btc] = [main('USDT'), main('BTC')];
    const conversions = account.conversions.length;
    // Window-mode nonces: the calls may arrive in any order.
    const replies = await Promise.all(
      quotes.map((quote, i) =>
        confirm(quote.id, key(), { nonce: String(now - 2_000 + i), nonceWindow: true }).then((reply) => ({
          quote,
          reply,
        })),
      ),
    );
    const accepted = replies.filter(({ reply }) => reply.status === 200);
    const refused = replies.filter(({ reply }) => reply.status !== 200);
    const balance = example('confirmConversion', 'insufficientBalance');
    for (const { reply } of refused)
      expect(reply).toMatchObject({ status: balance.status, body: balance.value });
    for (const { quote, reply } of accepted) {
      expect(reply.body).toEqual({ finalGive: quote.give, finalReceive: quote.receive });
    }
    expect(accepted.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);

    const given = accepted.reduce((total, { quote }) => total + units(quote.give), 0n);
    const received = accepted.reduce((total, { quote }) => total + units(quote.receive), 0n);
    expect(main('USDT')).toBe(usdt - given);
    expect(main('BTC')).toBe(btc + received);
    expect(main('USDT')).toBeGreaterThanOrEqual(0n);
    // A refused quote asked for more than was left when it came, and what is left only shrank.
    for (const { quote } of refused) expect(units(quote.give)).toBeGreaterThan(main('USDT'));
    // Each accepted quote converted once, and is in the history; each refused one is still open.
    expect(account.conversions.length - conversions).toBe(accepted.length);
    expect(new Set(account.conversions.slice(conversions).map((row) => row.quoteId))).toEqual(
      new Set(accepted.map(({ quote }) => quote.id)),
    );
    for (const { quote } of refused) expect(account.quotes.has(quote.id)).toBe(true);
  });
});
