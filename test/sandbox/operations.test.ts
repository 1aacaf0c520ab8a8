import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import {
  actionType,
  call,
  defaultFixture,
  documentOf,
  operations,
  ordinaryKey,
  partnerKey,
  refusalOf,
  strictSandbox,
  units,
} from './helpers.ts';

const fixture = defaultFixture();
const partner = partnerKey(fixture);
const ordinary = ordinaryKey(fixture);
const accountOf = (id: string) => {
  const account = fixture.accounts.find((a) => a.id === id);
  if (!account) throw new Error(`no account ${id}`);
  return account;
};
const planWhere = (predicate: (p: (typeof fixture.plans)[number]) => boolean) => {
  const plan = fixture.plans.find(predicate);
  if (!plan) throw new Error('the fixture lacks such a plan');
  return plan;
};
const usdtPlan = planWhere((p) => p.status === 'active' && p.currency === 'USDT');
const btcPlan = planWhere((p) => p.status === 'active' && p.currency === 'BTC');
const pausedPlan = planWhere((p) => p.status === 'paused');
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const suite = strictSandbox();

const balanceOf = async (ticker: string, key = partner) =>
  (await call(suite.sandbox.url, key, 'getMainBalance', { fields: { ticker } })).body.main_balance as string;
const invest = (planId: string, amount: unknown, key = partner) =>
  call(suite.sandbox.url, key, 'createFixedInvestment', { fields: { planId, amount } });
const history = (fields: Record<string, unknown> = {}, key = partner) =>
  call(suite.sandbox.url, key, 'listFlexInvestmentHistory', { fields });

describe('ping', () => {
  it('answers ["pong"] without authentication', async () => {
    const response = await fetch(`${suite.sandbox.url}${operations.pingApi.path}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(['pong']);
  });

  it('unknown paths get 404 and a wrong method 405', async () => {
    expect((await fetch(`${suite.sandbox.url}/api/v4/nothing-here`)).status).toBe(404);
    expect((await fetch(`${suite.sandbox.url}${operations.pingApi.path}`, { method: 'POST' })).status).toBe(
      405,
    );
  });
});

describe('main balance', () => {
  it('lists every non-zero balance of the account and omits zero ones', async () => {
    const fresh = await startSandbox({ port: 0, strict: true });
    try {
      for (const key of [partner, ordinary]) {
        const balances = accountOf(key.account).mainBalances ?? {};
        const zero = Object.keys(balances).filter((t) => units(balances[t] as string) === 0n);
        expect(zero.length, 'the fixture has a zero balance to omit').toBeGreaterThan(0);
        const reply = await call(fresh.url, key, 'getMainBalance');
        expect(reply.status).toBe(200);
        const expected = Object.fromEntries(
          Object.entries(balances)
            .filter(([, amount]) => units(amount) !== 0n)
            .map(([ticker, amount]) => [ticker, { main_balance: amount }]),
        );
        expect(reply.body).toEqual(expected);
      }
    } finally {
      await fresh.close();
    }
  });

  it('narrows to one ticker; an unknown or empty one answers "0"', async () => {
    const fresh = await startSandbox({ port: 0, strict: true });
    try {
      const balances = accountOf(partner.account).mainBalances ?? {};
      const [held, amount] = Object.entries(balances).find(([, a]) => units(a) !== 0n) ?? [];
      const [empty] = Object.entries(balances).find(([, a]) => units(a) === 0n) ?? [];
      const ask = async (ticker: string) =>
        (await call(fresh.url, partner, 'getMainBalance', { fields: { ticker } })).body;
      expect(await ask(held as string)).toEqual({ main_balance: amount });
      expect(await ask(empty as string)).toEqual({ main_balance: '0' });
      expect(await ask('NOSUCHCOIN')).toEqual({ main_balance: '0' });
    } finally {
      await fresh.close();
    }
  });

  it('a balance that falls to zero disappears from the list', async () => {
    const custom = defaultFixture();
    const account = custom.accounts.find((a) => a.id === partner.account);
    if (!account?.mainBalances) throw new Error('no balances');
    account.mainBalances.BTC = btcPlan.maxAmount;
    const fresh = await startSandbox({ port: 0, strict: true, fixture: custom });
    try {
      expect((await call(fresh.url, partner, 'getMainBalance')).body).toHaveProperty('BTC');
      expect(
        (
          await call(fresh.url, partner, 'createFixedInvestment', {
            fields: { planId: btcPlan.id, amount: btcPlan.maxAmount },
          })
        ).status,
      ).toBe(201);
      expect((await call(fresh.url, partner, 'getMainBalance')).body).not.toHaveProperty('BTC');
    } finally {
      await fresh.close();
    }
  });
});

describe('invest', () => {
  it('debits the exact amount and answers 201 with a new uuid, recording OPEN_INVESTMENT and INVEST', async () => {
    suite.clock.now = Date.UTC(2031, 0, 2, 3, 4, 5);
    const before = await balanceOf(usdtPlan.currency);
    const amount = '10.000000000000000001';
    const reply = await invest(usdtPlan.id, amount);
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({ id: expect.stringMatching(uuidPattern) });
    const after = await balanceOf(usdtPlan.currency);
    expect(units(after)).toBe(units(before) - units(amount));
    const rows = (await history({ investment: reply.body.id })).body.data;
    expect(rows.map((row: { actionType: number }) => row.actionType).sort()).toEqual(
      [actionType.INVEST, actionType.OPEN_INVESTMENT].sort(),
    );
    for (const row of rows) {
      expect(row).toMatchObject({
        planId: usdtPlan.id,
        investmentId: reply.body.id,
        currency: usdtPlan.currency,
        createdAt: Math.floor(suite.clock.now / 1000),
      });
      expect(units(row.amount)).toBe(units(amount));
    }
    expect(new Set(rows.map((row: { transaction_id: string }) => row.transaction_id)).size).toBe(rows.length);
    const again = await invest(usdtPlan.id, usdtPlan.minAmount);
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(reply.body.id);
  });

  // Each refusal is answered with the status and body of the document's named example.
  it.each([
    ['a paused plan', 'planPaused', () => pausedPlan.id, () => pausedPlan.minAmount],
    [
      'an unknown plan',
      'unknownPlan',
      () => '00000000-0000-4000-8000-000000000000',
      () => usdtPlan.minAmount,
    ],
    [
      'an amount below the minimum',
      'amountBelowMinimum',
      () => usdtPlan.id,
      () => lessThan(usdtPlan.minAmount),
    ],
    ['a zero amount', 'amountTooSmall', () => usdtPlan.id, () => '0'],
    [
      'an amount above the maximum',
      'amountAboveMaximum',
      () => usdtPlan.id,
      () => moreThan(usdtPlan.maxAmount),
    ],
    ['a malformed amount', 'amountNotANumber', () => usdtPlan.id, () => 'ten'],
  ])('%s is answered with the example %s and nothing moves', async (_, example, planId, amount) => {
    const expected = documentOf('createFixedInvestment').example(example);
    const before = await balanceOf(usdtPlan.currency);
    const beforeBtc = await balanceOf(btcPlan.currency);
    const rowsBefore = (await history({ limit: 1000 })).body.data.length;
    const reply = await invest(planId(), amount());
    expect(reply.status).toBe(expected.status);
    expect(reply.body).toEqual(expected.value);
    expect(await balanceOf(usdtPlan.currency)).toBe(before);
    expect(await balanceOf(btcPlan.currency)).toBe(beforeBtc);
    expect((await history({ limit: 1000 })).body.data.length).toBe(rowsBefore);
  });

  it('an unknown plan and a paused one are request-validation failures, the balance a business rule', () => {
    const status = (example: string) => documentOf('createFixedInvestment').example(example).status;
    expect(status('unknownPlan')).toBe(status('amountNotANumber'));
    expect(status('planPaused')).toBe(status('unknownPlan'));
    expect(status('notEnoughBalance')).not.toBe(status('planPaused'));
  });

  it.each(['1e3', '-10', '10.', '.5', 'ten', ' 10', 100, null])(
    'amount %j is refused with the example amountNotANumber',
    async (amount) => {
      const reply = await invest(usdtPlan.id, amount);
      const notANumber = documentOf('createFixedInvestment').example('amountNotANumber');
      expect(reply.status).toBe(notANumber.status);
      expect(reply.body).toEqual(notANumber.value);
    },
  );

  it('missing fields and a planId that is not a uuid are named', async () => {
    const missing = await call(suite.sandbox.url, partner, 'createFixedInvestment', { fields: {} });
    expect(missing.status).toBe(400);
    expect(Object.keys(refusalOf(missing).errors).sort()).toEqual(['amount', 'planId']);
    const notUuid = await invest('plan-1', usdtPlan.minAmount);
    expect(notUuid.status).toBe(400);
    expect(Object.keys(refusalOf(notUuid).errors)).toEqual(['planId']);
  });
});

function lessThan(amount: string): string {
  // The minimum minus one unit at one digit beyond its scale.
  const digits = (amount.split('.')[1] ?? '').length + 1;
  const value = units(amount) - 10n ** BigInt(18 - digits);
  const whole = value / 10n ** 18n;
  const fraction = (value % 10n ** 18n).toString().padStart(18, '0').slice(0, digits);
  return `${whole}.${fraction}`;
}

function moreThan(amount: string): string {
  return `${amount}${amount.includes('.') ? '' : '.'}000001`.replace(/\.(\d*)$/, (_, f: string) => `.${f}1`);
}

describe('flex investment history', () => {
  let fresh: Sandbox;
  let now = Date.UTC(2032, 5, 1);
  const investments: { id: string; planId: string; createdAt: number }[] = [];
  beforeAll(async () => {
    fresh = await startSandbox({ port: 0, strict: true, clock: () => now });
    for (let i = 0; i < 7; i++) {
      now += 3_600_000;
      const plan = i % 2 === 0 ? usdtPlan : btcPlan;
      const reply = await call(fresh.url, partner, 'createFixedInvestment', {
        fields: { planId: plan.id, amount: plan.minAmount },
      });
      expect(reply.status).toBe(201);
      investments.push({ id: reply.body.id, planId: plan.id, createdAt: Math.floor(now / 1000) });
    }
  });
  afterAll(async () => {
    await fresh.close();
    expect(fresh.violations).toEqual([]);
  });
  const list = (fields: Record<string, unknown> = {}, key = partner) =>
    call(fresh.url, key, 'listFlexInvestmentHistory', { fields });
  const seeded = (accountOf(partner.account).history ?? []).length;

  it('defaults to limit 50 and offset 0', async () => {
    const reply = await list();
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ limit: 50, offset: 0 });
    expect(reply.body.data).toHaveLength(Math.min(50, seeded + 2 * investments.length));
  });

  it('pages through every row once, newest first', async () => {
    const total = seeded + 2 * investments.length;
    const seen: { transaction_id: string; createdAt: number }[] = [];
    for (let offset = 0; offset < total + 3; offset += 3) {
      const page = await list({ limit: 3, offset });
      expect(page.body).toMatchObject({ limit: 3, offset });
      expect(page.body.data.length).toBe(Math.max(0, Math.min(3, total - offset)));
      seen.push(...page.body.data);
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen.map((row) => row.transaction_id)).size).toBe(total);
    const times = seen.map((row) => row.createdAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('refuses no limit or offset, since the document bounds neither', async () => {
    const total = seeded + 2 * investments.length;
    const none = await list({ limit: 0, offset: 1 });
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ data: [], limit: 0, offset: 1 });
    const negative = await list({ limit: -2 });
    expect(negative.status).toBe(200);
    expect(negative.body.data).toEqual([]);
    const fromStart = await list({ limit: total, offset: -4 });
    expect(fromStart.status).toBe(200);
    expect(fromStart.body).toMatchObject({ limit: total, offset: -4 });
    expect(fromStart.body.data).toEqual((await list({ limit: total })).body.data);
    expect(fromStart.body.data).toHaveLength(total);
  });

  it('filters by plan, investment, transaction, dates and action types', async () => {
    const byPlan = (await list({ plan: btcPlan.id })).body.data;
    const btcCount = investments.filter((i) => i.planId === btcPlan.id).length;
    expect(byPlan).toHaveLength(2 * btcCount);
    expect(byPlan.every((row: { planId: string }) => row.planId === btcPlan.id)).toBe(true);

    const target = investments[3];
    if (!target) throw new Error('no investment');
    const byInvestment = (await list({ investment: target.id })).body.data;
    expect(byInvestment).toHaveLength(2);
    const transaction = byInvestment[0]?.transaction_id;
    expect((await list({ transaction })).body.data).toEqual([byInvestment[0]]);

    const from = investments[2]?.createdAt as number;
    const to = investments[4]?.createdAt as number;
    const byDates = (await list({ dateFrom: from, dateTo: to })).body.data;
    expect(byDates).toHaveLength(2 * 3);
    expect(byDates.every((row: { createdAt: number }) => row.createdAt >= from && row.createdAt <= to)).toBe(
      true,
    );
    // Bounds the wrong way round are not a failure the document shows: they match no row.
    const reversed = await list({ dateFrom: to, dateTo: from });
    expect(reversed.status).toBe(200);
    expect(reversed.body.data).toEqual([]);

    const invests = (await list({ actionTypes: [actionType.INVEST] })).body.data;
    expect(invests).toHaveLength(investments.length + 1);
    const earnings = (await list({ actionTypes: [actionType.DAILY_EARNING, actionType.OPEN_INVESTMENT] }))
      .body.data;
    expect(earnings).toHaveLength(investments.length + 1);
    const combined = (await list({ plan: usdtPlan.id, actionTypes: [actionType.OPEN_INVESTMENT], limit: 2 }))
      .body;
    expect(combined.data).toHaveLength(2);
  });

  it("does not show another account's rows", async () => {
    const custom = defaultFixture();
    const partnerTwin = { ...partner, apiKey: 'twin-key', secret: 'twin-secret', account: ordinary.account };
    custom.keys.push(partnerTwin);
    const other = await startSandbox({ port: 0, strict: true, fixture: custom });
    try {
      await call(other.url, partner, 'createFixedInvestment', {
        fields: { planId: usdtPlan.id, amount: usdtPlan.minAmount },
      });
      const own = await call(other.url, partnerTwin, 'listFlexInvestmentHistory');
      expect(own.body.data).toEqual(accountOf(ordinary.account).history ?? []);
    } finally {
      await other.close();
    }
  });

  it.each([
    ['invalidPlan', { plan: '00000000-0000-4000-8000-000000000000' }],
    ['invalidInvestment', { investment: 'no-such-investment' }],
    ['invalidTransaction', { transaction: 'no-such-transaction' }],
    ['invalidDate', { dateFrom: 'yesterday' }],
    ['invalidDate', { dateFrom: -5 }],
    ['actionTypesNotArray', { actionTypes: 1 }],
    ['invalidActionType', { actionTypes: [9] }],
  ])('answers the example %s to %j', async (example, fields) => {
    const expected = documentOf('listFlexInvestmentHistory').example(example);
    const reply = await list(fields);
    expect(reply.status).toBe(expected.status);
    expect(reply.body).toEqual(expected.value);
  });

  it.each([
    ['plan is not a uuid', { plan: 'nope' }, 'plan'],
    ['plan does not exist', { plan: '00000000-0000-4000-8000-000000000000' }, 'plan'],
    ['investment does not exist', { investment: 'no-such-investment' }, 'investment'],
    ['transaction does not exist', { transaction: 'no-such-transaction' }, 'transaction'],
    ['dateFrom is not a date', { dateFrom: 'yesterday' }, 'dateFrom'],
    ['dateTo is negative', { dateTo: -5 }, 'dateTo'],
    ['actionTypes is not an array', { actionTypes: 1 }, 'actionTypes'],
    ['an action type is not valid', { actionTypes: [1, 9] }, 'actionTypes.1'],
    ['limit is not an integer', { limit: '10' }, 'limit'],
  ])('%s: 400 code 0 naming the field', async (_, fields, field) => {
    const reply = await list(fields);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 0, message: 'Validation failed' });
    expect(Object.keys(refusalOf(reply).errors)).toEqual([field]);
    expect(refusalOf(reply).errors[field]).toEqual([expect.any(String)]);
  });
});

describe('collateral balance summary', () => {
  const items = accountOf(partner.account).collateralBalances ?? [];

  it('answers every asset of the account, or the one asked for', async () => {
    expect(items.length).toBeGreaterThan(1);
    const all = await call(suite.sandbox.url, partner, 'getCollateralBalanceSummary');
    expect(all).toMatchObject({ status: 200, body: items });
    const first = items[0];
    const one = await call(suite.sandbox.url, partner, 'getCollateralBalanceSummary', {
      fields: { ticker: first?.asset },
    });
    expect(one.body).toEqual([first]);
  });

  it('an invalid ticker gets 422 code 30 with errors.ticker', async () => {
    for (const ticker of ['NOSUCHCOIN', 5, '']) {
      const reply = await call(suite.sandbox.url, partner, 'getCollateralBalanceSummary', {
        fields: { ticker },
      });
      expect(reply.status, JSON.stringify(ticker)).toBe(422);
      expect(refusalOf(reply).code).toBe(30);
      expect(Object.keys(refusalOf(reply).errors)).toEqual(['ticker']);
    }
  });
});

describe('cancel all orders', () => {
  let fresh: Sandbox;
  beforeAll(async () => {
    fresh = await startSandbox({ port: 0, strict: true });
  });
  afterAll(async () => {
    await fresh.close();
    expect(fresh.violations).toEqual([]);
  });
  const orders = (accountId: string) => [...fresh.state.account(accountId).orders.keys()].sort();
  const cancel = (fields: Record<string, unknown>, key = partner) =>
    call(fresh.url, key, 'cancelAllOrders', { fields });

  it('refusals leave every order in place', async () => {
    const before = orders(partner.account);
    const notAvailable = await cancel({ market: 'NOPE_USDT' });
    expect(notAvailable).toMatchObject({
      status: documentOf('cancelAllOrders').example('marketNotAvailable').status,
      body: { code: 31, errors: { market: expect.any(Array) } },
    });
    for (const [fields, field] of [
      [{ market: 'btc-usdt' }, 'market'],
      [{ market: 7 }, 'market'],
      [{ type: 'spot' }, 'type'],
      [{ type: ['limit'] }, 'type.0'],
    ] as const) {
      const reply = await cancel(fields);
      expect(reply.status, JSON.stringify(fields)).toBe(422);
      expect(refusalOf(reply).code).toBe(30);
      expect(Object.keys(refusalOf(reply).errors)).toEqual([field]);
    }
    expect(orders(partner.account)).toEqual(before);
  });

  it('cancels only the orders of the market and types given, and answers []', async () => {
    const open = accountOf(partner.account).openOrders ?? [];
    const target = open[0];
    if (!target) throw new Error('no orders');
    const kind = target.kind ?? 'spot';
    const reply = await cancel({ market: target.market, type: [kind] });
    expect(reply).toMatchObject({ status: 200, body: [] });
    const expected = open
      .filter((o) => !(o.market === target.market && (o.kind ?? 'spot') === kind))
      .map((o) => o.orderId)
      .sort();
    expect(orders(partner.account)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
  });

  it("without conditions cancels everything of the key's account, nobody else's", async () => {
    const others = orders(ordinary.account);
    expect(others.length).toBeGreaterThan(0);
    expect((await cancel({})).status).toBe(200);
    expect(orders(partner.account)).toEqual([]);
    expect(orders(ordinary.account)).toEqual(others);
    expect((await cancel({})).body).toEqual([]);
  });
});

describe('strict mode', () => {
  it('an answer that breaks its schema becomes a 500 and is recorded; without strict it goes out', async () => {
    for (const strict of [true, false]) {
      // The mismatch is logged through `log`: captured here, not printed by a passing run.
      const logged: string[] = [];
      const fresh = await startSandbox({ port: 0, strict, log: (line) => logged.push(line) });
      try {
        const account = fresh.state.account(partner.account);
        const item = account.collateral[0];
        if (!item) throw new Error('no collateral');
        item.balance = 'lots';
        const reply = await call(fresh.url, partner, 'getCollateralBalanceSummary');
        expect(reply.status).toBe(strict ? 500 : 200);
        expect(fresh.violations).toHaveLength(strict ? 1 : 0);
        const mismatches = logged.filter((line) => line.includes('does not match the document'));
        expect(mismatches).toEqual(
          strict ? [expect.stringMatching(/^sandbox: getCollateralBalanceSummary 200 does not match/)] : [],
        );
      } finally {
        await fresh.close();
      }
    }
  });
});
