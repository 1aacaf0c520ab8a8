// The one ledger every balance of the sandbox is kept in: an entry moves money only when its legs
// balance, all of it or none, and never takes an account's main or spot balance below zero; after
// trading, converting and investing through the API, the sum over every place is still zero for
// each asset, and the fees the deals charged are in the fee account.
import { describe, expect, it } from 'vitest';
import { house, Ledger, main, spot, transfer } from '../../sandbox/ledger.ts';
import { SandboxState } from '../../sandbox/state.ts';
import { call, defaultFixture, partnerKey, strictSandbox, units } from './helpers.ts';

const fixture = defaultFixture();
const key = partnerKey(fixture);

describe('an entry of the ledger', () => {
  const state = () => new SandboxState(defaultFixture(), Math.floor(Date.now() / 1000));

  it('opens with the outside giving each account what it holds: every asset sums to zero', () => {
    const opened = state();
    expect(opened.ledger.imbalance(opened.accounts.values())).toEqual({});
    const held = [...opened.accounts.values()].reduce(
      (total, account) => total + units(account.main.get('USDT') ?? '0'),
      0n,
    );
    expect(units(opened.ledger.house('outside', 'USDT'))).toBeLessThanOrEqual(-held);
  });

  it('moves nothing when its legs do not balance', () => {
    const opened = state();
    const account = opened.account(key.account);
    const before = opened.snapshot();
    expect(() =>
      opened.ledger.post([
        { place: main(account), asset: 'USDT', amount: '-10' },
        { place: spot(account), asset: 'USDT', amount: '9' },
      ]),
    ).toThrow(/does not balance: it is off by -1/);
    expect(opened.snapshot()).toEqual(before);
  });

  it('moves nothing, not even its other legs, when it would take a balance below zero', () => {
    const opened = state();
    const account = opened.account(key.account);
    const before = opened.snapshot();
    const usdt = account.main.get('USDT') ?? '0';
    expect(() =>
      opened.ledger.post([
        ...transfer(main(account), house('fees'), 'BTC', '0.001'),
        ...transfer(main(account), spot(account), 'USDT', `${usdt}1`),
      ]),
    ).toThrow(/USDT of partner main would go below zero/);
    expect(opened.snapshot()).toEqual(before);
    expect(opened.ledger.entries).toBe(0);
  });

  it('finds a balance changed behind its back', () => {
    const opened = state();
    opened.account(key.account).main.set('USDT', '1');
    expect(opened.ledger.imbalance(opened.accounts.values())).toHaveProperty('USDT');
    expect(new Ledger().imbalance([])).toEqual({});
  });
});

describe('the ledger after trading, converting and investing through the API', () => {
  const suite = strictSandbox();

  it('still sums to zero for every asset, with the deals’ fees in the fee account', async () => {
    const { url } = suite.sandbox;
    const buy = await call(url, key, 'createMarketOrder', {
      fields: { market: 'BTC_USDT', side: 'buy', amount: '100' },
    });
    expect(buy.status, JSON.stringify(buy.body)).toBe(200);
    const sell = await call(url, key, 'createMarketOrder', {
      fields: { market: 'BTC_USDT', side: 'sell', amount: '0.01' },
    });
    expect(sell.status, JSON.stringify(sell.body)).toBe(200);
    const quote = await call(url, key, 'estimateConversion', {
      fields: { from: 'USDT', to: 'BTC', direction: 'from', amount: '50' },
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const confirmed = await call(url, key, 'confirmConversion', { fields: { quoteId: quote.body.id } });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    const plan = fixture.plans.find((candidate) => candidate.status === 'active' && !candidate.specialOffer);
    if (!plan) throw new Error('the fixture has no plan to invest in');
    // What the fixture's investments hold is lent out from the start.
    const lentBefore = units(suite.sandbox.state.ledger.house('lending', plan.currency));
    const invested = await call(url, key, 'createFixedInvestment', {
      fields: { planId: plan.id, amount: plan.minAmount },
    });
    expect(invested.status, JSON.stringify(invested.body)).toBe(201);

    const { state } = suite.sandbox;
    expect(state.ledger.imbalance(state.accounts.values())).toEqual({});
    const fees = [buy.body, sell.body].reduce((total, order) => total + units(order.dealFee), 0n);
    expect(fees).toBeGreaterThan(0n);
    expect(units(state.ledger.house('fees', 'USDT'))).toBe(fees);
    expect(units(state.ledger.house('lending', plan.currency))).toBe(lentBefore + units(plan.minAmount));

    // The collateral balance: a fee to the fee account, funding with the market, on the clock.
    const opened = await call(url, key, 'createCollateralMarketOrder', {
      fields: { market: 'BTC_PERP', side: 'buy', amount: '0.01' },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    suite.clock.now += 9 * 60 * 60 * 1000;
    suite.sandbox.settle();
    expect(state.ledger.imbalance(state.accounts.values())).toEqual({});
    expect(units(state.ledger.house('fees', 'USDT'))).toBeGreaterThan(fees);
  });
});
