// An order of the sandbox's exchange and what it needs of the trade balance: the types the
// exchange, the state and the handlers share, and the rules that need nothing but an order and its
// market. The state seeds the fixture's orders with these; the exchange trades them.
import type { OrderKind, OrderSide } from './api-types.ts';
import { add, max, multiply, normalize, percent, round } from './decimal.ts';
import type { FixtureMarket, OrderType as RestingType } from './fixture.ts';

export type OrderType = RestingType | 'market' | 'stock market';

/** Every order type the exchange places (the operations' answers name theirs). */
const orderTypes: ReadonlySet<unknown> = new Set<OrderType>([
  'limit',
  'market',
  'stock market',
  'stop limit',
  'stop market',
]);

export const isOrderType = (value: unknown): value is OrderType => orderTypes.has(value);

/** A market as the sandbox trades it: the fixture's facts with their defaults, and its price. */
export interface MarketState extends Required<Omit<FixtureMarket, 'delistedAt'>> {
  delistedAt: number | null;
}

export type OrderStatus = 'NEW' | 'FILLED' | 'CANCELED';

export interface Order {
  orderId: number;
  /** The empty string when the caller gave none. */
  clientOrderId: string;
  market: string;
  kind: OrderKind;
  type: OrderType;
  side: OrderSide;
  /** In the base asset, or the quote to spend for a market or stop-market buy. */
  amount: string;
  /** The limit price; "0" for market and stop-market orders. */
  price: string;
  activationPrice?: string;
  /** Stop orders: whether the activation price was reached; other orders are active from the start. */
  activated: boolean;
  postOnly: boolean;
  ioc: boolean;
  rpi: boolean;
  stp: string;
  positionSide?: 'long' | 'short';
  /** Creation time, Unix seconds with a fractional part. */
  timestamp: number;
  dealStock: string;
  dealMoney: string;
  dealFee: string;
  status: OrderStatus;
  /** When it was filled or cancelled, Unix seconds. */
  finishedAt?: number;
  /** Cancelled because its market was delisted (the delisted order history lists it). */
  cancelledByDelisting?: boolean;
  /** What it holds of the trade balance while open: none for margin and futures orders. */
  hold?: { asset: string; amount: string };
  /** The market's fee percentages when the order was placed. */
  makerFee: string;
  takerFee: string;
}

export interface Deal {
  id: number;
  orderId: number;
  /** The other side of the deal: the market's liquidity, under an order id of its own. */
  dealOrderId: number;
  clientOrderId: string;
  market: string;
  time: number;
  side: OrderSide;
  /** 1 maker (the order rested on the book), 2 taker. */
  role: 1 | 2;
  amount: string;
  price: string;
  deal: string;
  fee: string;
  feeAsset: string;
  rpi: boolean;
}

/** What a new order asks for: the fields of a request, checked against the market's rules. */
export interface OrderDraft {
  market: MarketState;
  type: OrderType;
  side: OrderSide;
  amount: string;
  price?: string;
  activationPrice?: string;
  clientOrderId: string;
  postOnly: boolean;
  ioc: boolean;
  rpi: boolean;
  stp: string;
}

export const seconds = (milliseconds: number) => milliseconds / 1000;

/** Whether a market takes new orders at `now` (ms): listed as trading and not delisted yet. */
export function isTrading(market: MarketState, now: number): boolean {
  return market.tradesEnabled && (market.delistedAt === null || market.delistedAt * 1000 > now);
}

/** Whether an order's amount is in the quote asset (a market or stop-market buy spends it). */
export function isQuoteSized(order: Pick<Order, 'side' | 'type'>): boolean {
  return order.side === 'buy' && (order.type === 'market' || order.type === 'stop market');
}

export const isStop = (type: OrderType) => type === 'stop limit' || type === 'stop market';
export const fee = (market: MarketState, money: string, rate: string) =>
  round(multiply(money, percent(rate)), Number(market.feePrec), 'up');

/**
 * What an order needs of the trade balance: a resting order holds it until it fills or is
 * cancelled, a market order spends it at once. A buy holds its total plus the larger fee at its
 * limit price (at the market price for a stock market buy); a sell, its amount.
 */
export function requirement(draft: OrderDraft): { asset: string; amount: string } {
  const { market } = draft;
  if (draft.side === 'sell') return { asset: market.stock, amount: normalize(draft.amount) };
  const rate =
    draft.type === 'limit' || draft.type === 'stop limit'
      ? max(market.makerFee, market.takerFee)
      : market.takerFee;
  const total = isQuoteSized(draft)
    ? draft.amount
    : multiply(draft.amount, draft.type === 'stock market' ? market.price : (draft.price as string));
  return { asset: market.money, amount: add(total, fee(market, total, rate)) };
}
