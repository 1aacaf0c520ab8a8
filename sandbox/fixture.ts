// The sandbox's starting state: sandbox/fixture.json by default, or any file that follows
// sandbox/fixture.schema.json (SANDBOX_FIXTURE=path).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { operations } from '../generated/operations.ts';
import { compileSchema } from '../model/compiled-schema.ts';
import { createSchemaValidator } from '../model/document.ts';
import type { CollateralItem, HistoryRecord, OrderKind, OrderSide } from './api-types.ts';
import { compare, decimalPlaces, isZero } from './decimal.ts';
import { projectDocuments } from './document.ts';

export interface FixturePlan {
  id: string;
  currency: string;
  status: 'active' | 'paused' | 'inactive' | 'disabled' | 'no-coins-left';
  minAmount: string;
  maxAmount: string;
  /** A special offer, not available through the API. */
  specialOffer?: boolean;
  /** What is left to invest in the plan (absent: no limit). */
  available?: string;
  /** Most digits after the point an amount may have (absent: any). */
  decimals?: number;
  /** Interest owed per unit invested (0.1 is 10 %). */
  interestRate?: string;
  /** What the plan holds to pay interest with (absent: no limit). */
  interestFunds?: string;
  /** The term of an investment in minutes, at whose end the interest is paid (default 14400, ten days). */
  durationMinutes?: number;
  description?: string;
}

/** A flexible-lending plan (sandbox/lending.ts). */
export interface FixtureFlexPlan {
  id: string;
  currency: string;
  /** Default active; inactive plans are unknown to the API, the others refuse investments. */
  status?: 'active' | 'paused' | 'unavailable' | 'inactive';
  /** Given to no account: listed nowhere, investing gets flexPlanPrivate. */
  private?: boolean;
  minAmount: string;
  maxAmount: string;
  /** The yearly interest rate (0.15 is 15 %), earned a 365th each whole day. */
  maxRate: string;
  /** What is left to invest in the plan, every account together (absent: no limit). */
  available?: string;
  description?: string;
}

/** A fixed investment held from the start; its amount is already out of the main balance. */
export interface FixtureFixedInvestment {
  id: string;
  planId: string;
  amount: string;
  /** Unix seconds. */
  createdAt: number;
}

/** A flex investment held from the start; what it holds is already out of the main balance. */
export interface FixtureFlexInvestment {
  id: string;
  planId: string;
  invested: string;
  /** Default false. */
  withAutoReinvest?: boolean;
  /** Default active; a closed one holds nothing. */
  status?: 'active' | 'closed';
  /** Unix seconds. */
  createdAt: number;
}

/**
 * A market as `GET /api/v4/public/markets` lists it, plus the price the sandbox fills at.
 * Fields with a default may be left out.
 */
export interface FixtureMarket {
  name: string;
  stock: string;
  money: string;
  stockPrec: string;
  moneyPrec: string;
  feePrec: string;
  makerFee: string;
  takerFee: string;
  minAmount: string;
  minTotal: string;
  /** `"0"`: no limit. */
  maxTotal: string;
  type: 'spot' | 'futures' | 'tradfiFutures';
  /** Default true; false: not listed, and orders are refused as on a market that is not available. */
  tradesEnabled?: boolean;
  /** Default false. */
  isCollateral?: boolean;
  /** Default false. */
  isTradFiFutures?: boolean;
  /** Unix seconds of an announced delisting (default null): from then on the market stops trading. */
  delistedAt?: number | null;
  /** The price step (default ""; none). */
  tickSize?: string;
  /** The amount step (default ""; none). */
  stepSize?: string;
  /** The price market orders fill at and limit orders are matched against; tests move it. */
  price: string;
  /** A perpetual (futures) market's funding rate per settlement (default "0.0001"). */
  fundingRate?: string;
}

export type OrderType = 'limit' | 'stop limit' | 'stop market';

/** An open order present from the start. */
export interface FixtureOrder {
  orderId: number;
  market: string;
  side: OrderSide;
  /** Default limit. */
  type?: OrderType;
  /** Default spot; margin and futures orders hold collateral, not the trade balance. */
  kind?: OrderKind;
  /** In the base asset; for a stop-market buy, the quote to spend. */
  amount: string;
  /** The limit price (limit and stop-limit orders). */
  price?: string;
  /** The activation price (stop orders). */
  activation_price?: string;
  clientOrderId?: string;
  /** The position side of a futures order of a perpetual market. */
  positionSide?: 'long' | 'short';
  /** Creation time, Unix seconds (default: the sandbox's start). */
  timestamp?: number;
}

/** A collateral position open from the start. */
export interface FixturePosition {
  positionId: number;
  market: string;
  /** Signed, in the base asset: above zero long, below zero short. */
  amount: string;
  /** The average entry price. */
  basePrice: string;
  /** BOTH (one-way mode, the default) or the side in hedge mode. */
  positionSide?: 'BOTH' | 'LONG' | 'SHORT';
  /** Unix seconds (default: the sandbox's start). */
  openDate?: number;
}

/** An OTO order: the stop-loss and take-profit an open order was placed with. */
export interface FixtureOto {
  otoId: number;
  market: string;
  /** The open order (of `openOrders`) it belongs to. */
  orderId: number;
  stopLoss?: string;
  takeProfit?: string;
}

/** An OCO order: a take-profit limit and a stop-loss stop-limit, both open orders of `openOrders`. */
export interface FixtureOco {
  id: number;
  market: string;
  stopLossOrderId: number;
  takeProfitOrderId: number;
  reduceOnly?: boolean;
}

/** A conversion quote made before the sandbox started, not confirmed yet. */
export interface FixtureQuote {
  /** A string of digits, unique across the fixture's quotes and conversions. */
  id: string;
  from: string;
  to: string;
  /** What confirming it takes of the main balance of `from`. */
  give: string;
  /** What confirming it adds to the main balance of `to`. */
  receive: string;
  /** Units of `to` for one unit of `from`. */
  rate: string;
  /** Unix seconds from which it is expired. */
  expireAt: number;
}

/** A conversion made before the sandbox started: a row of the conversion history. */
export interface FixtureConversion {
  /** The record's id, a string of digits. */
  id: string;
  /** The quote it confirmed, which counts as used. */
  quoteId: string;
  /** Unix seconds. */
  date: number;
  from: string;
  to: string;
  give: string;
  receive: string;
  rate: string;
}

/** A deposit or withdrawal done before the sandbox started: a row of the deposit and withdrawal history. */
export interface FixtureTransaction {
  method: 'deposit' | 'withdrawal';
  ticker: string;
  /** What arrived (a deposit) or left the main balance, the fee included (a withdrawal). */
  amount: string;
  /** Default "0". */
  fee?: string;
  address: string;
  memo?: string;
  network?: string;
  /** A withdrawal's uniqueId, which counts as taken. */
  uniqueId?: string;
  /** Unix seconds. */
  createdAt: number;
  transactionId?: string;
  transactionHash?: string;
}

/**
 * The fee of a deposit or a withdrawal of an asset: `fixed` plus `percent` % of the amount, the
 * percentage part held between `minFee` and `maxFee` ("0" or none: no upper bound). Each defaults
 * to "0".
 */
export interface FixtureTransferFee {
  fixed?: string;
  percent?: string;
  minFee?: string;
  maxFee?: string;
}

export interface FixtureAccount {
  id: string;
  mainBalances?: Record<string, string>;
  /** What the trade account has available by ticker; the open spot orders hold their funds on top. */
  tradeBalances?: Record<string, string>;
  collateralBalances?: CollateralItem[];
  openOrders?: FixtureOrder[];
  /** Collateral positions open from the start. */
  collateralPositions?: FixturePosition[];
  /** OTO orders (a stop-loss and take-profit) on open orders of `openOrders`. */
  otoOrders?: FixtureOto[];
  /** OCO orders whose two legs are open orders of `openOrders`. */
  ocoOrders?: FixtureOco[];
  history?: HistoryRecord[];
  /**
   * Whether cancelled orders are kept in the order history (default true). Observed upstream:
   * the operator keeps none for B2B partner accounts unless its support turns it on.
   */
  recordCancelledOrders?: boolean;
  /** Conversion quotes not confirmed yet. */
  quotes?: FixtureQuote[];
  /** The conversion history. */
  conversions?: FixtureConversion[];
  /** Deposits and withdrawals done before the start; the balances already hold their result. */
  transactions?: FixtureTransaction[];
  /** Makes the account a sub-account of another (createSubAccount). */
  subAccount?: FixtureSubAccount;
  /** Fixed investments held from the start (besides those the history names). */
  fixedInvestments?: FixtureFixedInvestment[];
  /** Flex investments held from the start, at most one active a plan. */
  flexInvestments?: FixtureFlexInvestment[];
  /** Mining accounts made before the start (createMiningAccount), oldest first. */
  miningAccounts?: FixtureMiningAccount[];
}

/** A mining account of the fixture: its name and when it was made (Unix seconds). */
export interface FixtureMiningAccount {
  name: string;
  createdAt: number;
}

/** What makes an account a sub-account: its parent, and the facts the list shows. */
export interface FixtureSubAccount {
  /** The id of the account it belongs to. */
  parent: string;
  alias: string;
  email?: string;
  /** Default false. */
  shareKyc?: boolean;
  permissions: { spotEnabled: boolean; collateralEnabled: boolean };
  /** Default false. */
  blocked?: boolean;
  /** API keys that sign as the sub-account (createSubAccountApiKey). */
  apiKeys?: FixtureSubAccountKey[];
  /** Withdrawals it made that wait for its parent's confirmation (confirmSubAccountWithdrawal). */
  unconfirmedWithdrawals?: FixtureSubAccountWithdrawal[];
}

/** A sub-account's API key present from the start. */
export interface FixtureSubAccountKey {
  id: string;
  apiKey: string;
  secret: string;
  title: string;
  /** A `type` of the documents' `x-key-type-permissions`. */
  type: number;
  /** The addresses it may call from (default none: any). */
  ipAddresses?: string[];
}

/**
 * A withdrawal a sub-account made that waits for its parent's confirmation: nothing has left its
 * balance yet; confirming it checks the balance then.
 */
export interface FixtureSubAccountWithdrawal {
  /** The withdrawal's id (a UUID), which confirming it takes. */
  id: string;
  ticker: string;
  /** What leaves the sub-account's main balance, the fee included. */
  amount: string;
  address: string;
  network?: string;
  /** Unix seconds. */
  createdAt: number;
}

/** A code made before the sandbox started (createCode), applied or not. */
export interface FixtureCode {
  code: string;
  ticker: string;
  amount: string;
  /** The id of the account that made it. */
  creator: string;
  passphrase?: string;
  description?: string;
  /** Unix seconds. */
  createdAt: number;
  externalId: string;
  /** The id of the account that applied it; none: not applied yet. */
  appliedBy?: string;
  /** Unix seconds. */
  appliedAt?: number;
  applyExternalId?: string;
}

export interface FixtureKey {
  apiKey: string;
  secret: string;
  account: string;
  enabled?: boolean;
  partner?: boolean;
  /** May hold several investments in one plan (default true). */
  multipleInvestments?: boolean;
  operations?: string[];
  description?: string;
}

/** An asset as `GET /api/v4/public/assets` lists it (any of the document's fields). */
export type FixtureAsset = Record<string, unknown>;

export interface Fixture {
  credentials?: string;
  /** Known assets by ticker, each as the public asset list gives it. */
  assets: Record<string, FixtureAsset>;
  markets: FixtureMarket[];
  plans: FixturePlan[];
  /** The flexible-lending plans (default none). */
  flexPlans?: FixtureFlexPlan[];
  accounts: FixtureAccount[];
  keys: FixtureKey[];
  /** The fees of deposits and withdrawals, by ticker (an asset not here charges none). */
  transferFees?: Record<string, { deposit?: FixtureTransferFee; withdraw?: FixtureTransferFee }>;
  /** Codes made before the start; the balances already hold their result. */
  codes?: FixtureCode[];
}

export const defaultFixturePath = fileURLToPath(new URL('./fixture.json', import.meta.url));
const schemaPath = fileURLToPath(new URL('./fixture.schema.json', import.meta.url));

let validateFixture: ReturnType<ReturnType<typeof createSchemaValidator>['compile']> | undefined;

/** The checks of the markets and of the open orders on them; problems are added to `problems`. */
function checkMarkets(fixture: Fixture, problems: string[]) {
  const markets = new Map(fixture.markets.map((market) => [market.name, market]));
  for (const market of fixture.markets) {
    for (const ticker of [market.stock, market.money]) {
      if (!(ticker in fixture.assets)) problems.push(`market ${market.name}: unknown asset ${ticker}`);
    }
    if (isZero(market.price)) problems.push(`market ${market.name}: price must be above 0`);
    for (const step of ['tickSize', 'stepSize'] as const) {
      if (market[step] && isZero(market[step] as string))
        problems.push(`market ${market.name}: ${step} is 0`);
    }
  }
  const orderIds = new Set<number>();
  for (const account of fixture.accounts) {
    const clientOrderIds = new Set<string>();
    for (const order of account.openOrders ?? []) {
      const where = `account ${account.id} order ${order.orderId}`;
      if (orderIds.has(order.orderId)) problems.push(`duplicate orderId ${order.orderId}`);
      orderIds.add(order.orderId);
      // Open orders of one account on one market never share a clientOrderId (the service
      // refuses the second while the first is open); on different markets they may.
      if (order.clientOrderId) {
        const id = `${order.market}\u0000${order.clientOrderId}`;
        if (clientOrderIds.has(id)) problems.push(`${where}: clientOrderId used twice on ${order.market}`);
        clientOrderIds.add(id);
      }
      const market = markets.get(order.market);
      if (!market) {
        problems.push(`${where}: unknown market ${order.market}`);
        continue;
      }
      const kind = order.kind ?? 'spot';
      if ((kind === 'futures') !== (market.type !== 'spot')) {
        problems.push(`${where}: a ${kind} order on a ${market.type} market`);
      }
      if (order.positionSide && kind !== 'futures')
        problems.push(`${where}: positionSide on a ${kind} order`);
      const type = order.type ?? 'limit';
      if (type !== 'stop market' && order.price === undefined)
        problems.push(`${where}: a ${type} order needs a price`);
      if (type !== 'limit' && order.activation_price === undefined) {
        problems.push(`${where}: a ${type} order needs an activation_price`);
      }
      const quoteSized = type === 'stop market' && order.side === 'buy';
      if (decimalPlaces(order.amount) > Number(quoteSized ? market.moneyPrec : market.stockPrec)) {
        problems.push(`${where}: amount has more decimals than the market allows`);
      }
    }
  }
}

/** Checks a fixture's shape and its cross references; throws with every problem found. */
export function checkFixture(value: unknown): Fixture {
  validateFixture ??= compileSchema(createSchemaValidator(), JSON.parse(readFileSync(schemaPath, 'utf8')));
  if (!validateFixture(value)) {
    const problems = (validateFixture.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
    throw new Error(`invalid sandbox fixture:\n  ${problems.join('\n  ')}`);
  }
  const fixture = value as Fixture;
  const problems: string[] = [];
  const assets = new Set(Object.keys(fixture.assets));
  const accounts = new Set(fixture.accounts.map((account) => account.id));
  const actionTypes = projectDocuments().schemaEnum('private-v4', 'ActionType');
  const unique = (what: string, ids: string[]) => {
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id)) problems.push(`duplicate ${what} ${id}`);
      seen.add(id);
    }
  };
  unique(
    'plan',
    fixture.plans.map((plan) => plan.id),
  );
  unique(
    'market',
    fixture.markets.map((market) => market.name),
  );
  unique(
    'account',
    fixture.accounts.map((account) => account.id),
  );
  unique(
    'apiKey',
    fixture.keys.map((key) => key.apiKey),
  );
  for (const plan of fixture.plans) {
    if (!assets.has(plan.currency)) problems.push(`plan ${plan.id}: unknown currency ${plan.currency}`);
    if (compare(plan.minAmount, plan.maxAmount) > 0) problems.push(`plan ${plan.id}: minAmount > maxAmount`);
  }
  const flexPlans = new Map((fixture.flexPlans ?? []).map((plan) => [plan.id, plan]));
  unique('plan', [...fixture.plans.map((plan) => plan.id), ...flexPlans.keys()]);
  for (const plan of flexPlans.values()) {
    if (!assets.has(plan.currency)) problems.push(`flex plan ${plan.id}: unknown currency ${plan.currency}`);
    if (compare(plan.minAmount, plan.maxAmount) > 0)
      problems.push(`flex plan ${plan.id}: minAmount > maxAmount`);
  }
  const fixedPlans = new Set(fixture.plans.map((plan) => plan.id));
  for (const account of fixture.accounts) {
    for (const held of account.fixedInvestments ?? []) {
      if (!fixedPlans.has(held.planId)) problems.push(`account ${account.id}: unknown plan ${held.planId}`);
    }
    const active = new Set<string>();
    for (const held of account.flexInvestments ?? []) {
      if (!flexPlans.has(held.planId))
        problems.push(`account ${account.id}: unknown flex plan ${held.planId}`);
      if ((held.status ?? 'active') !== 'active') continue;
      if (active.has(held.planId))
        problems.push(`account ${account.id}: two active investments in ${held.planId}`);
      active.add(held.planId);
    }
  }
  checkMarkets(fixture, problems);
  for (const account of fixture.accounts) {
    for (const ticker of [
      ...Object.keys(account.mainBalances ?? {}),
      ...Object.keys(account.tradeBalances ?? {}),
    ]) {
      if (!assets.has(ticker)) problems.push(`account ${account.id}: unknown asset ${ticker}`);
    }
    for (const item of account.collateralBalances ?? []) {
      if (!assets.has(item.asset)) problems.push(`account ${account.id}: unknown asset ${item.asset}`);
    }
    for (const row of account.history ?? []) {
      if (!actionTypes.includes(row.actionType)) {
        problems.push(`account ${account.id}: history actionType ${row.actionType} is not in the document`);
      }
    }
    for (const conversion of [...(account.quotes ?? []), ...(account.conversions ?? [])]) {
      for (const ticker of [conversion.from, conversion.to]) {
        if (!assets.has(ticker)) problems.push(`account ${account.id}: unknown asset ${ticker}`);
      }
      if (conversion.from === conversion.to)
        problems.push(`account ${account.id}: ${conversion.id} converts ${conversion.from} into itself`);
    }
  }
  for (const account of fixture.accounts) {
    for (const row of account.transactions ?? []) {
      if (!assets.has(row.ticker)) problems.push(`account ${account.id}: unknown asset ${row.ticker}`);
      if (row.method === 'deposit' && row.uniqueId !== undefined)
        problems.push(`account ${account.id}: a deposit has no uniqueId (${row.uniqueId})`);
    }
    // A withdrawal's uniqueId is taken once in its account.
    const ids = (account.transactions ?? []).flatMap((row) =>
      row.uniqueId === undefined ? [] : [row.uniqueId],
    );
    if (new Set(ids).size !== ids.length) problems.push(`account ${account.id}: a uniqueId is used twice`);
  }
  for (const ticker of Object.keys(fixture.transferFees ?? {})) {
    if (!assets.has(ticker)) problems.push(`transferFees: unknown asset ${ticker}`);
  }
  // A quote is used once: a quote id names one open quote or one conversion, in one account.
  unique(
    'quote',
    fixture.accounts.flatMap((account) => [
      ...(account.quotes ?? []).map((quote) => quote.id),
      ...(account.conversions ?? []).map((conversion) => conversion.quoteId),
    ]),
  );
  unique(
    'conversion',
    fixture.accounts.flatMap((account) => (account.conversions ?? []).map((conversion) => conversion.id)),
  );
  unique(
    'code',
    (fixture.codes ?? []).map((code) => code.code),
  );
  for (const code of fixture.codes ?? []) {
    if (!assets.has(code.ticker)) problems.push(`code ${code.code}: unknown asset ${code.ticker}`);
    for (const owner of [code.creator, code.appliedBy ?? code.creator]) {
      if (!accounts.has(owner)) problems.push(`code ${code.code}: unknown account ${owner}`);
    }
    if (code.appliedBy === code.creator)
      problems.push(`code ${code.code}: applied by the account that made it`);
    if ((code.appliedBy === undefined) !== (code.appliedAt === undefined))
      problems.push(`code ${code.code}: appliedBy and appliedAt go together`);
  }
  for (const account of fixture.accounts) {
    const sub = account.subAccount;
    if (!sub) continue;
    const parent = fixture.accounts.find((candidate) => candidate.id === sub.parent);
    if (!parent) problems.push(`account ${account.id}: unknown parent ${sub.parent}`);
    else if (parent.subAccount)
      problems.push(`account ${account.id}: its parent ${sub.parent} is a sub-account`);
    for (const withdrawal of sub.unconfirmedWithdrawals ?? []) {
      if (!assets.has(withdrawal.ticker))
        problems.push(
          `account ${account.id} withdrawal ${withdrawal.id}: unknown asset ${withdrawal.ticker}`,
        );
    }
  }
  unique(
    'sub-account withdrawal id',
    fixture.accounts.flatMap((account) =>
      (account.subAccount?.unconfirmedWithdrawals ?? []).map((w) => w.id),
    ),
  );
  unique(
    'sub-account alias',
    fixture.accounts.flatMap((account) =>
      account.subAccount ? [`${account.subAccount.parent}/${account.subAccount.alias}`] : [],
    ),
  );
  for (const key of fixture.keys) {
    if (!accounts.has(key.account)) problems.push(`key ${key.apiKey}: unknown account ${key.account}`);
    for (const operationId of key.operations ?? []) {
      if (!(operationId in operations)) problems.push(`key ${key.apiKey}: unknown operation ${operationId}`);
    }
  }
  if (fixture.credentials && !fixture.keys.some((key) => key.apiKey === fixture.credentials)) {
    problems.push(`credentials: no key ${fixture.credentials}`);
  }
  if (problems.length > 0) throw new Error(`invalid sandbox fixture:\n  ${problems.join('\n  ')}`);
  return structuredClone(fixture);
}

export function loadFixture(path: string = defaultFixturePath): Fixture {
  return checkFixture(JSON.parse(readFileSync(path, 'utf8')));
}

/** The key whose credentials are printed at start-up. */
export function credentialKey(fixture: Fixture): FixtureKey {
  const key = fixture.keys.find((candidate) => candidate.apiKey === fixture.credentials) ?? fixture.keys[0];
  if (!key) throw new Error('the fixture has no keys');
  return key;
}
