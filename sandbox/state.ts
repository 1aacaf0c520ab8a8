// The sandbox's mutable state, built from a fixture. Every change happens synchronously inside
// one request's handling, so concurrent requests cannot interleave between a check and a debit.
// Every balance is kept in one ledger (ledger.ts) and changes only by its balanced entries.
import { randomBytes, randomUUID } from 'node:crypto';
import type { HistoryRecord } from './api-types.ts';
import { type Code, seededCodes } from './codes.ts';
import { add, normalize, subtract } from './decimal.ts';
import type {
  Fixture,
  FixtureAccount,
  FixtureAsset,
  FixtureConversion,
  FixtureFlexPlan,
  FixtureKey,
  FixtureOrder,
  FixturePlan,
  FixtureQuote,
  FixtureTransaction,
} from './fixture.ts';
import { type Books, house, Ledger, main, type TradeBalance, transfer } from './ledger.ts';
import { type Mining, seededMining } from './mining.ts';
import { type Deal, type MarketState, type Order, requirement } from './orders.ts';
import { SubAccountKeys } from './sub-account-keys.ts';
import { type SubAccount, seededSubAccounts } from './sub-accounts.ts';

export type { TradeBalance };

/** A fixed investment: its amount is lent for the plan's term (sandbox/lending.ts). */
export interface Investment {
  id: string;
  planId: string;
  currency: string;
  amount: string;
  createdAt: number;
  /** When its term started, Unix seconds: one seeded before the sandbox started starts at the start. */
  startsAt: number;
  /** When its term ends and the interest is paid with the amount, Unix seconds. */
  paymentTime: number;
  /** The interest of the whole term, reserved from the plan's interest funds. */
  interest: string;
  interestPaid: string;
  status: 'active' | 'closed';
  updatedAt: number;
}

/** A flexible investment: one active a plan, earning each whole day (sandbox/lending.ts). */
export interface FlexInvestment {
  id: string;
  planId: string;
  currency: string;
  /** What it holds now: what was invested, less withdrawals, plus the earnings reinvested. */
  invested: string;
  withAutoReinvest: boolean;
  status: 'active' | 'closed';
  createdAt: number;
  updatedAt: number;
  /** Until when its earnings are paid, Unix seconds: the next is due a day later. */
  earnedThrough: number;
}

/** An interest payment of a fixed investment. */
export interface InterestPayment {
  planId: string;
  investmentId: string;
  amount: string;
  ticker: string;
  timestamp: number;
}

/** A conversion quote, as the estimate answers it, until it expires. */
export interface Quote extends FixtureQuote {
  /** When it expires on the sandbox's clock (ms): from then on it is refused. */
  expiresAt: number;
}

/** A confirmed quote: a row of the conversion history. */
export type Conversion = FixtureConversion;

/** A deposit or a withdrawal of the account: a row of the deposit and withdrawal history. */
export interface WalletTransaction {
  method: 'deposit' | 'withdrawal';
  ticker: string;
  /** The amount the call named (a withdrawal) or that arrived (a deposit). */
  amount: string;
  fee: string;
  /** What it moved: left the main balance (a withdrawal), or came from outside (a deposit). */
  gross: string;
  address: string;
  memo: string;
  network: string | null;
  /** The caller's identifier of a withdrawal. */
  uniqueId: string | null;
  /** Unix seconds. */
  createdAt: number;
  transactionId: string;
  transactionHash: string | null;
  /** Where it is: a pending withdrawal is done at `doneAt`. */
  state: 'pending' | 'successful';
  /** When a pending withdrawal is done, on the sandbox's clock (ms). */
  doneAt?: number;
  confirmations: { actual: number; required: number } | null;
}

/** A deposit address handed out to the account. */
export interface DepositAddress {
  ticker: string;
  network: string;
  address: string;
  memo?: string;
}

/** A kill-switch timer of one market: unless set again, it cancels the open orders of `types` when it runs out. */
export interface KillSwitchTimer {
  market: string;
  /** When it was set, Unix seconds. */
  startTime: number;
  /** When it runs out, Unix seconds. */
  cancellationTime: number;
  /** The order kinds it cancels. */
  types: string[];
  /** When it runs out, on the sandbox's clock (ms). */
  runsOutAt: number;
}

export interface AccountState extends Books {
  /** The ledger the account's balances are kept in, the exchange's one: they change only by its entries. */
  readonly ledger: Ledger;
  /** Open orders by orderId, in the order they were placed. */
  orders: Map<number, Order>;
  /** Filled and cancelled orders, in the order they closed. */
  closed: Order[];
  /** Deals, oldest first. */
  deals: Deal[];
  /** Kill-switch timers by market. */
  killSwitches: Map<string, KillSwitchTimer>;
  /** Whether cancelled orders are kept in the order history. */
  recordCancelledOrders: boolean;
  /** History rows, oldest first (in the order they happened). */
  history: HistoryRecord[];
  investments: Investment[];
  /** Flex investments, oldest first; at most one active a plan. */
  flexInvestments: FlexInvestment[];
  /** The interest paid on fixed investments, oldest first. */
  interestPayments: InterestPayment[];
  /** Quotes not confirmed yet, expired ones included, by id. */
  quotes: Map<string, Quote>;
  /** Conversions, oldest first. */
  conversions: Conversion[];
  /** The quotes confirmed: a quote converts once. */
  usedQuoteIds: Set<string>;
  /** Deposits and withdrawals, oldest first. */
  transactions: WalletTransaction[];
  /** The uniqueIds of the account's withdrawals: each is taken once. */
  usedUniqueIds: Set<string>;
  /** The deposit addresses handed out, oldest first. */
  depositAddresses: DepositAddress[];
  /** The fixture's collateral positions, OTO and OCO orders (sandbox/collateral.ts takes them). */
  collateralSeed: Pick<FixtureAccount, 'collateralPositions' | 'otoOrders' | 'ocoOrders'>;
}

/** A deposit or withdrawal of the fixture, done before the sandbox started. */
function seededTransaction(seed: FixtureTransaction, asset: FixtureAsset | undefined): WalletTransaction {
  const fee = normalize(seed.fee ?? '0');
  const network = seed.network ?? null;
  const required = network === null ? undefined : confirmationsOf(asset, network);
  return {
    method: seed.method,
    ticker: seed.ticker,
    amount: normalize(seed.amount),
    fee,
    gross: normalize(seed.amount),
    address: seed.address,
    memo: seed.memo ?? '',
    network,
    uniqueId: seed.uniqueId ?? null,
    createdAt: seed.createdAt,
    transactionId: seed.transactionId ?? randomUUID(),
    transactionHash: seed.transactionHash ?? null,
    state: 'successful',
    confirmations: required === undefined ? null : { actual: required, required },
  };
}

/** How many confirmations a deposit of the asset on the network waits for (the asset list's). */
export function confirmationsOf(asset: FixtureAsset | undefined, network: string): number | undefined {
  const confirmations = asset?.confirmations;
  if (confirmations === null || typeof confirmations !== 'object') return undefined;
  const count = (confirmations as Record<string, unknown>)[network];
  return typeof count === 'number' ? count : undefined;
}

/** The term of a fixed plan in minutes (the fixture's, else ten days). */
export const durationOf = (plan: FixturePlan | undefined) => plan?.durationMinutes ?? 14_400;

/** A fixed investment made at `createdAt`; one made before the sandbox's `start` starts its term then. */
export function fixedInvestment(
  seed: { id: string; planId: string; currency: string; amount: string; createdAt: number; interest: string },
  plan: FixturePlan | undefined,
  start: number,
): Investment {
  const startsAt = Math.max(seed.createdAt, Math.floor(start));
  return {
    ...seed,
    amount: normalize(seed.amount),
    startsAt,
    paymentTime: startsAt + durationOf(plan) * 60,
    interestPaid: '0',
    status: 'active',
    updatedAt: seed.createdAt,
  };
}

function seededInvestments(
  account: FixtureAccount,
  plans: ReadonlyMap<string, FixturePlan>,
  start: number,
): Investment[] {
  const held = new Map<string, Investment>();
  for (const row of account.history ?? []) {
    if (held.has(row.investmentId)) continue;
    const plan = plans.get(row.planId);
    const seed = { ...row, id: row.investmentId, interest: '0' };
    held.set(row.investmentId, fixedInvestment(seed, plan, start));
  }
  for (const seed of account.fixedInvestments ?? []) {
    const plan = plans.get(seed.planId);
    const currency = plan?.currency ?? '';
    held.set(seed.id, fixedInvestment({ ...seed, currency, interest: '0' }, plan, start));
  }
  return [...held.values()];
}

function seededFlexInvestments(
  account: FixtureAccount,
  plans: ReadonlyMap<string, FixtureFlexPlan>,
  start: number,
): FlexInvestment[] {
  return (account.flexInvestments ?? []).map((seed) => ({
    id: seed.id,
    planId: seed.planId,
    currency: plans.get(seed.planId)?.currency ?? '',
    invested: normalize(seed.status === 'closed' ? '0' : seed.invested),
    withAutoReinvest: seed.withAutoReinvest ?? false,
    status: seed.status ?? 'active',
    createdAt: seed.createdAt,
    updatedAt: seed.createdAt,
    earnedThrough: Math.max(seed.createdAt, Math.floor(start)),
  }));
}

function marketState(market: Fixture['markets'][number]): MarketState {
  return {
    tradesEnabled: true,
    isCollateral: false,
    isTradFiFutures: false,
    tickSize: '',
    stepSize: '',
    fundingRate: '0.0001',
    ...market,
    delistedAt: market.delistedAt ?? null,
    price: normalize(market.price),
  };
}

/** A seeded open order, holding what it may spend (spot orders only). */
function seededOrder(
  seed: FixtureOrder,
  market: MarketState,
  createdAt: number,
): { order: Order; hold?: { asset: string; amount: string } } {
  const type = seed.type ?? 'limit';
  const kind = seed.kind ?? 'spot';
  const order: Order = {
    orderId: seed.orderId,
    clientOrderId: seed.clientOrderId ?? '',
    market: seed.market,
    kind,
    type,
    side: seed.side,
    amount: normalize(seed.amount),
    price: seed.price === undefined ? '0' : normalize(seed.price),
    ...(seed.activation_price === undefined ? {} : { activationPrice: normalize(seed.activation_price) }),
    activated: type === 'limit',
    postOnly: false,
    ioc: false,
    rpi: false,
    stp: 'no',
    ...(seed.positionSide ? { positionSide: seed.positionSide } : {}),
    timestamp: seed.timestamp ?? createdAt,
    dealStock: '0',
    dealMoney: '0',
    dealFee: '0',
    status: 'NEW',
    makerFee: market.makerFee,
    takerFee: market.takerFee,
  };
  if (kind !== 'spot') return { order };
  const hold = requirement({ ...order, market, clientOrderId: order.clientOrderId });
  order.hold = hold;
  return { order, hold };
}

export class SandboxState {
  readonly assets: ReadonlyMap<string, FixtureAsset>;
  readonly markets: ReadonlyMap<string, MarketState>;
  readonly plans: ReadonlyMap<string, FixturePlan>;
  /** The flexible-lending plans by id. */
  readonly flexPlans: ReadonlyMap<string, FixtureFlexPlan>;
  readonly keys: ReadonlyMap<string, FixtureKey>;
  /** The fees of deposits and withdrawals, by ticker (sandbox/wallet.ts reads them). */
  readonly transferFees: NonNullable<Fixture['transferFees']>;
  readonly accounts: ReadonlyMap<string, AccountState>;
  /** The one ledger every balance of every account is kept in. */
  readonly ledger = new Ledger();
  /** Every code made, by the code (sandbox/codes.ts): any account may apply one. */
  readonly codes: Map<string, Code>;
  /** The sub-accounts by id (sandbox/sub-accounts.ts); each one's books are the account of that id. */
  readonly subAccounts: Map<string, SubAccount>;
  /** Each account's mining, by account id (sandbox/mining.ts). */
  readonly mining: Map<string, Mining>;
  /** The sub-accounts' API keys (sandbox/sub-account-keys.ts), their secrets out of sight. */
  readonly subAccountKeys = new SubAccountKeys();
  /** `accounts`, which a sub-account made later joins. */
  readonly #accounts: Map<string, AccountState>;
  #lastOrderId: number;
  #lastDealId = 149_160_000;
  #lastQuoteId: number;
  #lastConversionId: number;
  /**
   * The WebSocket tokens handed out, each to the account it authorizes: a private field, so that
   * no inspection or snapshot of the state shows one.
   */
  readonly #streamTokens = new Map<string, string>();
  /**
   * The fiat gateway's tokens handed out (issueJwtToken), each with its account and the Unix
   * second it stops being taken; private, as the stream tokens are.
   */
  readonly #gatewayTokens = new Map<string, { accountId: string; expiresAt: number }>();

  /** `createdAt`: Unix seconds that seeded orders without a timestamp were placed at. */
  constructor(fixture: Fixture, createdAt: number) {
    this.assets = new Map(Object.entries(structuredClone(fixture.assets)));
    this.markets = new Map(fixture.markets.map((market) => [market.name, marketState(market)]));
    this.plans = new Map(fixture.plans.map((plan) => [plan.id, { ...plan }]));
    this.flexPlans = new Map((fixture.flexPlans ?? []).map((plan) => [plan.id, { ...plan }]));
    this.keys = new Map(fixture.keys.map((key) => [key.apiKey, { ...key }]));
    this.transferFees = structuredClone(fixture.transferFees ?? {});
    const seededIds = fixture.accounts.flatMap((account) => (account.openOrders ?? []).map((o) => o.orderId));
    this.#lastOrderId = Math.max(4_180_300_000, ...seededIds);
    const seededQuotes = fixture.accounts.flatMap((account) => [
      ...(account.quotes ?? []).map((quote) => Number(quote.id)),
      ...(account.conversions ?? []).map((conversion) => Number(conversion.quoteId)),
    ]);
    this.#lastQuoteId = Math.max(5_000, ...seededQuotes);
    this.#lastConversionId = Math.max(
      5_000,
      ...fixture.accounts.flatMap((account) => (account.conversions ?? []).map((row) => Number(row.id))),
    );
    this.#accounts = new Map(
      fixture.accounts.map((account) => {
        const state: AccountState = {
          id: account.id,
          ledger: this.ledger,
          main: new Map(
            Object.entries(account.mainBalances ?? {}).map(([ticker, amount]) => [ticker, normalize(amount)]),
          ),
          trade: new Map(
            Object.entries(account.tradeBalances ?? {}).map(([ticker, amount]) => [
              ticker,
              { available: normalize(amount), frozen: '0' },
            ]),
          ),
          collateral: structuredClone(account.collateralBalances ?? []),
          orders: new Map(),
          closed: [],
          deals: [],
          killSwitches: new Map(),
          recordCancelledOrders: account.recordCancelledOrders ?? true,
          history: structuredClone(account.history ?? []).sort((a, b) => a.createdAt - b.createdAt),
          // Every investment the seeded history names is held from the start.
          investments: seededInvestments(account, this.plans, createdAt),
          flexInvestments: seededFlexInvestments(account, this.flexPlans, createdAt),
          interestPayments: [],
          quotes: new Map(
            (account.quotes ?? []).map((quote) => [
              quote.id,
              { ...quote, expiresAt: quote.expireAt * 1000 } satisfies Quote,
            ]),
          ),
          conversions: structuredClone(account.conversions ?? []).sort(
            (a, b) => a.date - b.date || Number(a.id) - Number(b.id),
          ),
          usedQuoteIds: new Set((account.conversions ?? []).map((conversion) => conversion.quoteId)),
          transactions: (account.transactions ?? [])
            .map((seed) => seededTransaction(seed, fixture.assets[seed.ticker]))
            .sort((a, b) => a.createdAt - b.createdAt),
          usedUniqueIds: new Set(
            (account.transactions ?? []).flatMap((seed) =>
              seed.uniqueId === undefined ? [] : [seed.uniqueId],
            ),
          ),
          depositAddresses: [],
          collateralSeed: structuredClone({
            collateralPositions: account.collateralPositions ?? [],
            otoOrders: account.otoOrders ?? [],
            ocoOrders: account.ocoOrders ?? [],
          }),
        };
        for (const seed of account.openOrders ?? []) {
          const { order, hold } = seededOrder(seed, this.market(seed.market), createdAt);
          state.orders.set(order.orderId, order);
          if (hold) {
            // Held on top of what the fixture says is available.
            const balance = state.trade.get(hold.asset) ?? { available: '0', frozen: '0' };
            state.trade.set(hold.asset, { ...balance, frozen: add(balance.frozen, hold.amount) });
          }
        }
        return [account.id, state];
      }),
    );
    this.accounts = this.#accounts;
    this.ledger.open(this.accounts.values());
    // What the seeded fixed and flex investments hold is lent out from the start.
    for (const account of this.accounts.values()) {
      for (const held of account.investments) this.ledger.openHouse('lending', held.currency, held.amount);
      for (const held of account.flexInvestments)
        if (held.status === 'active') this.ledger.openHouse('lending', held.currency, held.invested);
    }
    this.codes = seededCodes(fixture.codes ?? [], this.ledger);
    this.subAccounts = seededSubAccounts(fixture.accounts);
    this.mining = seededMining(fixture.accounts);
    for (const account of fixture.accounts)
      this.subAccountKeys.seed(account.id, account.subAccount?.apiKeys ?? [], createdAt);
  }

  /** A new account with nothing in it (a sub-account made by a call), kept in the one ledger. */
  openAccount(id: string): AccountState {
    if (this.#accounts.has(id)) throw new Error(`account ${id} exists`);
    const account: AccountState = {
      id,
      ledger: this.ledger,
      main: new Map(),
      trade: new Map(),
      collateral: [],
      orders: new Map(),
      closed: [],
      deals: [],
      killSwitches: new Map(),
      recordCancelledOrders: true,
      history: [],
      investments: [],
      flexInvestments: [],
      interestPayments: [],
      quotes: new Map(),
      conversions: [],
      usedQuoteIds: new Set(),
      transactions: [],
      usedUniqueIds: new Set(),
      depositAddresses: [],
      collateralSeed: { collateralPositions: [], otoOrders: [], ocoOrders: [] },
    };
    this.#accounts.set(id, account);
    return account;
  }

  /**
   * The key a call is signed with, by its public key: a fixture's key, or a key of a
   * sub-account that is not deleted, which acts as that sub-account. Made for this call, so
   * that the sub-account key's secret is held nowhere but its private store.
   */
  signingKey(apiKey: string): FixtureKey | undefined {
    const fixed = this.keys.get(apiKey);
    if (fixed) return fixed;
    const key = this.subAccountKeys.byApiKey(apiKey);
    const sub = key && this.subAccounts.get(key.subAccountId);
    if (!key || !sub || sub.deleted) return undefined;
    return { apiKey, secret: this.subAccountKeys.secretOf(key.id), account: sub.id, partner: false };
  }

  account(id: string): AccountState {
    const account = this.accounts.get(id);
    if (!account) throw new Error(`no account ${id}`);
    return account;
  }

  market(name: string): MarketState {
    const market = this.markets.get(name);
    if (!market) throw new Error(`no market ${name}`);
    return market;
  }

  nextOrderId(): number {
    this.#lastOrderId += 1;
    return this.#lastOrderId;
  }

  nextDealId(): number {
    this.#lastDealId += 1;
    return this.#lastDealId;
  }

  /** A new quote's id, a string of digits unique across every account. */
  nextQuoteId(): string {
    this.#lastQuoteId += 1;
    return String(this.#lastQuoteId);
  }

  /**
   * Carries out a quote of the account, as one step: the main balance of `from` gives the
   * quote's `give`, that of `to` receives its `receive`, the quote is used up and the conversion
   * recorded. The caller has checked the quote and the balance; this refuses to make a balance
   * negative, so that no check left out can create money.
   */
  convert(accountId: string, quote: Quote, date: number): Conversion {
    const account = this.account(accountId);
    if (account.quotes.get(quote.id) !== quote)
      throw new Error(`quote ${quote.id} is not open in ${accountId}`);
    // The market takes what is given and gives what is received.
    this.ledger.post([
      ...transfer(main(account), house('market'), quote.from, quote.give),
      ...transfer(house('market'), main(account), quote.to, quote.receive),
    ]);
    account.quotes.delete(quote.id);
    account.usedQuoteIds.add(quote.id);
    this.#lastConversionId += 1;
    const conversion: Conversion = {
      id: String(this.#lastConversionId),
      quoteId: quote.id,
      date,
      from: quote.from,
      to: quote.to,
      give: quote.give,
      receive: quote.receive,
      rate: quote.rate,
    };
    account.conversions.push(conversion);
    return conversion;
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
    this.ledger.post(transfer(main(account), house('lending'), plan.currency, amount));
    if (plan.available !== undefined) plan.available = subtract(plan.available, amount);
    if (plan.interestFunds !== undefined) plan.interestFunds = subtract(plan.interestFunds, interest);
    const investment = fixedInvestment(
      { id: randomUUID(), planId: plan.id, currency: plan.currency, amount, createdAt, interest },
      plan,
      createdAt,
    );
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

  /**
   * The account's WebSocket token: random, made at the first request and handed out again until
   * the state is reset (the documents do not say how long a token lasts; this one lasts as long as
   * the state).
   */
  streamToken(accountId: string): string {
    this.account(accountId);
    for (const [token, owner] of this.#streamTokens) if (owner === accountId) return token;
    const token = randomBytes(24).toString('base64url');
    this.#streamTokens.set(token, accountId);
    return token;
  }

  /** The account a WebSocket token authorizes, or undefined for a token this state never handed out. */
  accountOfStreamToken(token: string): AccountState | undefined {
    const owner = this.#streamTokens.get(token);
    return owner === undefined ? undefined : this.account(owner);
  }

  /**
   * A new fiat-gateway token for the account, taken until `expiresAt` (Unix seconds): random, and
   * remembered until the state is reset, so that only a token this sandbox issued is taken.
   */
  gatewayToken(accountId: string, expiresAt: number): string {
    this.account(accountId);
    const token = randomBytes(24).toString('base64url');
    this.#gatewayTokens.set(token, { accountId, expiresAt });
    return token;
  }

  /**
   * The account a fiat-gateway token authorizes at `now` (Unix seconds), or undefined for a token
   * this state never issued or one that expired.
   */
  accountOfGatewayToken(token: string, now: number): AccountState | undefined {
    const issued = this.#gatewayTokens.get(token);
    return issued && now < issued.expiresAt ? this.account(issued.accountId) : undefined;
  }

  /** A plain copy of the state, for tests and debugging. */
  snapshot() {
    return {
      plans: [...this.plans.values()].map((plan) => ({ ...plan })),
      flexPlans: [...this.flexPlans.values()].map((plan) => ({ ...plan })),
      markets: [...this.markets.values()].map((market) => ({ ...market })),
      accounts: [...this.accounts.values()].map((account) => ({
        id: account.id,
        mainBalances: Object.fromEntries(account.main),
        tradeBalances: Object.fromEntries(
          [...account.trade].map(([ticker, balance]) => [ticker, { ...balance }]),
        ),
        collateralBalances: structuredClone(account.collateral),
        openOrders: structuredClone([...account.orders.values()]),
        closedOrders: structuredClone(account.closed),
        deals: structuredClone(account.deals),
        killSwitches: structuredClone([...account.killSwitches.values()]),
        history: structuredClone(account.history),
        investments: structuredClone(account.investments),
        flexInvestments: structuredClone(account.flexInvestments),
        interestPayments: structuredClone(account.interestPayments),
        quotes: structuredClone([...account.quotes.values()]),
        conversions: structuredClone(account.conversions),
        transactions: structuredClone(account.transactions),
        usedUniqueIds: [...account.usedUniqueIds],
        depositAddresses: structuredClone(account.depositAddresses),
      })),
      codes: structuredClone([...this.codes.values()]),
      subAccounts: structuredClone([...this.subAccounts.values()]),
      mining: structuredClone([...this.mining]),
      subAccountKeys: this.subAccountKeys.snapshot(),
      houses: this.ledger.houses(),
    };
  }
}
