// The spot trading transitions that place, change and cancel orders. Each rule of the market
// (`GET /api/v4/public/markets`) is enforced where the operation's document names its refusal:
// the answer is that named example, or the operation's `x-messages` wording in the shape of a
// named example. A rule whose refusal an operation's document does not show is not enforced
// there (the sandbox does not invent an answer).
import { isRecord } from '../../model/json.ts';
import type { Answer } from '../answer.ts';
import type { OrderKind, OrderSide } from '../api-types.ts';
import { type CallContext, caller, ok, refuse, refuseWith, refuseWorded } from '../context.ts';
import { add, compare, decimalPlaces, divide, isMultipleOf, isZero, multiply } from '../decimal.ts';
import type { OperationDocument } from '../document.ts';
import { available, cancel, orderView, place } from '../exchange.ts';
import {
  isOrderType,
  isQuoteSized,
  isTrading,
  type MarketState,
  type Order,
  type OrderDraft,
  type OrderType,
  requirement,
  seconds,
} from '../orders.ts';
import type { AccountState } from '../state.ts';
import { schemaRefusal } from '../validation.ts';

/** The fields of a request that places an order (each operation takes some of them). */
export interface OrderFields {
  market: string;
  side: OrderSide;
  amount: string;
  price?: string;
  activation_price?: string;
  clientOrderId?: string;
  postOnly?: boolean;
  ioc?: boolean;
  rpi?: boolean;
  stp?: string;
}

/** The refusal `name` when the operation documents it; undefined (the rule does not apply) when not. */
const refuseIfDocumented = (context: CallContext, name: string): Answer | undefined =>
  context.operation.has(name) ? refuse(context, name) : undefined;

/** The first of the named examples the operation documents, as its answer. */
function firstDocumented(context: CallContext, ...names: string[]): Answer | undefined {
  for (const name of names) if (context.operation.has(name)) return refuse(context, name);
  return undefined;
}

/** The spot market an order may be placed on at `now`, or undefined when it is not available. */
function spotMarket(context: CallContext, name: string): MarketState | undefined {
  const market = context.state.markets.get(name);
  return market && market.type === 'spot' && isTrading(market, context.now) ? market : undefined;
}

/** Whether an amount or price breaks the market's precision or step. */
const offStep = (value: string, precision: string, step: string) =>
  decimalPlaces(value) > Number(precision) || (step !== '' && !isMultipleOf(value, step));

/**
 * Whether an open order of the account on this market carries the clientOrderId. Observed
 * upstream, that is the only order that makes the service refuse the id: once it has filled or
 * been cancelled, the id is taken again.
 */
function openWithClientId(account: AccountState, market: string, clientOrderId: string): boolean {
  for (const order of account.orders.values()) {
    if (order.market === market && order.clientOrderId === clientOrderId) return true;
  }
  return false;
}

interface CheckOptions {
  /** A change of this order: what it holds counts as available, and its clientOrderId is its own. */
  replacing?: Order;
}

/**
 * The order a request asks for, or the refusal its first broken rule gets: incompatible flags,
 * the market, a clientOrderId an open order on the market carries, the amount (zero, precision and step, minimum), the price
 * (zero, precision and step), the total (minimum, maximum), then the balance.
 */
export function checkOrder(
  context: CallContext,
  account: AccountState,
  type: OrderType,
  fields: OrderFields,
  options: CheckOptions = {},
): OrderDraft | Answer {
  const { operation } = context;
  if (fields.ioc && fields.postOnly) {
    const refused = refuseIfDocumented(context, 'iocWithPostOnly');
    if (refused) return refused;
  }
  if (
    fields.ioc &&
    fields.rpi &&
    operation.optionalMessage('rpiWithIoc') &&
    operation.has('iocWithPostOnly')
  ) {
    return refuseWorded(context, 'ioc', 'rpiWithIoc', {}, 'iocWithPostOnly');
  }
  const market = spotMarket(context, fields.market);
  if (!market) return refuse(context, 'marketNotAvailable');
  const clientOrderId = fields.clientOrderId ?? '';
  if (
    clientOrderId &&
    clientOrderId !== options.replacing?.clientOrderId &&
    openWithClientId(account, market.name, clientOrderId)
  ) {
    const refused = refuseIfDocumented(context, 'clientOrderIdUsed');
    if (refused) return refused;
  }
  const draft: OrderDraft = {
    market,
    type,
    side: fields.side,
    amount: fields.amount,
    ...(fields.price === undefined ? {} : { price: fields.price }),
    ...(fields.activation_price === undefined ? {} : { activationPrice: fields.activation_price }),
    clientOrderId,
    postOnly: fields.postOnly ?? false,
    ioc: fields.ioc ?? false,
    rpi: fields.rpi ?? false,
    stp: fields.stp ?? 'no',
  };
  const quoteSized = isQuoteSized(draft);
  if (isZero(draft.amount)) {
    const refused = firstDocumented(context, 'amountNotPositive', 'amountBelowMinimum');
    if (refused) return refused;
  }
  if (
    quoteSized
      ? offStep(draft.amount, market.moneyPrec, '')
      : offStep(draft.amount, market.stockPrec, market.stepSize)
  ) {
    const refused = firstDocumented(context, 'amountOffStep', 'amountBelowMinimum');
    if (refused) return refused;
  }
  // The price the order is expected to trade at: its limit, else its activation, else the market's.
  const price = draft.price ?? draft.activationPrice ?? market.price;
  if (draft.price !== undefined) {
    if (isZero(draft.price)) {
      const refused = refuseIfDocumented(context, 'priceNotPositive');
      if (refused) return refused;
    }
    if (offStep(draft.price, market.moneyPrec, market.tickSize)) {
      const refused = refuseIfDocumented(context, 'priceBelowMinimum');
      if (refused) return refused;
    }
  }
  const base = quoteSized ? (isZero(price) ? '0' : divide(draft.amount, price, 18)) : draft.amount;
  if (compare(base, market.minAmount) < 0) {
    const refused = refuseIfDocumented(context, 'amountBelowMinimum');
    if (refused) return refused;
  }
  const total = quoteSized ? draft.amount : multiply(draft.amount, price);
  if (compare(total, market.minTotal) < 0) {
    const refused = refuseIfDocumented(context, 'totalBelowMinimum');
    if (refused) return refused;
  }
  if (
    !isZero(market.maxTotal) &&
    compare(total, market.maxTotal) > 0 &&
    operation.optionalMessage('totalAboveMaximum') &&
    operation.has('totalBelowMinimum')
  ) {
    return refuseWorded(
      context,
      'total',
      'totalAboveMaximum',
      { maxTotal: market.maxTotal },
      'totalBelowMinimum',
    );
  }
  const needed = requirement(draft);
  const releasing = options.replacing?.hold?.asset === needed.asset ? options.replacing.hold.amount : '0';
  if (compare(needed.amount, add(available(account, needed.asset), releasing)) > 0) {
    return refuse(context, 'notEnoughBalance');
  }
  return draft;
}

const isAnswer = (value: OrderDraft | Answer): value is Answer => 'status' in value;

const placedTypes = new WeakMap<OperationDocument, OrderType>();

/**
 * The type of the orders an operation places, as its answer shows it: the `type` of the order
 * its success example answers (of a batch, its first placed order). Throws when that example
 * shows no type the exchange places.
 */
export function placedType(operation: OperationDocument): OrderType {
  let type = placedTypes.get(operation);
  if (type === undefined) {
    const answer = operation.successExample()?.value;
    const order = Array.isArray(answer)
      ? answer.map((item) => (isRecord(item) ? item.result : undefined)).find(isRecord)
      : answer;
    const shown = isRecord(order) ? order.type : undefined;
    if (!isOrderType(shown))
      throw new Error(`${operation.id}'s success example shows no order type the sandbox places`);
    type = shown;
    placedTypes.set(operation, type);
  }
  return type;
}

/** Places one order of the type the operation places, as its request describes it. */
export function placeOrder(context: CallContext, body: OrderFields): Answer {
  const { account } = caller(context);
  const checked = checkOrder(context, account, placedType(context.operation), body);
  if (isAnswer(checked)) return checked;
  return ok(orderView(place(context.state, account, checked, context.now)));
}

export interface BulkOrders {
  orders: readonly unknown[];
  stopOnFail?: boolean;
}

/**
 * Places from 1 to 20 orders of the type the operation places, each following the rules of a
 * single order (`rules`, that operation's document, words their refusals); each gets its result
 * or its error. With `stopOnFail`, the first failure ends the batch: its error is the last item.
 */
export function placeBulk(context: CallContext, body: BulkOrders, rules: OperationDocument): Answer {
  {
    const { account } = caller(context);
    const { field, min, max, validateItem: validate } = context.operation.batch();
    if (body.orders.length < min || body.orders.length > max)
      return refuseWorded(context, field, 'ordersCount');
    const single: CallContext = { ...context, operation: rules };
    const type = placedType(context.operation);
    const results: { result: unknown; error: unknown }[] = [];
    for (const item of body.orders) {
      let answer: Answer;
      if (!validate(item)) {
        answer = schemaRefusal(rules, item, validate.errors ?? []);
      } else {
        const checked = checkOrder(single, account, type, item as OrderFields);
        answer = isAnswer(checked)
          ? checked
          : ok(orderView(place(context.state, account, checked, context.now)));
      }
      const placed = answer.status >= 200 && answer.status < 300;
      results.push(placed ? { result: answer.body, error: null } : { result: null, error: answer.body });
      if (!placed && body.stopOnFail) break;
    }
    return ok(results);
  }
}

/** The open spot order a request names: by clientOrderId when it gives one (it wins), else by orderId. */
function findOrder(account: AccountState, market: string, orderId?: number, clientOrderId?: string) {
  for (const order of account.orders.values()) {
    if (order.market !== market || order.kind !== 'spot') continue;
    if (clientOrderId ? order.clientOrderId === clientOrderId : order.orderId === orderId) return order;
  }
  return undefined;
}

/**
 * The refusal of a request without `field`: the operation's `x-validation-example` with that
 * field's message, as the example words it (or the documents' template of a missing field).
 */
function missingField(context: CallContext, field: string): Answer {
  const example = context.operation.validationExampleName();
  const worded = (context.operation.example(example).value as { errors?: Record<string, string[]> }).errors?.[
    field
  ];
  if (worded) return refuseWith(context, example, { [field]: worded });
  return schemaRefusal(context.operation, {}, [
    { keyword: 'required', instancePath: '', schemaPath: '', params: { missingProperty: field } },
  ]);
}

export interface CancelFields {
  market: string;
  orderId?: number;
  clientOrderId?: string;
}

export function cancelOne(context: CallContext, body: CancelFields): Answer {
  const { account } = caller(context);
  if (!context.state.markets.has(body.market)) return refuse(context, 'marketNotAvailable');
  if (body.orderId === undefined && !body.clientOrderId) return missingField(context, 'orderId');
  const order = findOrder(account, body.market, body.orderId, body.clientOrderId);
  if (!order) return refuse(context, 'orderNotFound');
  cancel(account, order, seconds(context.now));
  return ok(orderView(order));
}

export interface ModifyFields extends CancelFields {
  amount?: string;
  total?: string;
  price?: string;
  activationPrice?: string;
}

/**
 * Changes an open order: cancels it and places its replacement under a new orderId (the same
 * clientOrderId), atomically: a refused change leaves the order as it was.
 */
export function modify(context: CallContext, body: ModifyFields): Answer {
  const { account } = caller(context);
  if (!spotMarket(context, body.market)) return refuse(context, 'marketNotAvailable');
  if (body.orderId === undefined && !body.clientOrderId) {
    return refuseWorded(context, 'orderId', 'orderIdOrClientOrderId');
  }
  const changes = [body.amount, body.total, body.price, body.activationPrice];
  if (changes.every((change) => change === undefined))
    return refuseWorded(context, 'amount', 'nothingToChange');
  const order = findOrder(account, body.market, body.orderId, body.clientOrderId);
  if (!order || order.type === 'market' || order.type === 'stock market')
    return refuse(context, 'orderNotFound');
  // A stop-market buy is sized in what it spends: its `total`.
  const amount = isQuoteSized(order) ? (body.total ?? order.amount) : (body.amount ?? order.amount);
  const fields: OrderFields = {
    market: order.market,
    side: order.side,
    amount,
    ...(order.type === 'stop market' ? {} : { price: body.price ?? order.price }),
    ...(order.activationPrice === undefined
      ? {}
      : { activation_price: body.activationPrice ?? order.activationPrice }),
    clientOrderId: order.clientOrderId,
    postOnly: order.postOnly,
    ioc: order.ioc,
    rpi: order.rpi,
    stp: order.stp,
  };
  const checked = checkOrder(context, account, order.type, fields, { replacing: order });
  if (isAnswer(checked)) return checked;
  cancel(account, order, seconds(context.now));
  return ok(orderView(place(context.state, account, checked, context.now)));
}

export interface BulkCancel {
  orders: readonly unknown[];
}

/**
 * The item failures of the example `itemErrors`, in the order it lists them (an item that is not
 * a valid object, a missing market, a market that does not exist, neither identifier, both);
 * its last item, the trading service not answering, is not something the sandbox's state does.
 */
const itemFailures = ['invalidItem', 'marketMissing', 'marketUnknown', 'neitherId', 'bothIds'] as const;

/** Cancels 1 to 100 orders, each answered on its own: its identifiers, or why it was not cancelled. */
export function cancelBulk(context: CallContext, body: BulkCancel): Answer {
  const { account } = caller(context);
  const { min, max, validateItem: validate } = context.operation.batch();
  if (body.orders.length < min || body.orders.length > max) return refuse(context, 'tooManyOrders');
  const itemErrors = context.operation.example('itemErrors').value as { error: unknown }[];
  const failure = (name: (typeof itemFailures)[number]) => ({
    result: null,
    error: itemErrors[itemFailures.indexOf(name)]?.error,
  });
  const notFound = (context.operation.example('oneCancelledOneNotFound').value as { error: unknown }[]).find(
    (item) => item.error,
  );
  const at = seconds(context.now);
  return ok(
    body.orders.map((item) => {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) return failure('invalidItem');
      const fields = item as Partial<CancelFields>;
      if (fields.market === undefined) return failure('marketMissing');
      if (!validate(item)) return failure('invalidItem');
      const { market, orderId, clientOrderId } = fields as CancelFields;
      if (!context.state.markets.has(market)) return failure('marketUnknown');
      if (orderId === undefined && clientOrderId === undefined) return failure('neitherId');
      if (orderId !== undefined && clientOrderId !== undefined) return failure('bothIds');
      const order = findOrder(account, market, orderId, clientOrderId);
      if (!order) return notFound;
      cancel(account, order, at);
      return { result: { orderId: order.orderId, clientOrderId: order.clientOrderId, market }, error: null };
    }),
  );
}

export interface CancelAllQuery {
  market?: string;
  type?: readonly OrderKind[];
  positionSide?: 'both' | 'long' | 'short';
}

/** Cancels every open order that matches: what each holds goes back to available. */
export function cancelAll(context: CallContext, body: CancelAllQuery): Answer {
  const { account } = caller(context);
  const market = body.market === undefined ? undefined : context.state.markets.get(body.market);
  if (body.market !== undefined && !market) return refuse(context, 'marketNotAvailable');
  // Observed upstream: positionSide only for perpetual futures markets. The refusal's wording
  // is not published; it takes the validation answer (code 30) with the document's wording.
  if (body.positionSide !== undefined && market?.type !== 'futures') {
    return refuseWorded(context, 'positionSide', 'positionSideNotPerpetual');
  }
  const kinds = body.type && body.type.length > 0 ? new Set<string>(body.type) : undefined;
  const at = seconds(context.now);
  for (const order of [...account.orders.values()]) {
    if (body.market !== undefined && order.market !== body.market) continue;
    if (kinds !== undefined && !kinds.has(order.kind)) continue;
    if (
      body.positionSide !== undefined &&
      body.positionSide !== 'both' &&
      order.positionSide !== body.positionSide
    ) {
      continue;
    }
    cancel(account, order, at);
  }
  return ok([]);
}
