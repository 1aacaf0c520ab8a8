// The account channels of the sandbox's streams, read from the authorized account's state as the
// REST operations read it: the trade balance (`tradeBalances`), the open and finished orders
// (`orderView`, the order history's `keptInHistory`), the deals, the collateral balance and
// positions (`positionFigures`). A feed keeps where it was in the account's lists and sends what
// came after, in the order the state recorded it, with the state's own times.
import { collateralOf, positionFigures } from '../collateral.ts';
import { multiply } from '../decimal.ts';
import { orderView } from '../exchange.ts';
import { keptInHistory, tradeBalances } from '../handlers/queries.ts';
import type { Deal, Order } from '../orders.ts';
import type { AccountState, SandboxState } from '../state.ts';
import type { ChannelSource, Feed, Params, StreamView } from './channel.ts';
import { invalidArgument } from './failures.ts';

/** The order types as numbers (observed upstream, the operator's table for the account streams). */
const spotTypeCodes: Readonly<Record<string, number>> = {
  limit: 1,
  market: 2,
  'stock market': 202,
  'stop limit': 3,
  'stop market': 4,
};
const collateralTypeCodes: Readonly<Record<string, number>> = {
  limit: 7,
  market: 8,
  'stop limit': 9,
  'stop market': 10,
};
/** Self-trade prevention in the streams' short form (observed upstream). */
const stpCodes: Readonly<Record<string, string>> = {
  no: 'no',
  cancel_old: 'co',
  cancel_new: 'cn',
  cancel_both: 'cb',
};
/** A side as a number: 1 sell, 2 buy (observed upstream). */
const sideCode = (side: string) => (side === 'sell' ? 1 : 2);

const typeCodeOf = (order: Order) =>
  (order.kind === 'spot' ? spotTypeCodes : collateralTypeCodes)[order.type] ?? 0;
/** Whether an order is a limit order for the executed orders' filter: a limit or stop-limit one. */
const isLimitOrder = (order: Order) => order.type === 'limit' || order.type === 'stop limit';

/** An order as the order streams give it, from the same view the REST operations answer. */
function streamOrder(state: SandboxState, account: AccountState, order: Order) {
  const view = orderView(order);
  const collateral =
    order.kind === 'spot' ? undefined : collateralOf(state, account).orders.get(order.orderId);
  return {
    id: view.orderId,
    market: view.market,
    type: typeCodeOf(order),
    side: sideCode(view.side),
    post_only: view.postOnly,
    ioc: view.ioc,
    ctime: order.timestamp,
    mtime: order.finishedAt ?? order.timestamp,
    price: view.price,
    amount: view.amount,
    left: view.left,
    deal_stock: view.dealStock,
    deal_money: view.dealMoney,
    deal_fee: view.dealFee,
    client_order_id: view.clientOrderId,
    stp: stpCodes[view.stp] ?? view.stp,
    status: order.status === 'NEW' ? 'OPEN' : order.status,
    ...(collateral ? { position_side: collateral.positionSide } : {}),
    rpi: view.rpi,
    reduce_only: collateral?.reduceOnly ?? false,
  };
}

/** A finished order as the executed-orders channel gives it: when it finished, its source, the fee's asset. */
function executedOrder(state: SandboxState, account: AccountState, order: Order) {
  return {
    ...streamOrder(state, account, order),
    ftime: order.finishedAt ?? order.timestamp,
    // Every order of the sandbox is placed through the API.
    source: 'api',
    fee_asset: state.market(order.market).money,
  };
}

/** A deal as the deals channel's query answers it. */
const dealRecord = (deal: Deal) => ({
  time: deal.time,
  id: deal.id,
  side: sideCode(deal.side),
  role: deal.role,
  price: deal.price,
  amount: deal.amount,
  deal: deal.deal,
  fee: deal.fee,
  order_id: deal.orderId,
  deal_order_id: deal.dealOrderId,
  market: deal.market,
  client_order_id: deal.clientOrderId,
  fee_asset: deal.feeAsset,
});

/** A deal as a deals update gives it: eleven positions. */
const dealPositions = (deal: Deal) => [
  deal.id,
  deal.time,
  deal.market,
  deal.orderId,
  deal.price,
  deal.amount,
  deal.fee,
  deal.clientOrderId,
  sideCode(deal.side),
  deal.role,
  deal.feeAsset,
];

/** The authorized account (the connection reaches a channel here only once authorized). */
function accountOf(view: StreamView): AccountState {
  if (!view.account) throw new Error('an account channel was reached before authorization');
  return view.account;
}

/** A page of `rows`, as the order and deal answers give it. */
const page = <Row>(rows: readonly Row[], offset: number, limit: number) => ({
  limit,
  offset,
  records: rows.slice(Math.max(0, offset), Math.max(0, offset) + Math.max(0, limit)),
});

/** The markets a list names (each must exist), or every market for an empty list. */
function namedMarkets(view: StreamView, names: readonly unknown[]): Set<string> | undefined {
  if (names.length === 0) return new Set(view.state.markets.keys());
  return names.every((name) => typeof name === 'string' && view.state.markets.has(name))
    ? new Set(names as string[])
    : undefined;
}

/** Assets a list names (each must be one the sandbox knows), or undefined when one is not. */
const knownAssets = (view: StreamView, names: readonly unknown[]) =>
  names.every((name) => typeof name === 'string' && view.state.assets.has(name))
    ? (names as string[])
    : undefined;

/**
 * Per-asset values: every named asset at first (for no name, every asset the account holds
 * something of), then each that changed, an asset no longer held among them (as zero), and every
 * interval with nothing new, all of them again.
 */
function balanceFeed(
  named: readonly string[],
  current: (view: StreamView, account: AccountState) => Map<string, unknown>,
  send: (changed: Map<string, unknown>) => unknown[],
): Feed {
  let sent: { account: AccountState; values: Map<string, string> } | undefined;
  return {
    again(view) {
      const values = current(view, accountOf(view));
      const held = [...values].filter(([, value]) => named.length > 0 || !isNothing(value));
      return held.length > 0 ? send(new Map(held)) : [];
    },
    next(view) {
      const account = accountOf(view);
      const values = current(view, account);
      const changed = new Map<string, unknown>();
      const before = sent?.account === account ? sent.values : undefined;
      const texts = new Map([...values].map(([asset, value]) => [asset, JSON.stringify(value)]));
      for (const [asset, value] of values) {
        if (
          before === undefined
            ? named.length > 0 || !isNothing(value)
            : before.get(asset) !== texts.get(asset)
        )
          changed.set(asset, value);
      }
      sent = { account, values: texts };
      return changed.size > 0 ? send(changed) : [];
    },
  };
}

/** Whether an asset's balance holds nothing: every amount in it zero. */
const isNothing = (value: unknown) =>
  typeof value === 'object' && value !== null && Object.values(value).every((amount) => amount === '0');

const spotBalances = (named: readonly string[]) => (_view: StreamView, account: AccountState) =>
  new Map(
    Object.entries(tradeBalances(account, named.length > 0 ? named : [...account.trade.keys()].sort())),
  );

interface MarginBalance {
  balance: string;
  borrow: string;
  available_without_borrow: string;
  available_with_borrow: string;
}

function marginBalances(named: readonly string[]) {
  return (_view: StreamView, account: AccountState): Map<string, MarginBalance> => {
    const assets = named.length > 0 ? named : account.collateral.map((item) => item.asset);
    return new Map(
      assets.map((asset) => {
        const item = account.collateral.find((candidate) => candidate.asset === asset);
        return [
          asset,
          {
            balance: item?.balance ?? '0',
            borrow: item?.borrow ?? '0',
            available_without_borrow: item?.availableWithoutBorrow ?? '0',
            available_with_borrow: item?.availableWithBorrow ?? '0',
          },
        ];
      }),
    );
  };
}

/**
 * The account's open orders of some markets, as they change: 3 for each order that finished
 * since, in the order they finished, then 1 for each order new since (an order that finished at
 * once is only finished), and 1 again for a stop order that activated (observed upstream).
 */
function pendingFeed(markets: ReadonlySet<string>): Feed {
  let seen: { account: AccountState; open: Map<number, boolean>; closed: number } | undefined;
  const baseline = (account: AccountState) => ({
    account,
    open: new Map([...account.orders.values()].map((order) => [order.orderId, order.activated])),
    closed: account.closed.length,
  });
  return {
    next(view) {
      const account = accountOf(view);
      if (seen?.account !== account) {
        seen = baseline(account);
        return [];
      }
      const updates: unknown[] = [];
      for (const order of account.closed.slice(seen.closed)) {
        if (markets.has(order.market)) updates.push([3, streamOrder(view.state, account, order)]);
      }
      for (const order of account.orders.values()) {
        if (!markets.has(order.market)) continue;
        const was = seen.open.get(order.orderId);
        if (was === undefined || (was === false && order.activated))
          updates.push([1, streamOrder(view.state, account, order)]);
      }
      seen = baseline(account);
      return updates;
    },
  };
}

/** The account's orders of some markets as they finish, those the order history keeps, of a kind. */
function executedFeed(markets: ReadonlySet<string>, filter: number): Feed {
  let seen: { account: AccountState; closed: number } | undefined;
  const wanted = (order: Order) => filter === 0 || (filter === 1) === isLimitOrder(order);
  return {
    next(view) {
      const account = accountOf(view);
      const from = seen?.account === account ? seen.closed : account.closed.length;
      seen = { account, closed: account.closed.length };
      return account.closed
        .slice(from)
        .filter((order) => markets.has(order.market) && keptInHistory(account, order) && wanted(order))
        .map((order) => [executedOrder(view.state, account, order)]);
    },
  };
}

/** The account's deals of some markets, as they happen. */
function dealsFeed(markets: ReadonlySet<string>): Feed {
  let seen: { account: AccountState; deals: number } | undefined;
  return {
    next(view) {
      const account = accountOf(view);
      const from = seen?.account === account ? seen.deals : account.deals.length;
      seen = { account, deals: account.deals.length };
      return account.deals
        .slice(from)
        .filter((deal) => markets.has(deal.market))
        .map(dealPositions);
    },
  };
}

const abs = (value: string) => (value.startsWith('-') ? value.slice(1) : value);

/** The account's open positions, as the positions channel gives them. */
function positionRecords(view: StreamView, account: AccountState) {
  const collateral = collateralOf(view.state, account, view.now);
  return [...collateral.positions.values()].map((position) => {
    const { basePrice, unrealized, margin, freeMargin } = positionFigures(view.state, account, position);
    return {
      id: position.positionId,
      market: position.market,
      ctime: position.openDate,
      mtime: position.modifyDate,
      amount: position.size,
      amount_in_money: multiply(abs(position.size), view.state.market(position.market).price),
      base_price: basePrice,
      pnl: unrealized,
      // The sandbox does not model liquidation: no price, no stage.
      liq_stage: null,
      // Funding is settled to the balance, not kept on the position (as its REST view says).
      unrealized_funding: '0',
      funding: '0',
      margin,
      free_margin: freeMargin,
      realized_pnl: position.realized,
      position_side: position.side,
    };
  });
}

/** A value of the whole account, sent whenever it differs from the one sent before. */
function accountValueFeed(read: (view: StreamView, account: AccountState) => unknown): Feed {
  let sent: string | undefined;
  return {
    again: (view) => [read(view, accountOf(view))],
    next(view) {
      const value = read(view, accountOf(view));
      const text = JSON.stringify(value);
      if (text === sent) return [];
      sent = text;
      return [value];
    },
  };
}

/** A feed that never has anything to say: what the sandbox does not model. */
const silent: Feed = { next: () => [] };

const onlyEmpty = (params: Params) => (params.length === 0 ? [silent] : invalidArgument);

export const accountChannels = {
  authorize: {
    query(_method, [token], view, session) {
      const account = typeof token === 'string' ? view.state.accountOfStreamToken(token) : undefined;
      if (!account) return invalidArgument;
      session.authorize(account);
      return { status: 'success' };
    },
  },
  balanceSpot: {
    query(_method, params, view) {
      const assets = knownAssets(view, params);
      if (!assets) return invalidArgument;
      return tradeBalances(accountOf(view), assets.length > 0 ? assets : undefined);
    },
    subscribe(params, view) {
      const assets = knownAssets(view, params);
      if (!assets) return invalidArgument;
      return [balanceFeed(assets, spotBalances(assets), (changed) => [[Object.fromEntries(changed)]])];
    },
  },
  balanceMargin: {
    query(_method, params, view) {
      const assets = knownAssets(view, params);
      if (!assets) return invalidArgument;
      return Object.fromEntries(marginBalances(assets)(view, accountOf(view)));
    },
    subscribe(params, view) {
      const assets = knownAssets(view, params);
      if (!assets) return invalidArgument;
      return [
        balanceFeed(assets, marginBalances(assets), (changed) => [
          [...changed].map(([asset, value]) => {
            const item = value as MarginBalance;
            return {
              a: asset,
              B: item.balance,
              b: item.borrow,
              av: item.available_without_borrow,
              ab: item.available_with_borrow,
            };
          }),
        ]),
      ];
    },
  },
  ordersPending: {
    query(_method, [market, offset, limit], view) {
      if (typeof market !== 'string' || !view.state.markets.has(market)) return invalidArgument;
      const account = accountOf(view);
      const open = [...account.orders.values()].filter((order) => order.market === market);
      return {
        ...page(
          open.map((order) => streamOrder(view.state, account, order)),
          offset,
          limit,
        ),
        total: open.length,
      };
    },
    subscribe(params, view) {
      const markets = namedMarkets(view, params);
      return markets ? [pendingFeed(markets)] : invalidArgument;
    },
  },
  ordersExecuted: {
    query(_method, [filter, offset, limit], view) {
      const market: unknown = filter?.market;
      if (market !== undefined && (typeof market !== 'string' || !view.state.markets.has(market)))
        return invalidArgument;
      const types: number[] = Array.isArray(filter?.order_types) ? filter.order_types : [];
      const account = accountOf(view);
      const finished = account.closed
        .filter(
          (order) =>
            (market === undefined || order.market === market) &&
            keptInHistory(account, order) &&
            (types.length === 0 || types.includes(typeCodeOf(order))),
        )
        .reverse();
      return page(
        finished.map((order) => executedOrder(view.state, account, order)),
        offset,
        limit,
      );
    },
    subscribe([names, filter], view) {
      const markets = namedMarkets(view, names);
      return markets ? [executedFeed(markets, filter)] : invalidArgument;
    },
  },
  deals: {
    query(_method, [market, offset, limit], view) {
      if (typeof market !== 'string' || !view.state.markets.has(market)) return invalidArgument;
      const deals = accountOf(view)
        .deals.filter((deal) => deal.market === market)
        .reverse();
      return page(deals.map(dealRecord), offset, limit);
    },
    subscribe([names], view) {
      const markets = namedMarkets(view, names);
      return markets ? [dealsFeed(markets)] : invalidArgument;
    },
  },
  positions: {
    subscribe: (params) =>
      params.length === 0
        ? [
            accountValueFeed((view, account) => {
              const records = positionRecords(view, account);
              return { total: records.length, records };
            }),
          ]
        : invalidArgument,
  },
  // The sandbox models no margin call or liquidation: the subscription is taken, and stays silent.
  marginPositionsEvents: { subscribe: onlyEmpty },
  // The sandbox models no borrows: the collateral balance's `borrow` stays as the fixture seeds
  // it and no borrow is ever open, so the update says there are none.
  borrows: {
    subscribe: (params) =>
      params.length === 0 ? [accountValueFeed(() => ({ total: 0, records: [] }))] : invalidArgument,
  },
  borrowsEvents: { subscribe: onlyEmpty },
} satisfies Record<string, ChannelSource>;
