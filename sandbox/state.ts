// The sandbox's mutable state, built from a fixture. Every change happens synchronously inside
// one request's handling, so concurrent requests cannot interleave between a check and a debit.
import { randomUUID } from 'node:crypto';
import type { CollateralItem, HistoryRecord } from './api-types.ts';
import { isNegative, normalize, subtract } from './decimal.ts';
import type { Fixture, FixtureKey, FixtureOrder, FixturePlan } from './fixture.ts';

export interface Investment {
  id: string;
  planId: string;
  currency: string;
  amount: string;
  createdAt: number;
}

export interface AccountState {
  id: string;
  /** Main balance by ticker, zero balances included. */
  main: Map<string, string>;
  collateral: CollateralItem[];
  orders: FixtureOrder[];
  /** History rows, oldest first (in the order they happened). */
  history: HistoryRecord[];
  investments: Investment[];
  cancelledOrders: FixtureOrder[];
}

function seededInvestments(history: HistoryRecord[]): Investment[] {
  const held = new Map<string, Investment>();
  for (const row of history) {
    if (held.has(row.investmentId)) continue;
    held.set(row.investmentId, {
      id: row.investmentId,
      planId: row.planId,
      currency: row.currency,
      amount: row.amount,
      createdAt: row.createdAt,
    });
  }
  return [...held.values()];
}

export class SandboxState {
  readonly assets: ReadonlySet<string>;
  readonly markets: ReadonlySet<string>;
  readonly perpetualMarkets: ReadonlySet<string>;
  readonly plans: ReadonlyMap<string, FixturePlan>;
  readonly keys: ReadonlyMap<string, FixtureKey>;
  readonly accounts: ReadonlyMap<string, AccountState>;

  constructor(fixture: Fixture) {
    this.assets = new Set(fixture.assets);
    this.markets = new Set(fixture.markets);
    this.perpetualMarkets = new Set(fixture.perpetualMarkets ?? []);
    this.plans = new Map(fixture.plans.map((plan) => [plan.id, { ...plan }]));
    this.keys = new Map(fixture.keys.map((key) => [key.apiKey, { ...key }]));
    this.accounts = new Map(
      fixture.accounts.map((account) => [
        account.id,
        {
          id: account.id,
          main: new Map(
            Object.entries(account.mainBalances ?? {}).map(([ticker, amount]) => [ticker, normalize(amount)]),
          ),
          collateral: structuredClone(account.collateralBalances ?? []),
          orders: structuredClone(account.openOrders ?? []),
          history: structuredClone(account.history ?? []).sort((a, b) => a.createdAt - b.createdAt),
          // Every investment the seeded history names is held from the start.
          investments: seededInvestments(account.history ?? []),
          cancelledOrders: [],
        },
      ]),
    );
  }

  account(id: string): AccountState {
    const account = this.accounts.get(id);
    if (!account) throw new Error(`no account ${id}`);
    return account;
  }

  /** The main balance of one asset ("0" when the account holds none). */
  mainBalance(accountId: string, ticker: string): string {
    return this.account(accountId).main.get(ticker) ?? '0';
  }

  /**
   * Moves `amount` out of the main balance into a new investment and records its history rows.
   * The caller has checked the plan and the amount; this refuses to make a balance negative.
   * What the plan has left, and its interest funds, shrink by the amount and its interest.
   */
  invest(
    accountId: string,
    plan: FixturePlan,
    amount: string,
    interest: string,
    createdAt: number,
    actionTypes: { open: number; invest: number },
  ): Investment {
    const account = this.account(accountId);
    const balance = subtract(account.main.get(plan.currency) ?? '0', amount);
    if (isNegative(balance)) throw new Error('invest would make a balance negative');
    account.main.set(plan.currency, balance);
    if (plan.available !== undefined) plan.available = subtract(plan.available, amount);
    if (plan.interestFunds !== undefined) plan.interestFunds = subtract(plan.interestFunds, interest);
    const investment: Investment = {
      id: randomUUID(),
      planId: plan.id,
      currency: plan.currency,
      amount: normalize(amount),
      createdAt,
    };
    account.investments.push(investment);
    for (const actionType of [actionTypes.open, actionTypes.invest]) {
      account.history.push({
        createdAt,
        planId: plan.id,
        investmentId: investment.id,
        currency: plan.currency,
        amount: investment.amount,
        transaction_id: randomUUID(),
        actionType: actionType as HistoryRecord['actionType'],
      });
    }
    return investment;
  }

  /** Removes the orders that match and returns them. */
  cancelOrders(accountId: string, matches: (order: FixtureOrder) => boolean): FixtureOrder[] {
    const account = this.account(accountId);
    const cancelled = account.orders.filter(matches);
    account.orders = account.orders.filter((order) => !matches(order));
    account.cancelledOrders.push(...cancelled);
    return cancelled;
  }

  /** A plain copy of the state, for tests and debugging. */
  snapshot() {
    return {
      plans: [...this.plans.values()].map((plan) => ({ ...plan })),
      accounts: [...this.accounts.values()].map((account) => ({
        id: account.id,
        mainBalances: Object.fromEntries(account.main),
        collateralBalances: structuredClone(account.collateral),
        openOrders: structuredClone(account.orders),
        cancelledOrders: structuredClone(account.cancelledOrders),
        history: structuredClone(account.history),
        investments: structuredClone(account.investments),
      })),
    };
  }
}
