// The sandbox's collateral exchange: the collateral account's balances (the fixture's
// `collateralBalances`), its leverage and position mode, its positions on the collateral markets
// (spot markets with `isCollateral`, and the perpetual futures markets), the orders placed through
// the collateral operations, their OTO and OCO orders, and funding on the sandbox's clock. Every
// amount is an exact decimal; everything happens inside one call. Money moves into and out of the
// collateral balance only by fees, realized profit and loss, funding and transfers between the
// account's balances, each recorded and each an entry of the ledger (ledger.ts), so that
// balance = seeded balance − fees + realized profit and loss + funding + transfers in − out,
// exactly, at every moment.
import {
  add,
  compare,
  divide,
  isNegative,
  isZero,
  max,
  multiply,
  normalize,
  subtract,
  sum,
} from './decimal.ts';
import { cancel } from './holds.ts';
import { collateral as collateralBalanceOf, type House, house, transfer } from './ledger.ts';
import { fee, type MarketState, type Order, seconds } from './orders.ts';
import type { AccountState, SandboxState } from './state.ts';

export type PositionSide = 'BOTH' | 'LONG' | 'SHORT';

/** The documents state no funding interval of their own for the sandbox: 8 hours. */
export const fundingIntervalMs = 8 * 60 * 60 * 1000;
/** A perpetual market's funding rate per settlement when the fixture gives none. */
export const defaultFundingRate = '0.0001';
/** The leverage of an account the fixture gives none: the documents state no default; 10. */
export const defaultLeverage = 10;
/** Digits after the point of a figure that is a quotient (margin, entry price): display only. */
const quotientScale = 18;

export interface Position {
  positionId: number;
  market: string;
  side: PositionSide;
  /** Signed size in the base asset: above zero long, below zero short. */
  size: string;
  /** Signed cost of the size held: the sum of size × price of what opened it, less what closes took. */
  cost: string;
  openDate: number;
  modifyDate: number;
  /** Realized by partial closes. */
  realized: string;
  fees: string;
  funding: string;
  /** Totals over the position's life, for its closed-PnL record. */
  opened: { amount: string; money: string };
  closed: { amount: string; money: string };
}

/** What a collateral order carries besides the exchange's Order. */
export interface CollateralOrderInfo {
  positionSide: PositionSide;
  reduceOnly: boolean;
  otoId?: number;
  ocoId?: number;
}

export interface Oto {
  id: number;
  orderId: number;
  market: string;
  stopLoss?: string;
  takeProfit?: string;
}

export interface Oco {
  id: number;
  market: string;
  reduceOnly: boolean;
  stopLoss: Order;
  takeProfit: Order;
}

export interface PositionEvent {
  positionId: number;
  market: string;
  openDate: number;
  modifyDate: number;
  amount: string;
  basePrice: string | null;
  realizedFunding: string;
  liquidationPrice: null;
  liquidationState: null;
  orderDetail: {
    id: number;
    tradeAmount: string;
    price: string;
    tradeFee: string;
    fundingFee: string | null;
    realizedPnl: string | null;
  };
  side: PositionSide;
  isHedge: boolean;
}

export interface ClosedPnl {
  positionId: number;
  market: string;
  grossPnl: string;
  netPnl: string;
  totalTradeFee: string;
  totalFunding: string;
  avgEntryPrice: string;
  avgExitPrice: string;
  closedSize: string;
  amount: string;
  side: PositionSide;
  isHedge: boolean;
  openDate: number;
  closeDate: number;
}

export interface FundingPayment {
  market: string;
  fundingTime: string;
  fundingRate: string;
  fundingAmount: string;
  positionAmount: string;
  settlementPrice: string;
  rateCalculatedTime: string;
}

export interface FundingSettlement {
  fundingTime: string;
  fundingRate: string;
  market: string;
  settlementPrice: string;
  rateCalculatedTime: string;
}

export interface CollateralAccount {
  leverage: number;
  hedgeMode: boolean;
  /** Open positions, by `market:side`. */
  positions: Map<string, Position>;
  /** The collateral orders placed through the collateral operations (open or not), by orderId. */
  orders: Map<number, CollateralOrderInfo>;
  otos: Map<number, Oto>;
  ocos: Map<number, Oco>;
  events: PositionEvent[];
  closedPnl: ClosedPnl[];
  funding: FundingPayment[];
  /** Totals since the start, in the settlement asset: what moved the balance. */
  ledger: { fees: string; realized: string; funding: string };
}

interface CollateralExchange {
  accounts: Map<string, CollateralAccount>;
  /** Per perpetual market, its settlements, oldest first. */
  settlements: Map<string, FundingSettlement[]>;
  /** The last funding time applied (ms). */
  fundedUntil: number;
  lastPositionId: number;
  lastConditionalId: number;
}

const exchanges = new WeakMap<SandboxState, CollateralExchange>();

function exchangeOf(state: SandboxState, now: number): CollateralExchange {
  let found = exchanges.get(state);
  if (!found) {
    found = {
      accounts: new Map(),
      settlements: new Map(),
      fundedUntil: Math.floor(now / fundingIntervalMs) * fundingIntervalMs,
      lastPositionId: 1000,
      lastConditionalId: 29_457_400,
    };
    exchanges.set(state, found);
  }
  return found;
}

export function collateralOf(state: SandboxState, account: AccountState, now = 0): CollateralAccount {
  const exchange = exchangeOf(state, now);
  let found = exchange.accounts.get(account.id);
  if (!found) {
    found = {
      leverage: defaultLeverage,
      hedgeMode: false,
      positions: new Map(),
      orders: new Map(),
      otos: new Map(),
      ocos: new Map(),
      events: [],
      closedPnl: [],
      funding: [],
      ledger: { fees: '0', realized: '0', funding: '0' },
    };
    exchange.accounts.set(account.id, found);
    seed(account, found, now);
  }
  return found;
}

/**
 * The fixture's collateral positions, OTO and OCO orders, taken when the account's collateral
 * state is first used. An OTO order's order and an OCO order's legs are open orders of the
 * fixture (`openOrders`), which become collateral orders.
 */
function seed(account: AccountState, collateral: CollateralAccount, now: number) {
  const { collateralPositions = [], otoOrders = [], ocoOrders = [] } = account.collateralSeed;
  for (const item of collateralPositions) {
    const side = item.positionSide ?? 'BOTH';
    const size = normalize(item.amount);
    const opened = abs(size);
    const at = item.openDate ?? seconds(now);
    collateral.positions.set(positionKey(item.market, side), {
      positionId: item.positionId,
      market: item.market,
      side,
      size,
      cost: multiply(size, item.basePrice),
      openDate: at,
      modifyDate: at,
      realized: '0',
      fees: '0',
      funding: '0',
      opened: { amount: opened, money: multiply(opened, item.basePrice) },
      closed: { amount: '0', money: '0' },
    });
  }
  // An order the fixture seeds no longer (a test removed it) takes its OTO or OCO order with it.
  for (const item of otoOrders) {
    if (!account.orders.has(item.orderId)) continue;
    collateral.orders.set(item.orderId, { positionSide: 'BOTH', reduceOnly: false, otoId: item.otoId });
    collateral.otos.set(item.otoId, {
      id: item.otoId,
      orderId: item.orderId,
      market: item.market,
      ...(item.stopLoss === undefined ? {} : { stopLoss: item.stopLoss }),
      ...(item.takeProfit === undefined ? {} : { takeProfit: item.takeProfit }),
    });
  }
  for (const item of ocoOrders) {
    const stopLoss = account.orders.get(item.stopLossOrderId);
    const takeProfit = account.orders.get(item.takeProfitOrderId);
    if (!stopLoss || !takeProfit) continue;
    for (const leg of [stopLoss, takeProfit]) {
      collateral.orders.set(leg.orderId, {
        positionSide: 'BOTH',
        reduceOnly: item.reduceOnly ?? false,
        ocoId: item.id,
      });
    }
    collateral.ocos.set(item.id, {
      id: item.id,
      market: item.market,
      reduceOnly: item.reduceOnly ?? false,
      stopLoss,
      takeProfit,
    });
  }
}

export function nextConditionalId(state: SandboxState, now: number): number {
  const exchange = exchangeOf(state, now);
  exchange.lastConditionalId += 1;
  return exchange.lastConditionalId;
}

/** Whether a market takes collateral orders: a collateral spot market or a perpetual futures one. */
export const isCollateralMarket = (market: MarketState) => market.isCollateral || market.type === 'futures';
export const isPerpetual = (market: MarketState) => market.type === 'futures';

const sign = (value: string) => (isNegative(value) ? -1 : isZero(value) ? 0 : 1);
const abs = (value: string) => (isNegative(value) ? value.slice(1) : value);
const negate = (value: string) => (isZero(value) ? '0' : isNegative(value) ? value.slice(1) : `-${value}`);

/** The collateral balance of one asset ("0" when the account holds none). */
export function collateralBalance(account: AccountState, asset: string): string {
  return account.collateral.find((item) => item.asset === asset)?.balance ?? '0';
}

/**
 * Moves `amount` (signed: above zero the account gains) between the collateral balance and its
 * counterparty: the fee account for a fee, the market for realized profit and loss and funding.
 */
function credit(account: AccountState, asset: string, amount: string, counterparty: House) {
  account.ledger.post(transfer(house(counterparty), collateralBalanceOf(account), asset, amount));
}

export const unrealizedPnl = (position: Position, price: string) =>
  subtract(multiply(position.size, price), position.cost);

export const positionMargin = (position: Position, leverage: number) =>
  divide(abs(position.cost), String(leverage), quotientScale);

export const entryPrice = (position: Position) =>
  isZero(position.size) ? '0' : divide(abs(position.cost), abs(position.size), quotientScale);

/** The notional an open order may still add, at its limit, activation or the market price. */
function orderNotional(state: SandboxState, order: Order): string {
  const price = !isZero(order.price)
    ? order.price
    : (order.activationPrice ?? state.market(order.market).price);
  return multiply(order.amount, price);
}

/** What an open collateral order holds of the margin: its notional at the leverage and its larger fee. */
export function orderMargin(state: SandboxState, order: Order, leverage: number): string {
  const market = state.market(order.market);
  const notional = orderNotional(state, order);
  return add(
    divide(notional, String(leverage), quotientScale),
    fee(market, notional, max(market.makerFee, market.takerFee)),
  );
}

/** The account's open collateral orders (the legs of an OCO count once, its larger). */
export function openCollateralOrders(state: SandboxState, account: AccountState): Order[] {
  const collateral = collateralOf(state, account);
  return [...account.orders.values()].filter((order) => collateral.orders.has(order.orderId));
}

/** The account's figures in one asset, at the markets' prices now. */
export function figures(state: SandboxState, account: AccountState, asset: string) {
  const collateral = collateralOf(state, account);
  const positions = [...collateral.positions.values()].filter(
    (position) => state.market(position.market).money === asset,
  );
  const unrealized = sum(
    positions.map((position) => unrealizedPnl(position, state.market(position.market).price)),
  );
  const ocoLegs = new Map<number, string>();
  let ordersMargin = '0';
  for (const order of openCollateralOrders(state, account)) {
    if (state.market(order.market).money !== asset) continue;
    const margin = orderMargin(state, order, collateral.leverage);
    const ocoId = collateral.orders.get(order.orderId)?.ocoId;
    if (ocoId === undefined) ordersMargin = add(ordersMargin, margin);
    else ocoLegs.set(ocoId, max(ocoLegs.get(ocoId) ?? '0', margin));
  }
  ordersMargin = add(ordersMargin, sum(ocoLegs.values()));
  const positionsMargin = sum(positions.map((position) => positionMargin(position, collateral.leverage)));
  const balance = collateralBalance(account, asset);
  const equity = add(balance, unrealized);
  const margin = add(positionsMargin, ordersMargin);
  return { balance, unrealized, equity, margin, positionsMargin, freeMargin: subtract(equity, margin) };
}

/**
 * What may leave the collateral balance of an asset for another balance: what is available without
 * borrowing, and no more than the free margin the open positions and orders leave (never below 0).
 */
export function transferableCollateral(state: SandboxState, account: AccountState, asset: string): string {
  const item = account.collateral.find((candidate) => candidate.asset === asset);
  if (!item) return '0';
  const { freeMargin } = figures(state, account, asset);
  const transferable =
    compare(freeMargin, item.availableWithoutBorrow) < 0 ? freeMargin : item.availableWithoutBorrow;
  return isNegative(transferable) ? '0' : normalize(transferable);
}

/**
 * A position's figures at its market's price now, as the REST positions and the positions stream
 * both show them: its entry price, unrealized profit and loss, margin, and the free margin of its
 * settlement asset.
 */
export function positionFigures(state: SandboxState, account: AccountState, position: Position) {
  const collateral = collateralOf(state, account);
  const market = state.market(position.market);
  return {
    basePrice: entryPrice(position),
    unrealized: unrealizedPnl(position, market.price),
    margin: positionMargin(position, collateral.leverage),
    freeMargin: figures(state, account, market.money).freeMargin,
  };
}

/** The places of the auto-deleveraging queue the documents show: 0 (picked last) to 4 (first). */
const adlPlaces = 5;

/** A position's return on its margin: the ADL queue's ranking figure (decimal string). */
function returnOnMargin(state: SandboxState, account: AccountState, position: Position): string {
  const { unrealized, margin } = positionFigures(state, account, position);
  return isZero(margin) ? '0' : divide(unrealized, margin, quotientScale);
}

const positionDirection = (position: Position): 'long' | 'short' =>
  position.side === 'LONG' || (position.side === 'BOTH' && !isNegative(position.size)) ? 'long' : 'short';

/**
 * Where each of the account's perpetual positions stands in its market's auto-deleveraging queue,
 * one entry per market, a side without a position `null`. The documents give only the range; the
 * sandbox's rule: a position without unrealized profit is never picked first (0); the profitable
 * positions of every account on the same market and side are ranked by their return on margin,
 * and the ranking is cut into five equal parts, the most profitable part 4. So a lone profitable
 * position is 4, and a loss moves it to 0.
 */
export function adlQuantilesOf(state: SandboxState, account: AccountState, now: number) {
  const exchange = exchangeOf(state, now);
  const mine = collateralOf(state, account, now);
  const rows = new Map<string, { market: string; long: number | null; short: number | null }>();
  for (const position of mine.positions.values()) {
    if (!position.market.endsWith('_PERP') || isZero(position.size)) continue;
    const direction = positionDirection(position);
    const own = returnOnMargin(state, account, position);
    let quantile = 0;
    if (compare(own, '0') > 0) {
      const rivals: string[] = [];
      for (const [id, other] of exchange.accounts) {
        const owner = state.account(id);
        for (const candidate of other.positions.values()) {
          if (candidate.market !== position.market || isZero(candidate.size)) continue;
          if (positionDirection(candidate) !== direction) continue;
          const figure = returnOnMargin(state, owner, candidate);
          if (compare(figure, '0') > 0) rivals.push(figure);
        }
      }
      const atOrBelow = rivals.filter((figure) => compare(figure, own) <= 0).length;
      quantile = Math.ceil((adlPlaces * atOrBelow) / rivals.length) - 1;
    }
    const row = rows.get(position.market) ?? { market: position.market, long: null, short: null };
    row[direction] = quantile;
    rows.set(position.market, row);
  }
  return [...rows.values()].sort((a, b) => a.market.localeCompare(b.market));
}

export function positionKey(market: string, side: PositionSide) {
  return `${market}:${side}`;
}

function recordEvent(
  collateral: CollateralAccount,
  position: Position,
  detail: PositionEvent['orderDetail'],
  at: number,
) {
  collateral.events.push({
    positionId: position.positionId,
    market: position.market,
    openDate: position.openDate,
    modifyDate: at,
    amount: abs(position.size),
    basePrice: isZero(position.size) ? null : entryPrice(position),
    realizedFunding: position.funding,
    liquidationPrice: null,
    liquidationState: null,
    orderDetail: detail,
    side: position.side === 'BOTH' ? (sign(position.size) >= 0 ? 'LONG' : 'SHORT') : position.side,
    isHedge: collateral.hedgeMode,
  });
}

function closeRecord(collateral: CollateralAccount, position: Position, at: number) {
  const gross = position.realized;
  collateral.closedPnl.push({
    positionId: position.positionId,
    market: position.market,
    grossPnl: gross,
    netPnl: add(subtract(gross, position.fees), position.funding),
    totalTradeFee: position.fees,
    totalFunding: position.funding,
    avgEntryPrice: isZero(position.opened.amount)
      ? '0'
      : divide(position.opened.money, position.opened.amount, quotientScale),
    avgExitPrice: isZero(position.closed.amount)
      ? '0'
      : divide(position.closed.money, position.closed.amount, quotientScale),
    closedSize: position.closed.amount,
    amount: '0',
    side: position.side,
    isHedge: collateral.hedgeMode,
    openDate: Math.floor(position.openDate),
    closeDate: Math.floor(at),
  });
}

/**
 * Trades `amount` (base asset) of `market` at `price` into the account's position on `side`:
 * the fee by `rate` is charged, what the trade closes realizes its profit and loss into the
 * collateral balance, what it opens grows the position (in one-way mode an opposite trade
 * reduces, closes or flips it; in hedge mode a trade against a side's position reduces it at
 * most to zero). Answers the amount traded and the fee.
 */
export function trade(
  state: SandboxState,
  account: AccountState,
  order: { orderId: number; market: string; side: 'buy' | 'sell'; amount: string; rate: string },
  positionSide: PositionSide,
  price: string,
  at: number,
): { traded: string; fee: string } {
  const exchange = exchangeOf(state, 0);
  const collateral = collateralOf(state, account);
  const market = state.market(order.market);
  const key = positionKey(order.market, positionSide);
  let position = collateral.positions.get(key);
  const direction = order.side === 'buy' ? 1 : -1;
  let traded = normalize(order.amount);
  if (positionSide !== 'BOTH') {
    // In hedge mode a side's position only grows on its own side and shrinks to zero at most.
    const own = positionSide === 'LONG' ? 1 : -1;
    if (direction !== own) {
      const held = position ? abs(position.size) : '0';
      if (compare(traded, held) > 0) traded = held;
    }
  }
  if (isZero(traded)) return { traded: '0', fee: '0' };
  const money = multiply(traded, price);
  const charged = fee(market, money, order.rate);
  credit(account, market.money, negate(charged), 'fees');
  collateral.ledger.fees = add(collateral.ledger.fees, charged);
  let left = traded;
  let feeLeft = charged;
  const open = (amount: string, feePart: string) => {
    if (!position) {
      exchange.lastPositionId += 1;
      position = {
        positionId: exchange.lastPositionId,
        market: order.market,
        side: positionSide,
        size: '0',
        cost: '0',
        openDate: at,
        modifyDate: at,
        realized: '0',
        fees: '0',
        funding: '0',
        opened: { amount: '0', money: '0' },
        closed: { amount: '0', money: '0' },
      };
      collateral.positions.set(key, position);
    }
    const signed = direction > 0 ? amount : negate(amount);
    position.size = add(position.size, signed);
    position.cost = add(position.cost, multiply(signed, price));
    position.opened = {
      amount: add(position.opened.amount, amount),
      money: add(position.opened.money, multiply(amount, price)),
    };
    position.fees = add(position.fees, feePart);
    position.modifyDate = at;
    recordEvent(
      collateral,
      position,
      {
        id: order.orderId,
        tradeAmount: amount,
        price: normalize(price),
        tradeFee: feePart,
        fundingFee: null,
        realizedPnl: null,
      },
      at,
    );
  };
  if (position && sign(position.size) !== 0 && sign(position.size) !== direction) {
    const held = abs(position.size);
    const closing = compare(left, held) >= 0 ? held : left;
    const removed =
      closing === held ? position.cost : divide(multiply(position.cost, closing), held, quotientScale);
    const proceeds = multiply(closing, price);
    const realized = subtract(sign(position.size) > 0 ? proceeds : negate(proceeds), removed);
    const feePart = closing === left ? feeLeft : divide(multiply(charged, closing), traded, quotientScale);
    feeLeft = subtract(feeLeft, feePart);
    position.size = add(position.size, direction > 0 ? closing : negate(closing));
    position.cost = subtract(position.cost, removed);
    position.realized = add(position.realized, realized);
    position.fees = add(position.fees, feePart);
    position.closed = {
      amount: add(position.closed.amount, closing),
      money: add(position.closed.money, proceeds),
    };
    position.modifyDate = at;
    credit(account, market.money, realized, 'market');
    collateral.ledger.realized = add(collateral.ledger.realized, realized);
    recordEvent(
      collateral,
      position,
      {
        id: order.orderId,
        tradeAmount: closing,
        price: normalize(price),
        tradeFee: feePart,
        fundingFee: null,
        realizedPnl: realized,
      },
      at,
    );
    left = subtract(left, closing);
    if (isZero(position.size)) {
      closeRecord(collateral, position, at);
      collateral.positions.delete(key);
      position = undefined;
    }
  }
  if (!isZero(left)) open(left, feeLeft);
  return { traded, fee: charged };
}

/** Funding up to `now`: each perpetual market settles at every multiple of the interval. */
export function settleCollateral(state: SandboxState, now: number) {
  const exchange = exchangeOf(state, now);
  while (exchange.fundedUntil + fundingIntervalMs <= now) {
    const time = exchange.fundedUntil + fundingIntervalMs;
    exchange.fundedUntil = time;
    for (const market of state.markets.values()) {
      if (!isPerpetual(market)) continue;
      const rate = normalize(market.fundingRate ?? defaultFundingRate);
      const settlement: FundingSettlement = {
        fundingTime: String(time / 1000),
        fundingRate: rate,
        market: market.name,
        settlementPrice: market.price,
        rateCalculatedTime: String((time - fundingIntervalMs) / 1000),
      };
      const list = exchange.settlements.get(market.name) ?? [];
      list.push(settlement);
      exchange.settlements.set(market.name, list);
      for (const account of state.accounts.values()) {
        const collateral = exchange.accounts.get(account.id);
        if (!collateral) continue;
        for (const position of collateral.positions.values()) {
          if (position.market !== market.name || isZero(position.size)) continue;
          // A long pays a positive rate, a short receives it.
          const amount = negate(multiply(multiply(position.size, market.price), rate));
          credit(account, market.money, amount, 'market');
          collateral.ledger.funding = add(collateral.ledger.funding, amount);
          position.funding = add(position.funding, amount);
          collateral.funding.push({
            market: market.name,
            fundingTime: settlement.fundingTime,
            fundingRate: rate,
            fundingAmount: amount,
            positionAmount: position.size,
            settlementPrice: market.price,
            rateCalculatedTime: settlement.rateCalculatedTime,
          });
        }
      }
    }
  }
}

export function fundingSettlements(state: SandboxState, market: string, now: number): FundingSettlement[] {
  return exchangeOf(state, now).settlements.get(market) ?? [];
}

/** Whether a stop order's activation is reached: a buy's from below, a sell's from above. */
const reached = (order: Order, price: string) =>
  order.side === 'buy'
    ? compare(price, order.activationPrice as string) >= 0
    : compare(price, order.activationPrice as string) <= 0;
const crosses = (order: Order, price: string) =>
  order.side === 'buy' ? compare(order.price, price) >= 0 : compare(order.price, price) <= 0;

/** Fills a collateral order in full at `price` as the maker (1) or taker (2). */
export function fillCollateral(
  state: SandboxState,
  account: AccountState,
  order: Order,
  price: string,
  role: 1 | 2,
  at: number,
) {
  const collateral = collateralOf(state, account);
  const info = collateral.orders.get(order.orderId) as CollateralOrderInfo;
  const { traded, fee: charged } = trade(
    state,
    account,
    {
      orderId: order.orderId,
      market: order.market,
      side: order.side,
      amount: order.amount,
      rate: role === 1 ? order.makerFee : order.takerFee,
    },
    info.positionSide,
    price,
    at,
  );
  order.dealStock = traded;
  order.dealMoney = multiply(traded, price);
  order.dealFee = charged;
  order.status = 'FILLED';
  order.finishedAt = at;
  account.orders.delete(order.orderId);
  account.closed.push(order);
  if (info.ocoId !== undefined) {
    // One leg of an OCO filled: the other is cancelled.
    const oco = collateral.ocos.get(info.ocoId);
    if (oco) {
      collateral.ocos.delete(oco.id);
      for (const leg of [oco.stopLoss, oco.takeProfit])
        if (account.orders.has(leg.orderId)) cancel(account, leg, at);
    }
  }
}

/** What an active collateral order does at the market price now: fills as the taker, or rests. */
export function matchCollateral(state: SandboxState, account: AccountState, order: Order, at: number) {
  const { price } = state.market(order.market);
  if (order.type === 'market' || order.type === 'stop market')
    fillCollateral(state, account, order, price, 2, at);
  else if (crosses(order, price) && !order.postOnly && !order.rpi)
    fillCollateral(state, account, order, price, 2, at);
  else if (order.ioc) cancel(account, order, at);
}

/** A price move: stop orders it reaches activate, resting limit orders it passes fill as the maker. */
export function moveCollateralPrice(state: SandboxState, marketName: string, now: number) {
  const market = state.market(marketName);
  const at = seconds(now);
  for (const account of state.accounts.values()) {
    const collateral = exchangeOf(state, now).accounts.get(account.id);
    if (!collateral) continue;
    for (const order of [...account.orders.values()]) {
      if (order.market !== marketName || !collateral.orders.has(order.orderId)) continue;
      if (!account.orders.has(order.orderId)) continue;
      if (!order.activated) {
        if (reached(order, market.price)) {
          order.activated = true;
          matchCollateral(state, account, order, at);
        }
      } else if (crosses(order, market.price) && order.type !== 'market') {
        fillCollateral(state, account, order, order.price, 1, at);
      }
    }
  }
}
