// The collateral trading transitions: orders that open, grow, reduce and close positions under
// the account's leverage, the positions and their history, the balance and summary read from the
// same state, leverage and position mode, OTO and OCO orders, and funding (sandbox/collateral.ts).
// Every refusal is the operation's named example; a refusal the document does not show is not
// given (the rule does not apply there).
import type { Answer } from '../answer.ts';
import type { OrderSide } from '../api-types.ts';
import {
  adlQuantilesOf,
  type CollateralOrderInfo,
  collateralBalance,
  collateralOf,
  figures,
  fundingSettlements,
  isCollateralMarket,
  matchCollateral,
  nextConditionalId,
  openCollateralOrders,
  type PositionSide,
  positionFigures,
  positionKey,
  trade,
  unrealizedPnl,
} from '../collateral.ts';
import { type CallContext, caller, ok, refuse } from '../context.ts';
import { add, compare, divide, isZero, multiply, subtract } from '../decimal.ts';
import type { OperationDocument } from '../document.ts';
import { cancel, orderView } from '../exchange.ts';
import { fee, isTrading, type MarketState, type Order, type OrderType, seconds } from '../orders.ts';
import type { AccountState } from '../state.ts';
import { schemaRefusal } from '../validation.ts';
import { placedType } from './orders.ts';

export interface CollateralOrderFields {
  market: string;
  side: OrderSide;
  amount: string;
  price?: string;
  activation_price?: string;
  clientOrderId?: string;
  stopLoss?: string;
  takeProfit?: string;
  postOnly?: boolean;
  ioc?: boolean;
  rpi?: boolean;
  positionSide?: PositionSide;
  reduceOnly?: boolean;
  stp?: string;
}

const refuseIfDocumented = (context: CallContext, name: string): Answer | undefined =>
  context.operation.has(name) ? refuse(context, name) : undefined;

function collateralMarket(context: CallContext, name: string): MarketState | undefined {
  const market = context.state.markets.get(name);
  return market && isCollateralMarket(market) && isTrading(market, context.now) ? market : undefined;
}

const isAnswer = (value: unknown): value is Answer =>
  typeof value === 'object' && value !== null && 'status' in value && 'body' in value;

/** Whether the account holds an open position or an open collateral order: the settings cannot change. */
function busy(context: CallContext, account: AccountState): boolean {
  const collateral = collateralOf(context.state, account, context.now);
  return collateral.positions.size > 0 || openCollateralOrders(context.state, account).length > 0;
}

/** The side of the position an order trades: BOTH in one-way mode, the order's in hedge mode. */
function sideOf(context: CallContext, account: AccountState, fields: { positionSide?: PositionSide }) {
  const collateral = collateralOf(context.state, account, context.now);
  if (!collateral.hedgeMode) return 'BOTH' as const;
  return fields.positionSide === 'LONG' || fields.positionSide === 'SHORT' ? fields.positionSide : undefined;
}

/** How much of an order opens or grows a position (what needs margin): the rest reduces one. */
function opening(
  context: CallContext,
  account: AccountState,
  market: string,
  side: PositionSide,
  buy: boolean,
  amount: string,
) {
  const position = collateralOf(context.state, account, context.now).positions.get(positionKey(market, side));
  if (!position) return amount;
  const long = !position.size.startsWith('-');
  if (long === buy) return amount;
  const held = long ? position.size : position.size.slice(1);
  return compare(amount, held) > 0 ? subtract(amount, held) : '0';
}

interface Checked {
  market: MarketState;
  type: OrderType;
  fields: CollateralOrderFields;
  positionSide: PositionSide;
}

/** A collateral order's refusal, or what it places: the market, the side in the mode, the margin. */
function checkCollateralOrder(
  context: CallContext,
  account: AccountState,
  type: OrderType,
  fields: CollateralOrderFields,
  extraMargin = '0',
): Checked | Answer {
  const market = collateralMarket(context, fields.market);
  if (!market) {
    const refused = refuseIfDocumented(context, 'marketNotAvailable');
    if (refused) return refused;
    throw new Error(`${context.operation.id} documents no refusal of an unavailable market`);
  }
  const positionSide = sideOf(context, account, fields);
  if (!positionSide) {
    const refused = refuseIfDocumented(context, 'positionSideInvalid');
    if (refused) return refused;
  }
  const side = positionSide ?? 'BOTH';
  const collateral = collateralOf(context.state, account, context.now);
  const price = fields.price ?? fields.activation_price ?? market.price;
  const opens = opening(context, account, market.name, side, fields.side === 'buy', fields.amount);
  const notional = multiply(opens, price);
  const needed = add(
    add(divide(notional, String(collateral.leverage), 18), extraMargin),
    fee(market, multiply(fields.amount, price), type === 'market' ? market.takerFee : maxRate(market)),
  );
  const { freeMargin } = figures(context.state, account, market.money);
  if (compare(needed, freeMargin) > 0) {
    const refused = refuseIfDocumented(context, 'notEnoughBalance');
    if (refused) return refused;
  }
  return { market, type, fields, positionSide: side };
}

const maxRate = (market: MarketState) =>
  compare(market.makerFee, market.takerFee) >= 0 ? market.makerFee : market.takerFee;

function newOrder(context: CallContext, _account: AccountState, checked: Checked): Order {
  const { fields, market, type } = checked;
  const at = seconds(context.now);
  const order: Order = {
    orderId: context.state.nextOrderId(),
    clientOrderId: fields.clientOrderId ?? '',
    market: market.name,
    kind: market.type === 'futures' ? 'futures' : 'margin',
    type,
    side: fields.side,
    amount: fields.amount,
    price: fields.price ?? '0',
    ...(fields.activation_price === undefined ? {} : { activationPrice: fields.activation_price }),
    activated: type === 'limit' || type === 'market',
    postOnly: fields.postOnly ?? false,
    ioc: fields.ioc ?? false,
    rpi: fields.rpi ?? false,
    stp: fields.stp ?? 'no',
    timestamp: at,
    dealStock: '0',
    dealMoney: '0',
    dealFee: '0',
    status: 'NEW',
    makerFee: market.makerFee,
    takerFee: market.takerFee,
  };
  return order;
}

/** A collateral order as the collateral operations answer it. */
function collateralView(context: CallContext, account: AccountState, order: Order) {
  const collateral = collateralOf(context.state, account, context.now);
  const info = collateral.orders.get(order.orderId);
  const oto = info?.otoId === undefined ? undefined : collateral.otos.get(info.otoId);
  const view = orderView(order);
  return {
    ...view,
    status: order.status === 'NEW' ? 'OPEN' : order.status,
    left: order.status === 'FILLED' ? '0' : order.amount,
    oto: oto
      ? {
          otoId: oto.id,
          ...(oto.stopLoss === undefined ? {} : { stopLoss: oto.stopLoss }),
          ...(oto.takeProfit === undefined ? {} : { takeProfit: oto.takeProfit }),
        }
      : null,
    positionSide: info?.positionSide ?? 'BOTH',
    reduceOnly: info?.reduceOnly ?? false,
  };
}

/** Places a checked order: it rests, or matches at the market price at once. */
function placeChecked(context: CallContext, account: AccountState, checked: Checked, ocoId?: number): Order {
  const collateral = collateralOf(context.state, account, context.now);
  const order = newOrder(context, account, checked);
  const info: CollateralOrderInfo = {
    positionSide: checked.positionSide,
    reduceOnly: checked.fields.reduceOnly ?? false,
    ...(ocoId === undefined ? {} : { ocoId }),
  };
  const { stopLoss, takeProfit } = checked.fields;
  if (stopLoss !== undefined || takeProfit !== undefined) {
    const otoId = nextConditionalId(context.state, context.now);
    info.otoId = otoId;
    collateral.otos.set(otoId, {
      id: otoId,
      orderId: order.orderId,
      market: order.market,
      ...(stopLoss === undefined ? {} : { stopLoss }),
      ...(takeProfit === undefined ? {} : { takeProfit }),
    });
  }
  collateral.orders.set(order.orderId, info);
  account.orders.set(order.orderId, order);
  const at = seconds(context.now);
  if (order.activated) matchCollateral(context.state, account, order, at);
  else {
    const price = checked.market.price;
    const reached =
      order.side === 'buy'
        ? compare(price, order.activationPrice as string) >= 0
        : compare(price, order.activationPrice as string) <= 0;
    if (reached) {
      order.activated = true;
      matchCollateral(context.state, account, order, at);
    }
  }
  return order;
}

/** Places one collateral order of the type the operation places. */
export function placeCollateralOrder(context: CallContext, body: CollateralOrderFields): Answer {
  const { account } = caller(context);
  const checked = checkCollateralOrder(context, account, placedType(context.operation), body);
  if (isAnswer(checked)) return checked;
  return ok(collateralView(context, account, placeChecked(context, account, checked)));
}

/** Places 1 to 20 collateral limit orders, each by the rules of the single operation `rules`. */
export function placeCollateralBulk(
  context: CallContext,
  body: { orders: readonly unknown[]; stopOnFail?: boolean },
  rules: OperationDocument,
): Answer {
  const { account } = caller(context);
  const { min, max, validateItem: validate } = context.operation.batch();
  if (body.orders.length < min || body.orders.length > max) {
    return refuse(context, context.operation.validationExampleName());
  }
  const single: CallContext = { ...context, operation: rules };
  const type = placedType(context.operation);
  const results: { result: unknown; error: unknown }[] = [];
  for (const item of body.orders) {
    let answer: Answer;
    if (!validate(item)) answer = schemaRefusal(rules, item, validate.errors ?? []);
    else {
      const checked = checkCollateralOrder(single, account, type, item as CollateralOrderFields);
      answer = isAnswer(checked)
        ? checked
        : ok(collateralView(single, account, placeChecked(single, account, checked)));
    }
    const placed = answer.status >= 200 && answer.status < 300;
    results.push(placed ? { result: answer.body, error: null } : { result: null, error: answer.body });
    if (!placed && body.stopOnFail) break;
  }
  return ok(results);
}

// --- OCO ---------------------------------------------------------------------------------------

export interface OcoFields extends CollateralOrderFields {
  price: string;
  activation_price: string;
  stop_limit_price: string;
}

function ocoLeg(context: CallContext, account: AccountState, order: Order) {
  const view = collateralView(context, account, order);
  return {
    orderId: view.orderId,
    clientOrderId: view.clientOrderId,
    market: view.market,
    side: view.side,
    type: order.activationPrice === undefined ? 'margin limit' : 'margin stop limit',
    timestamp: view.timestamp,
    dealMoney: view.dealMoney,
    dealStock: view.dealStock,
    amount: view.amount,
    left: view.left,
    dealFee: view.dealFee,
    post_only: view.postOnly,
    status: view.status,
    stp: view.stp,
    positionSide: view.positionSide,
    reduceOnly: view.reduceOnly,
    mtime: order.finishedAt ?? order.timestamp,
    price: view.price,
    ...(order.activationPrice === undefined
      ? {}
      : {
          activation_price: order.activationPrice,
          activation_condition: order.side === 'buy' ? 'gte' : 'lte',
          activated: order.activated ? 1 : 0,
        }),
  };
}

/** The same leg in the conditional-order list's camel case. */
function conditionalLeg(context: CallContext, account: AccountState, order: Order) {
  const { post_only, activation_price, activation_condition, ...rest } = ocoLeg(
    context,
    account,
    order,
  ) as ReturnType<typeof ocoLeg> & { activation_price?: string; activation_condition?: string };
  return {
    ...rest,
    postOnly: post_only,
    ...(activation_price === undefined
      ? {}
      : { activationPrice: activation_price, activationCondition: activation_condition }),
  };
}

/**
 * An OCO order: a take-profit limit at `price` and a stop-loss stop-limit (`activation_price`,
 * `stop_limit_price`), resting until the price reaches one; the one that fills cancels the other.
 * It holds the margin of its larger leg.
 */
export function placeOco(context: CallContext, body: OcoFields): Answer {
  const { account } = caller(context);
  const takeProfit = checkCollateralOrder(context, account, 'limit', {
    ...body,
    postOnly: true,
  });
  if (isAnswer(takeProfit)) return takeProfit;
  const stopLoss = checkCollateralOrder(context, account, 'stop limit', {
    ...body,
    price: body.stop_limit_price,
  });
  if (isAnswer(stopLoss)) return stopLoss;
  const collateral = collateralOf(context.state, account, context.now);
  const id = nextConditionalId(context.state, context.now);
  const stop = placeChecked(context, account, stopLoss, id);
  const limit = placeChecked(
    context,
    account,
    { ...takeProfit, fields: { ...takeProfit.fields, postOnly: false } },
    id,
  );
  const oco = {
    id,
    market: body.market,
    reduceOnly: body.reduceOnly ?? false,
    stopLoss: stop,
    takeProfit: limit,
  };
  // A leg that filled at once has cancelled the other: the OCO is done.
  if (account.orders.has(stop.orderId) && account.orders.has(limit.orderId)) collateral.ocos.set(id, oco);
  return ok(ocoView(context, account, oco));
}

function ocoView(
  context: CallContext,
  account: AccountState,
  oco: { id: number; reduceOnly: boolean; stopLoss: Order; takeProfit: Order },
) {
  return {
    id: oco.id,
    reduceOnly: oco.reduceOnly,
    stop_loss: ocoLeg(context, account, oco.stopLoss),
    take_profit: ocoLeg(context, account, oco.takeProfit),
  };
}

interface Page {
  market?: string;
  limit?: number;
  offset?: number;
}

const page = <T>(context: CallContext, rows: T[], body: Page) => {
  const limit = body.limit ?? (context.operation.requestDefault('limit') as number);
  const offset = body.offset ?? (context.operation.requestDefault('offset') as number);
  return { limit, offset, rows: rows.slice(offset, offset + limit) };
};

export function listOco(context: CallContext, body: Page): Answer {
  const { account } = caller(context);
  const collateral = collateralOf(context.state, account, context.now);
  const rows = [...collateral.ocos.values()]
    .filter((oco) => body.market === undefined || oco.market === body.market)
    .reverse();
  return ok(page(context, rows, body).rows.map((oco) => ocoView(context, account, oco)));
}

export function listConditional(context: CallContext, body: Page): Answer {
  const { account } = caller(context);
  const collateral = collateralOf(context.state, account, context.now);
  const records = [
    ...[...collateral.ocos.values()].map((oco) => ({
      id: oco.id,
      market: oco.market,
      record: () => ({
        id: oco.id,
        type: 'oco',
        stopLoss: conditionalLeg(context, account, oco.stopLoss),
        takeProfit: conditionalLeg(context, account, oco.takeProfit),
      }),
    })),
    ...[...collateral.otos.values()].map((oto) => ({
      id: oto.id,
      market: oto.market,
      record: () => {
        const order =
          account.orders.get(oto.orderId) ?? account.closed.find((o) => o.orderId === oto.orderId);
        const view = order ? collateralView(context, account, order) : undefined;
        const {
          oto: _,
          activation_price: __,
          activated: ___,
          activationCondition: ____,
          ...conditionalOrder
        } = (view ?? {}) as Record<string, unknown>;
        return {
          id: oto.id,
          type: 'oto',
          ...(oto.stopLoss === undefined ? {} : { stopLossPrice: oto.stopLoss }),
          ...(oto.takeProfit === undefined ? {} : { takeProfitPrice: oto.takeProfit }),
          conditionalOrder,
        };
      },
    })),
  ]
    .filter((item) => body.market === undefined || item.market === body.market)
    .sort((a, b) => b.id - a.id);
  const { limit, offset, rows } = page(context, records, body);
  return ok({ limit, offset, total: records.length, records: rows.map((item) => item.record()) });
}

function cancelOcoOf(context: CallContext, account: AccountState, id: number) {
  const collateral = collateralOf(context.state, account, context.now);
  const oco = collateral.ocos.get(id);
  if (!oco) return undefined;
  collateral.ocos.delete(id);
  const at = seconds(context.now);
  for (const leg of [oco.stopLoss, oco.takeProfit])
    if (account.orders.has(leg.orderId)) cancel(account, leg, at);
  return oco;
}

export function cancelOco(
  context: CallContext,
  body: { market: string; orderId?: number; clientOrderId?: string },
): Answer {
  const { account } = caller(context);
  const collateral = collateralOf(context.state, account, context.now);
  const found = [...collateral.ocos.values()].find(
    (oco) =>
      oco.market === body.market &&
      (body.orderId === undefined || oco.id === body.orderId) &&
      (body.clientOrderId === undefined || oco.stopLoss.clientOrderId === body.clientOrderId),
  );
  if (!found || (body.orderId === undefined && body.clientOrderId === undefined)) {
    return refuse(context, 'ocoOrderNotFound');
  }
  cancelOcoOf(context, account, found.id);
  return ok(ocoView(context, account, found));
}

export function cancelOto(context: CallContext, body: { market: string; otoId: number }): Answer {
  const { account } = caller(context);
  const collateral = collateralOf(context.state, account, context.now);
  const oto = collateral.otos.get(body.otoId);
  if (!oto || oto.market !== body.market) return refuse(context, 'otoOrderNotFound');
  collateral.otos.delete(oto.id);
  return ok([]);
}

export function cancelConditional(context: CallContext, body: { market: string; id: number }): Answer {
  const { account } = caller(context);
  const collateral = collateralOf(context.state, account, context.now);
  const oco = collateral.ocos.get(body.id);
  const oto = collateral.otos.get(body.id);
  if (oco && oco.market === body.market) cancelOcoOf(context, account, oco.id);
  else if (oto && oto.market === body.market) collateral.otos.delete(oto.id);
  else return refuse(context, 'conditionalOrderNotFound');
  return ok([]);
}

// --- positions ---------------------------------------------------------------------------------

export function listPositions(context: CallContext, body: { market?: string }): Answer {
  const { account } = caller(context);
  const collateral = collateralOf(context.state, account, context.now);
  const rows = [...collateral.positions.values()].filter(
    (position) => body.market === undefined || position.market === body.market,
  );
  return ok(
    rows.map((position) => {
      const { basePrice, unrealized, margin, freeMargin } = positionFigures(context.state, account, position);
      return {
        positionId: position.positionId,
        market: position.market,
        openDate: position.openDate,
        modifyDate: position.modifyDate,
        amount: position.size,
        basePrice,
        liquidationPrice: null,
        liquidationState: null,
        pnl: position.realized,
        pnlPercent: isZero(margin) ? '0' : divide(multiply(unrealized, '100'), margin, 2),
        unrealizedPnl: unrealized,
        margin,
        freeMargin,
        // Funding on perpetual markets is settled to the balance, not kept on the position.
        funding: '0',
        unrealizedFunding: '0',
        positionSide: position.side,
        tpsl: null,
      };
    }),
  );
}

export function closePositionAtMarket(
  context: CallContext,
  body: { positionId: number; market: string; positionSide?: PositionSide },
): Answer {
  const { account } = caller(context);
  const collateral = collateralOf(context.state, account, context.now);
  const position = [...collateral.positions.values()].find(
    (candidate) =>
      candidate.positionId === body.positionId &&
      candidate.market === body.market &&
      (body.positionSide === undefined || !collateral.hedgeMode || candidate.side === body.positionSide),
  );
  if (!position) return refuse(context, 'positionNotFound');
  const market = context.state.market(position.market);
  const long = !position.size.startsWith('-');
  const amount = long ? position.size : position.size.slice(1);
  const charged = fee(market, multiply(amount, market.price), market.takerFee);
  const after = add(
    subtract(collateralBalance(account, market.money), charged),
    unrealizedPnl(position, market.price),
  );
  if (after.startsWith('-')) return refuse(context, 'notEnoughBalanceToClose');
  const orderId = context.state.nextOrderId();
  trade(
    context.state,
    account,
    { orderId, market: market.name, side: long ? 'sell' : 'buy', amount, rate: market.takerFee },
    position.side,
    market.price,
    seconds(context.now),
  );
  return ok(context.operation.successExample()?.value ?? {});
}

interface Window {
  market?: string;
  positionId?: number;
  startDate?: number;
  endDate?: number;
  limit?: number;
  offset?: number;
}

const inWindow = (time: number, body: Window) =>
  (body.startDate === undefined || time >= body.startDate) &&
  (body.endDate === undefined || time <= body.endDate);

export function listPositionEvents(context: CallContext, body: Window): Answer {
  const { account } = caller(context);
  if (body.startDate !== undefined && body.endDate !== undefined && body.endDate < body.startDate) {
    return refuse(context, 'windowOutOfOrder');
  }
  const collateral = collateralOf(context.state, account, context.now);
  return ok(
    collateral.events
      .filter(
        (event) =>
          (body.market === undefined || event.market === body.market) &&
          (body.positionId === undefined || event.positionId === body.positionId) &&
          inWindow(event.modifyDate, body),
      )
      .reverse(),
  );
}

export function listClosedPositions(context: CallContext, body: Window): Answer {
  const { account } = caller(context);
  if (body.startDate !== undefined && body.endDate !== undefined && body.endDate < body.startDate) {
    return refuse(context, 'windowOutOfOrder');
  }
  const collateral = collateralOf(context.state, account, context.now);
  const rows = collateral.closedPnl.filter((row) => inWindow(row.closeDate, body)).reverse();
  return ok(page(context, rows, body).rows);
}

// --- balances, summary, settings -----------------------------------------------------------------

export function readCollateralBalance(context: CallContext, body: { ticker?: string }): Answer {
  const { account } = caller(context);
  if (body.ticker !== undefined && !context.state.assets.has(body.ticker))
    return refuse(context, 'invalidTicker');
  const balances: Record<string, string> = {};
  for (const item of account.collateral) {
    if (body.ticker === undefined || item.asset === body.ticker) balances[item.asset] = item.balance;
  }
  if (body.ticker !== undefined && !(body.ticker in balances)) balances[body.ticker] = '0';
  return ok(balances);
}

/** The settlement asset of the collateral markets (the quote of the first one). */
function settlementAsset(context: CallContext): string {
  for (const market of context.state.markets.values()) if (isCollateralMarket(market)) return market.money;
  return 'USDT';
}

export function readCollateralAccount(context: CallContext): Answer {
  const { account } = caller(context);
  const collateral = collateralOf(context.state, account, context.now);
  const { equity, margin, freeMargin, unrealized } = figures(
    context.state,
    account,
    settlementAsset(context),
  );
  return ok({
    equity,
    margin,
    freeMargin,
    unrealizedFunding: '0',
    pnl: unrealized,
    leverage: collateral.leverage,
    marginFraction: isZero(equity) ? '0' : divide(margin, equity, 4),
  });
}

export function readAdlQuantiles(context: CallContext): Answer {
  return ok(adlQuantilesOf(context.state, caller(context).account, context.now));
}

export function setLeverage(context: CallContext, body: { leverage: number }): Answer {
  const { account } = caller(context);
  if (busy(context, account)) return refuse(context, 'openPositionsOrOrders');
  collateralOf(context.state, account, context.now).leverage = body.leverage;
  return ok({ leverage: body.leverage });
}

export function readPositionMode(context: CallContext): Answer {
  const { account } = caller(context);
  return ok({ hedgeMode: collateralOf(context.state, account, context.now).hedgeMode });
}

export function setPositionMode(context: CallContext, body: { hedgeMode: boolean }): Answer {
  const { account } = caller(context);
  if (busy(context, account)) return refuse(context, 'openPositionsOrOrders');
  collateralOf(context.state, account, context.now).hedgeMode = body.hedgeMode;
  return ok(context.operation.successExample()?.value ?? {});
}

// --- funding -----------------------------------------------------------------------------------

export function listFundingCharges(context: CallContext, body: Page): Answer {
  const { account } = caller(context);
  if (body.market !== undefined) {
    const market = context.state.markets.get(body.market);
    if (!market || !isCollateralMarket(market)) return refuse(context, 'collateralMarketNotAvailable');
  }
  const collateral = collateralOf(context.state, account, context.now);
  const rows = collateral.funding
    .filter((row) => body.market === undefined || row.market === body.market)
    .reverse();
  const { limit, offset, rows: shown } = page(context, rows, body);
  return ok({ records: shown, limit, offset });
}

export function fundingRateHistory(context: CallContext): Answer {
  const path = context.params?.path ?? {};
  const query = (context.params?.query ?? {}) as {
    startDate?: number;
    endDate?: number;
    limit?: number;
    offset?: number;
  };
  const name = String(path.market ?? '');
  const market = context.state.markets.get(name);
  if (market?.type !== 'futures') return refuse(context, 'marketNotAvailable');
  if (query.startDate !== undefined && query.endDate !== undefined && query.endDate <= query.startDate) {
    return refuse(context, 'endBeforeStart');
  }
  const rows = fundingSettlements(context.state, name, context.now)
    .filter(
      (row) =>
        (query.startDate === undefined || Number(row.fundingTime) >= query.startDate) &&
        (query.endDate === undefined || Number(row.fundingTime) <= query.endDate),
    )
    .slice()
    .reverse();
  const limit = query.limit ?? 100;
  const offset = query.offset ?? 0;
  return ok(rows.slice(offset, offset + limit));
}
