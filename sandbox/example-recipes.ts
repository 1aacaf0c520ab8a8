// Which call makes the sandbox answer each named error example of the documents (400 and 422),
// worked out from a fixture: the contract suite sends each one through its sandbox target, and
// the sandbox tests check the answer is the example. A recipe belongs to an example's name and
// serves every operation that documents that name, starting from the operation's own request
// example; an example the state cannot produce has no recipe (the tests name each, and why).
// Every recipe is a refusal, so replaying one changes nothing.
import type { JsonRecord } from '../model/json.ts';
import { add, compare, divide, isZero, multiply, round, subtract } from './decimal.ts';
import { type OperationDocument, projectDocuments, type SandboxDocuments } from './document.ts';
import {
  credentialKey,
  type Fixture,
  type FixtureCode,
  type FixtureFlexPlan,
  type FixtureKey,
  type FixtureMarket,
  type FixturePlan,
} from './fixture.ts';
import { convertedDecimals } from './handlers/convert.ts';

export interface Recipe {
  operationId: string;
  /** The named example the answer is. */
  example: string;
  /** Body fields beside request and nonce. */
  fields: Record<string, unknown>;
  /** The key to sign with. */
  key: FixtureKey;
}

/** What a recipe starts from. */
interface Kitchen {
  operation: OperationDocument;
  fixture: Fixture;
  /** The printed key (a partner key: it may call every operation). */
  key: FixtureKey;
  /** The operation's first request example that has `field` (any, without one), without request and nonce. */
  start(field?: string): Record<string, unknown> | undefined;
}

/** A recipe's call: the body fields, and the key when not the printed one. */
type Dish = { fields: Record<string, unknown>; key?: FixtureKey } | undefined;

const unknownPlan = '00000000-0000-4000-8000-000000000000';
const unknownOrderId = 1;
/** A market name no fixture uses (well-formed, so that it passes the schema). */
const unknownMarket = (fixture: Fixture) => {
  let name = 'NOPE_USDT';
  while (fixture.markets.some((market) => market.name === name)) name = `X${name}`;
  return name;
};
const unknownTicker = (fixture: Fixture) => {
  let ticker = 'NOSUCHCOIN';
  while (ticker in fixture.assets) ticker = `X${ticker}`;
  return ticker;
};
/** A mining account name no fixture makes: the one the operator's refusals show. */
const unknownMiningAccount = 'unknown_miner';
/** An amount no account of a fixture holds. */
const tooMuch = '1000000000000';

const marketOf = (fixture: Fixture, name: unknown): FixtureMarket | undefined =>
  fixture.markets.find((market) => market.name === name);
/** One unit of the last decimal place `precision` allows. */
const unit = (precision: string) =>
  Number(precision) === 0 ? '1' : `0.${'0'.repeat(Number(precision) - 1)}1`;

/** An enabled key whose account holds an open spot order with a clientOrderId: the order and the key. */
function orderWithClientId(fixture: Fixture) {
  for (const key of fixture.keys) {
    if (key.enabled === false) continue;
    const account = fixture.accounts.find((candidate) => candidate.id === key.account);
    const order = account?.openOrders?.find(
      (candidate) =>
        candidate.clientOrderId && (candidate.kind ?? 'spot') === 'spot' && candidate.type !== 'stop market',
    );
    if (order && marketOf(fixture, order.market)) return { key, order };
  }
  return undefined;
}

/**
 * The order recipes sell: a sell's amount is in the base asset whatever the order type. Without
 * the example's clientOrderId: once the example itself was accepted (a contract run sends both to
 * one sandbox), that id is used, and its refusal would come first.
 */
function sell(
  kitchen: Kitchen,
  change: (market: FixtureMarket) => Record<string, unknown> | undefined,
): Dish {
  const start = kitchen.start('side');
  const market = marketOf(kitchen.fixture, start?.market);
  if (!start || !market) return undefined;
  const fields = change(market);
  const { clientOrderId: _, ...rest } = start;
  return fields && { fields: { ...rest, side: 'sell', ...fields } };
}

// --- invest -------------------------------------------------------------------------------

const investable = (plan: FixturePlan) =>
  plan.status === 'active' && !plan.specialOffer && plan.decimals === undefined;
const balanceOf = (kitchen: Kitchen, ticker: string) =>
  kitchen.fixture.accounts.find((account) => account.id === kitchen.key.account)?.mainBalances?.[ticker] ??
  '0';
/** A plan without limits of its own that the key can afford the minimum of. */
function plainPlan(kitchen: Kitchen) {
  return kitchen.fixture.plans.find(
    (plan) =>
      investable(plan) &&
      plan.available === undefined &&
      plan.interestFunds === undefined &&
      compare(balanceOf(kitchen, plan.currency), plan.minAmount) >= 0,
  );
}
const invest = (planId: string, amount: string): Dish => ({ fields: { planId, amount } });
const planWithStatus = (status: FixturePlan['status']) => (kitchen: Kitchen) => {
  const plan = kitchen.fixture.plans.find((candidate) => candidate.status === status);
  return plan && invest(plan.id, plan.minAmount);
};

// --- codes --------------------------------------------------------------------------------

/** The body that applies a code of the fixture, with its passphrase where it has one. */
const codeFields = (code: FixtureCode) => ({
  code: code.code,
  ...(code.passphrase === undefined ? {} : { passphrase: code.passphrase }),
});

// --- sub-accounts -------------------------------------------------------------------------

/** The fixture's sub-accounts of the key's account. */
const subAccountsOf = (fixture: Fixture, key: FixtureKey) =>
  fixture.accounts.filter((account) => account.subAccount?.parent === key.account);

/** The fields the operation requires, beside request and nonce, as its request examples give them. */
function requiredFrom(operation: OperationDocument, start: Kitchen['start']): Record<string, unknown> {
  const required = operation.requiredFields().filter((field) => field !== 'request' && field !== 'nonce');
  return Object.fromEntries(required.map((field) => [field, start(field)?.[field]]));
}

// --- lending ------------------------------------------------------------------------------

/** An open flex plan, and one in each state that refuses an investment. */
const flexPlan = (fixture: Fixture, state: 'open' | 'paused' | 'unavailable' | 'private') =>
  (fixture.flexPlans ?? []).find((plan) =>
    state === 'private'
      ? plan.private && (plan.status ?? 'active') === 'active'
      : state === 'open'
        ? (plan.status ?? 'active') === 'active' && !plan.private && plan.available === undefined
        : plan.status === state,
  );

/** The key's flex investments in a plan: whether it holds an active one, a closed one only, or none. */
function flexHolding(kitchen: Kitchen, plan: FixtureFlexPlan) {
  const held = (accountOf(kitchen)?.flexInvestments ?? []).filter((seed) => seed.planId === plan.id);
  const active = held.find((seed) => (seed.status ?? 'active') === 'active');
  return active ?? (held.length > 0 ? 'closed' : 'none');
}

/** An open flex plan where the key holds an active investment, a closed one only, or none. */
function flexPlanHeld(kitchen: Kitchen, holding: 'active' | 'closed' | 'none') {
  for (const plan of kitchen.fixture.flexPlans ?? []) {
    if ((plan.status ?? 'active') !== 'active' || plan.private) continue;
    const held = flexHolding(kitchen, plan);
    if (typeof held === 'object' ? holding === 'active' : held === holding) return { plan, held };
  }
  return undefined;
}

/** The operation's required fields from its request example, in the plan `planId`. */
const inPlan = (kitchen: Kitchen, planId: string, fields: Record<string, unknown> = {}): Dish => ({
  fields: { ...requiredFrom(kitchen.operation, kitchen.start), plan: planId, ...fields },
});

const investFlex = (state: Parameters<typeof flexPlan>[1]) => (kitchen: Kitchen) => {
  const plan = flexPlan(kitchen.fixture, state);
  return plan && inPlan(kitchen, plan.id, { amount: plan.minAmount });
};

/** The amount of the key's active investment in an open plan changed by `change`. */
const withdrawFlex = (change: (invested: string, plan: FixtureFlexPlan) => string) => (kitchen: Kitchen) => {
  const found = flexPlanHeld(kitchen, 'active');
  if (!found || typeof found.held !== 'object') return undefined;
  return inPlan(kitchen, found.plan.id, { amount: change(found.held.invested, found.plan) });
};

// --- convert ------------------------------------------------------------------------------

const accountOf = (kitchen: Kitchen) =>
  kitchen.fixture.accounts.find((account) => account.id === kitchen.key.account);
/** Now, when the recipes are worked out: a quote's expiry is on the sandbox's clock. */
const nowSeconds = () => Math.floor(Date.now() / 1000);
const day = 86_400;
/** The key's quotes that are expired now, or that stay valid at least a day more. */
const quotesOf = (kitchen: Kitchen, expired: boolean) =>
  (accountOf(kitchen)?.quotes ?? []).filter((quote) =>
    expired ? quote.expireAt <= nowSeconds() : quote.expireAt > nowSeconds() + day,
  );
/** A quote id that no account of the fixture holds or used. */
function unknownQuoteId(fixture: Fixture) {
  const known = new Set(
    fixture.accounts.flatMap((account) => [
      ...(account.quotes ?? []).map((quote) => quote.id),
      ...(account.conversions ?? []).map((conversion) => conversion.quoteId),
    ]),
  );
  let id = 1;
  while (known.has(String(id))) id += 1;
  return String(id);
}
/** The spot markets of a fixture that trade now: a conversion goes through one of them. */
const convertible = (fixture: Fixture) =>
  fixture.markets.filter(
    (market) =>
      market.type === 'spot' &&
      market.tradesEnabled !== false &&
      (market.delistedAt === undefined || market.delistedAt === null || market.delistedAt > nowSeconds()),
  );
const convertedPlaces = (fixture: Fixture, ticker: string) => convertedDecimals(fixture.assets[ticker]);

// --- the wallet -----------------------------------------------------------------------------

/** A uniqueId no withdrawal takes: a recipe is a refusal, so it stays free. */
const freshUniqueId = 'recipe-never-taken';

/**
 * A withdrawal recipe: the operation's first request example with a uniqueId no call takes (once
 * the example itself was accepted, its own is taken, and that refusal would come first), changed
 * by `change` from the example's asset.
 */
function withdrawal(
  kitchen: Kitchen,
  change: (ticker: string, asset: Record<string, unknown>) => Record<string, unknown> | undefined,
): Dish {
  const start = kitchen.start('uniqueId');
  const ticker = String(start?.ticker);
  const asset = kitchen.fixture.assets[ticker];
  const fields = start && asset && change(ticker, asset);
  return fields && { fields: { ...start, uniqueId: freshUniqueId, ...fields } };
}

/** The least a withdrawal of an asset is charged, whatever its amount: the fixed fee and the smallest percentage fee. */
const leastWithdrawalFee = (fixture: Fixture, ticker: string) => {
  const rule = fixture.transferFees?.[ticker]?.withdraw ?? {};
  return add(rule.fixed ?? '0', rule.percent && !isZero(rule.percent) ? (rule.minFee ?? '0') : '0');
};

/** A uniqueId a withdrawal of the key's account took before the sandbox started. */
const seededUniqueId = (kitchen: Kitchen) =>
  accountOf(kitchen)?.transactions?.find((row) => row.uniqueId !== undefined)?.uniqueId;

// --- the recipes, by example name -----------------------------------------------------------

const recipes: Readonly<Record<string, (kitchen: Kitchen) => Dish>> = {
  // Invest: a plan of each state, and amounts against each of its limits.
  unknownPlan: () => invest(unknownPlan, '10'),
  planPaused: planWithStatus('paused'),
  planInactive: planWithStatus('inactive'),
  planDisabled: planWithStatus('disabled'),
  noCoinsLeft: planWithStatus('no-coins-left'),
  specialOffer: ({ fixture }) => {
    const plan = fixture.plans.find((candidate) => candidate.status === 'active' && candidate.specialOffer);
    return plan && invest(plan.id, plan.minAmount);
  },
  tooManyDecimals: ({ fixture }) => {
    const plan = fixture.plans.find(
      (candidate) => candidate.status === 'active' && candidate.decimals !== undefined,
    );
    return plan?.decimals === undefined
      ? undefined
      : invest(plan.id, `${plan.minAmount.split('.')[0]}.${'1'.repeat(plan.decimals + 1)}`);
  },
  amountExceedsPlan: ({ fixture }) => {
    const plan = fixture.plans.find(
      (candidate) => investable(candidate) && candidate.available !== undefined,
    );
    return plan?.available === undefined ? undefined : invest(plan.id, `${plan.available}1`);
  },
  notEnoughForInterest: (kitchen) => {
    const plan = kitchen.fixture.plans.find(
      (candidate) => investable(candidate) && candidate.interestFunds !== undefined,
    );
    if (plan?.interestFunds === undefined || plan.interestRate === undefined) return undefined;
    // The smallest amount the plan takes whose interest is more than the plan can pay.
    let amount = plan.minAmount;
    while (compare(multiply(amount, plan.interestRate), plan.interestFunds) <= 0)
      amount = multiply(amount, '2');
    const affordable =
      compare(amount, plan.maxAmount) <= 0 && compare(amount, balanceOf(kitchen, plan.currency)) <= 0;
    return affordable ? invest(plan.id, amount) : undefined;
  },
  amountTooSmall: (kitchen) => {
    if (kitchen.start('planId')) {
      const plan = plainPlan(kitchen);
      return plan && invest(plan.id, '0.0000001');
    }
    // A move between balances: a tenth of the smallest amount it takes.
    const start = kitchen.start('amount');
    const least = kitchen.operation.requestPropertyExtension('amount', 'x-minimum-amount');
    return start && typeof least === 'string'
      ? { fields: { ...start, amount: multiply(least, '0.1') } }
      : undefined;
  },
  amountAboveMaximum: (kitchen) => {
    const plan = plainPlan(kitchen);
    return plan && invest(plan.id, `${plan.maxAmount}1`);
  },
  amountNotANumber: (kitchen) => {
    const plan = plainPlan(kitchen);
    return plan && invest(plan.id, 'ten');
  },
  investmentExists: ({ fixture }) => {
    // A key that may hold one investment per plan, and already holds one.
    for (const key of fixture.keys.filter(
      (candidate) => candidate.partner && candidate.multipleInvestments === false,
    )) {
      const held = fixture.accounts.find((account) => account.id === key.account)?.history?.[0];
      const plan = fixture.plans.find((candidate) => candidate.id === held?.planId);
      if (plan && investable(plan)) return { ...invest(plan.id, plan.minAmount), key } as Dish;
    }
    return undefined;
  },

  // Invest and orders share these names; the request's own fields tell which one it is.
  amountBelowMinimum: (kitchen) => {
    if (kitchen.start('planId')) {
      const plan = plainPlan(kitchen);
      return plan && compare(plan.minAmount, '1') > 0 ? invest(plan.id, '1') : undefined;
    }
    return sell(kitchen, (market) =>
      compare(unit(market.stockPrec), market.minAmount) < 0 ? { amount: unit(market.stockPrec) } : undefined,
    );
  },
  // Convert: the estimate (`direction`) and the confirm (`quoteId`) share this name.
  insufficientBalance: (kitchen) => {
    if (kitchen.start('quoteId')) {
      // A quote made while the balance covered it, confirmed after it no longer does.
      const balances = accountOf(kitchen)?.mainBalances ?? {};
      const quote = quotesOf(kitchen, false).find(
        (candidate) => compare(candidate.give, balances[candidate.from] ?? '0') > 0,
      );
      return quote && { fields: { quoteId: quote.id } };
    }
    const start = kitchen.start('direction');
    return start && { fields: { ...start, direction: 'from', amount: tooMuch } };
  },
  quoteExpired: (kitchen) => {
    const [quote] = quotesOf(kitchen, true);
    return quote && { fields: { quoteId: quote.id } };
  },
  quoteAlreadyUsed: (kitchen) => {
    const [used] = accountOf(kitchen)?.conversions ?? [];
    return used && { fields: { quoteId: used.quoteId } };
  },
  quoteNotFound: ({ fixture }) => ({ fields: { quoteId: unknownQuoteId(fixture) } }),
  marketsNotAvailable: (kitchen) => {
    // Two assets no spot market that trades now converts between.
    const start = kitchen.start('direction');
    const markets = convertible(kitchen.fixture);
    const tickers = Object.keys(kitchen.fixture.assets);
    for (const from of tickers) {
      for (const to of tickers) {
        const linked = markets.some(
          (market) =>
            (market.stock === from && market.money === to) || (market.stock === to && market.money === from),
        );
        if (start && from !== to && !linked) return { fields: { ...start, from, to } };
      }
    }
    return undefined;
  },
  amountConvertsToZero: (kitchen) => {
    // The smallest amount of a market's quote asset, which buys less than the smallest amount of its base.
    const start = kitchen.start('direction');
    for (const market of convertible(kitchen.fixture)) {
      const amount = unit(String(convertedPlaces(kitchen.fixture, market.money)));
      const bought = multiply(amount, divide('1', market.price, 8));
      if (start && isZero(round(bought, convertedPlaces(kitchen.fixture, market.stock), 'down'))) {
        return { fields: { ...start, from: market.money, to: market.stock, direction: 'from', amount } };
      }
    }
    return undefined;
  },
  fromTickerInvalid: ({ fixture }) => ({ fields: { fromTicker: unknownTicker(fixture) } }),
  toTickerInvalid: ({ fixture }) => ({ fields: { toTicker: unknownTicker(fixture) } }),
  // A window one day longer than 30, and one that starts at the epoch: whatever the clock says.
  dateRangeExceeded: () => ({ fields: { from: '0', to: String(31 * day) } }),
  dateOutOfRange: () => ({ fields: { from: '1', to: '2' } }),

  notEnoughBalance: (kitchen) => {
    if (kitchen.start('planId')) {
      // The plan's maximum, the most above the balance: closing an investment or withdrawing
      // from one (as a contract run does) gives the balance money back.
      const plan = plainPlan(kitchen);
      const more = plan && compare(balanceOf(kitchen, plan.currency), plan.maxAmount) < 0;
      return plan && more ? invest(plan.id, plan.maxAmount) : undefined;
    }
    if (kitchen.start('side')) return sell(kitchen, () => ({ amount: tooMuch }));
    if (kitchen.start('uniqueId')) return withdrawal(kitchen, () => ({ amount: tooMuch }));
    // A move between balances, of more than its source holds.
    const move = kitchen.start('from');
    if (move) return { fields: { ...move, amount: tooMuch } };
    // A code of more than the main balance holds.
    const code = kitchen.start('passphrase');
    if (code && 'amount' in code) return { fields: { ...code, amount: tooMuch } };
    // A move to a sub-account of more than the account's main balance holds.
    const toSub = kitchen.start('direction');
    if (toSub && 'id' in toSub) return { fields: { ...toSub, amount: tooMuch } };
    // A change of an order: an open one of the fixture's, grown past any balance.
    const found = orderWithClientId(kitchen.fixture);
    return (
      found && {
        fields: { market: found.order.market, clientOrderId: found.order.clientOrderId, amount: tooMuch },
        key: found.key,
      }
    );
  },

  // Orders and their market.
  marketNotAvailable: (kitchen) => {
    const start = kitchen.start('market');
    return start && { fields: { ...start, market: unknownMarket(kitchen.fixture) } };
  },
  // The id is refused only while an open order of the account on the same market carries it.
  clientOrderIdUsed: (kitchen) => {
    const found = orderWithClientId(kitchen.fixture);
    const start = kitchen.start('side');
    return (
      found &&
      start && {
        fields: { ...start, market: found.order.market, clientOrderId: found.order.clientOrderId },
        key: found.key,
      }
    );
  },
  amountOffStep: (kitchen) => sell(kitchen, (market) => ({ amount: `${unit(market.stockPrec)}1` })),
  amountNotPositive: (kitchen) => sell(kitchen, () => ({ amount: '0' })),
  priceNotPositive: (kitchen) => sell(kitchen, () => ({ price: '0' })),
  priceBelowMinimum: (kitchen) =>
    sell(kitchen, (market) => ({ price: add(market.price, `${unit(market.moneyPrec)}1`) })),
  totalBelowMinimum: (kitchen) =>
    sell(kitchen, (market) => {
      const price = market.tickSize || unit(market.moneyPrec);
      return compare(multiply(market.minAmount, price), market.minTotal) < 0
        ? { amount: market.minAmount, price }
        : undefined;
    }),
  iocWithPostOnly: (kitchen) => {
    const start = kitchen.start('side');
    return start && { fields: { ...start, ioc: true, postOnly: true } };
  },
  orderNotFound: (kitchen) => {
    const start = kitchen.start('market');
    if (!start) return undefined;
    const { clientOrderId: _, ...rest } = start;
    return { fields: { ...rest, orderId: unknownOrderId } };
  },

  // Collateral trading: what the default fixture's collateral account does not hold.
  collateralMarketNotAvailable: ({ fixture }) => ({ fields: { market: unknownMarket(fixture) } }),
  windowOutOfOrder: () => ({ fields: { startDate: 2, endDate: 1 } }),
  // An id no account's collateral positions, OTO or OCO orders use: 1.
  positionNotFound: (kitchen) => {
    const start = kitchen.start('positionId');
    return start && { fields: { ...start, positionId: unknownOrderId } };
  },
  ocoOrderNotFound: (kitchen) => {
    const start = kitchen.start('orderId');
    return start && { fields: { ...start, orderId: unknownOrderId } };
  },
  otoOrderNotFound: (kitchen) => {
    const start = kitchen.start('otoId');
    return start && { fields: { ...start, otoId: unknownOrderId } };
  },
  // The fixture's printed key holds open collateral positions and orders: a setting's change is refused.
  openPositionsOrOrders: (kitchen) => {
    const start = kitchen.start();
    return start && { fields: start };
  },
  conditionalOrderNotFound: (kitchen) => {
    const start = kitchen.start('id');
    return start && { fields: { ...start, id: unknownOrderId } };
  },

  // The wallet: withdrawals, moves between balances, deposit addresses and the history.
  duplicateUniqueId: (kitchen) => {
    const taken = seededUniqueId(kitchen);
    return taken === undefined ? undefined : withdrawal(kitchen, () => ({ uniqueId: taken }));
  },
  invalidPartialEnable: (kitchen) => withdrawal(kitchen, () => ({ partialEnable: 'yes' })),
  amountBelowWithdrawalMinimum: (kitchen) =>
    withdrawal(kitchen, (ticker, asset) => {
      // Half the smallest withdrawal, where that is still above the least fee.
      const least = typeof asset.min_withdraw === 'string' ? asset.min_withdraw : '0';
      const amount = multiply(least, '0.5');
      return compare(amount, leastWithdrawalFee(kitchen.fixture, ticker)) > 0 ? { amount } : undefined;
    }),
  amountNotAboveFee: (kitchen) => {
    // Only where the fee is in the amount (its state change says so): with it on top, an amount
    // is never below it.
    if (kitchen.operation.stateChange()?.change !== 'withdrawFeeIncluded') return undefined;
    return withdrawal(kitchen, (ticker) => {
      const fee = leastWithdrawalFee(kitchen.fixture, ticker);
      return isZero(fee) ? undefined : { amount: fee };
    });
  },
  sameFromTo: (kitchen) => {
    const start = kitchen.start('from');
    return start && { fields: { ...start, to: start.from } };
  },
  invalidFromTo: (kitchen) => {
    const start = kitchen.start('from');
    return start && { fields: { ...start, from: 'vault', to: 'vault' } };
  },
  invalidMethod: (kitchen) => {
    const start = kitchen.start('method');
    return start && { fields: { ...start, method: 'sideways' } };
  },
  unknownNetwork: (kitchen) => {
    const start = kitchen.start('network');
    return start && { fields: { ...start, network: 'NOSUCHNETWORK' } };
  },
  // Every field the example names, as a number: none of them takes one.
  invalidTypes: ({ operation }) => ({
    fields: Object.fromEntries(
      Object.keys((operation.example('invalidTypes').value as { errors?: object }).errors ?? {}).map(
        (field) => [field, 5],
      ),
    ),
  }),
  invalidTransactionMethod: () => ({ fields: { transactionMethod: 3 } }),
  invalidStatus: () => ({ fields: { status: [99] } }),
  pageTooSmall: () => ({ fields: { limit: 0, offset: -1 } }),

  // Codes: a passphrase with a space, an unknown code, one applied before, one the key's account made.
  invalidPassphrase: (kitchen) => {
    const start = kitchen.start('passphrase');
    return start && { fields: { ...start, passphrase: 'two words' } };
  },
  codeNotApplied: () => ({ fields: { code: 'WB00000000-0000-4000-8000-000000000000USDT' } }),
  codeAlreadyApplied: ({ fixture }) => {
    const applied = fixture.codes?.find((code) => code.appliedBy !== undefined);
    return applied && { fields: codeFields(applied) };
  },
  ownCode: ({ fixture, key }) => {
    const own = fixture.codes?.find((code) => code.appliedBy === undefined && code.creator === key.account);
    return own && { fields: codeFields(own) };
  },

  // Mining: a mining account never made (by the name the operator's examples refuse), only where
  // the sandbox keeps mining accounts (a stateless operation answers its success example); an
  // external payout without an address.
  accountNotFound: ({ operation, start }) => {
    if (!operation.stateChange()) return undefined;
    const field = ['accountName', 'account', 'accounts'].find((name) => start(name) !== undefined);
    const example = field && start(field);
    if (!field || !example) return undefined;
    const value = field === 'accounts' ? [unknownMiningAccount] : unknownMiningAccount;
    return { fields: { ...example, [field]: value } };
  },
  // The name of a mining account of the key's account.
  nameTaken: ({ fixture, key, start }) => {
    const taken = fixture.accounts.find((account) => account.id === key.account)?.miningAccounts?.[0];
    const example = start('name');
    return taken && example && { fields: { ...example, name: taken.name } };
  },
  btcAddressRequired: ({ start }) => {
    const example = start('address');
    if (!example) return undefined;
    const { address: _, ...rest } = example;
    return { fields: rest };
  },

  // Sub-accounts: an unknown id, an alias another has, no email, a blocked one.
  subAccountNotFound: ({ start }) => ({ fields: { ...start('id'), id: unknownPlan } }),
  aliasTaken: ({ fixture, key, start }) => {
    const example = start('alias');
    // The last other one: the request examples rename and delete the first ones.
    const other = subAccountsOf(fixture, key)
      .filter((account) => account.id !== example?.id)
      .at(-1);
    return example && other?.subAccount && { fields: { ...example, alias: other.subAccount.alias } };
  },
  emailRequired: ({ start }) => {
    const example = start('alias');
    if (!example) return undefined;
    const { email: _, shareKyc: __, ...rest } = example;
    return { fields: rest };
  },
  // The fixture's last blocked sub-account: the unblock example unblocks another.
  subAccountBlocked: ({ fixture, key, start }) => {
    const blocked = subAccountsOf(fixture, key).filter((account) => account.subAccount?.blocked === true);
    const example = start('direction');
    const last = blocked.at(-1);
    return example && last && { fields: { ...example, id: last.id } };
  },

  // A sub-account the account does not have: by `subAccountId` (its API keys) or by `id` (its
  // verification link). The fixture's last blocked sub-account.
  unknownSubAccount: ({ start }) => {
    const byKeyField = start('subAccountId');
    if (byKeyField) return { fields: { ...byKeyField, subAccountId: unknownPlan } };
    return { fields: { ...start('id'), id: unknownPlan } };
  },
  subAccountNotActive: ({ fixture, key }) => {
    const last = subAccountsOf(fixture, key)
      .filter((account) => account.subAccount?.blocked === true)
      .at(-1);
    return last && { fields: { id: last.id } };
  },

  // A sub-account's withdrawal: an unknown id, one confirmed by a key of another account, one
  // its sub-account's main balance does not cover.
  unknownWithdrawal: () => ({ fields: { id: unknownPlan } }),
  withdrawalNotFound: ({ fixture, key }) => {
    const other = fixture.keys.find(
      (candidate) =>
        candidate.enabled !== false && candidate.account !== key.account && !candidate.operations,
    );
    const [withdrawal] = subAccountsOf(fixture, key).flatMap(
      (account) => account.subAccount?.unconfirmedWithdrawals ?? [],
    );
    return other && withdrawal && { fields: { id: withdrawal.id }, key: other };
  },
  withdrawalNotPossible: ({ fixture, key }) => {
    const [uncovered] = subAccountsOf(fixture, key).flatMap((account) =>
      (account.subAccount?.unconfirmedWithdrawals ?? []).filter(
        (withdrawal) => compare(withdrawal.amount, account.mainBalances?.[withdrawal.ticker] ?? '0') > 0,
      ),
    );
    return uncovered && { fields: { id: uncovered.id } };
  },

  // Sub-accounts' API keys: an address that is none (refused before the key is looked for).
  invalidIp: ({ start }) => {
    const example = start('ip');
    return example && { fields: { ...example, ip: 'not-an-address' } };
  },

  // Reads and the kill switch: an unknown ticker, in the operation's first example that has one.
  unknownTicker: (kitchen) => ({
    fields: { ...kitchen.start('ticker'), ticker: unknownTicker(kitchen.fixture) },
  }),
  // The main balance calls only a ticker of the wrong type invalid (an unknown one is "0"); the
  // collateral summary an unknown one too: the wrong type serves both.
  invalidTicker: () => ({ fields: { ticker: 5 } }),
  timeoutTooShort: (kitchen) => {
    const start = kitchen.start('timeout');
    return start && { fields: { ...start, timeout: '1' } };
  },
  tooManyOrders: (kitchen) => {
    const { field, max } = kitchen.operation.batch();
    const [first] = (kitchen.start(field)?.[field] as unknown[] | undefined) ?? [];
    return first && Number.isFinite(max)
      ? { fields: { [field]: Array.from({ length: max + 1 }, () => first) } }
      : undefined;
  },
  // The flex investment history, and the flex calls that name a plan.
  invalidPlan: (kitchen) => inPlan(kitchen, unknownPlan),
  // Fixed lending.
  investmentIdRequired: () => ({ fields: {} }),
  investmentNotFound: () => ({ fields: { id: unknownPlan } }),
  invalidPaymentFilter: ({ fixture }) => ({
    fields: { planId: unknownPlan, ticker: unknownTicker(fixture) },
  }),
  // Flex lending: a plan of each state, amounts against its limits, and the key's investments.
  flexAmountInvalid: (kitchen) => {
    const plan = flexPlan(kitchen.fixture, 'open');
    return plan && inPlan(kitchen, plan.id, { amount: 'ten' });
  },
  flexPlanPaused: investFlex('paused'),
  flexPlanUnavailable: investFlex('unavailable'),
  flexPlanPrivate: investFlex('private'),
  flexAmountNotPositive: (kitchen) => {
    const plan = flexPlan(kitchen.fixture, 'open');
    return plan && inPlan(kitchen, plan.id, { amount: '0' });
  },
  flexAmountBelowMinimum: (kitchen) => {
    const plan = flexPlan(kitchen.fixture, 'open');
    return plan && inPlan(kitchen, plan.id, { amount: divide(plan.minAmount, '2', 8) });
  },
  flexAmountAboveMaximum: (kitchen) => {
    const plan = flexPlan(kitchen.fixture, 'open');
    return plan && inPlan(kitchen, plan.id, { amount: add(plan.maxAmount, '1') });
  },
  flexInvestmentCapExceeded: (kitchen) => {
    const plan = (kitchen.fixture.flexPlans ?? []).find(
      (candidate) =>
        (candidate.status ?? 'active') === 'active' &&
        !candidate.private &&
        candidate.available !== undefined,
    );
    const amount = plan?.available === undefined ? undefined : add(plan.available, '1');
    return plan && amount && compare(amount, plan.maxAmount) <= 0
      ? inPlan(kitchen, plan.id, { amount })
      : undefined;
  },
  flexNotEnoughBalance: (kitchen) => {
    // A partner key whose account holds less than the open plan's minimum.
    const plan = flexPlan(kitchen.fixture, 'open');
    const key = kitchen.fixture.keys.find((candidate) => {
      const account = kitchen.fixture.accounts.find((held) => held.id === candidate.account);
      const balance = plan && account?.mainBalances?.[plan.currency];
      return (
        candidate.partner && candidate.enabled !== false && balance && compare(balance, plan.minAmount) < 0
      );
    });
    const dish = plan && key && inPlan(kitchen, plan.id, { amount: plan.minAmount });
    return dish && { ...dish, key };
  },
  flexInvestmentNotFound: (kitchen) => {
    const found = flexPlanHeld(kitchen, 'none');
    return found && inPlan(kitchen, found.plan.id);
  },
  flexInvestmentClosed: (kitchen) => {
    const found = flexPlanHeld(kitchen, 'closed');
    return found && inPlan(kitchen, found.plan.id);
  },
  flexWithdrawalNotPositive: withdrawFlex(() => '0'),
  flexWithdrawalExceedsInvested: withdrawFlex((invested) => add(invested, '1')),
  flexAmountLeftBelowMinimum: withdrawFlex((invested, plan) =>
    subtract(invested, divide(plan.minAmount, '2', 8)),
  ),
  flexNoInvestmentInPlan: (kitchen) => {
    const found = flexPlanHeld(kitchen, 'none');
    return found && inPlan(kitchen, found.plan.id, { enabled: true });
  },
  invalidInvestment: () => ({ fields: { investment: 'no-such-investment' } }),
  invalidTransaction: () => ({ fields: { transaction: 'no-such-transaction' } }),
  invalidDate: () => ({ fields: { dateFrom: -5 } }),
  invalidDateTo: () => ({ fields: { dateTo: -5 } }),
  actionTypesNotArray: () => ({ fields: { actionTypes: 1 } }),
  invalidActionType: () => ({ fields: { actionTypes: [9] } }),

  // Bodies that break the request schema: refused before any state is read (a validating proxy
  // in front refuses them first; the sandbox's own tests send them).
  missingFields: ({ operation }) => {
    // Only where the example names exactly the fields the schema requires.
    const named = Object.keys((operation.example('missingFields').value as { errors?: object }).errors ?? {});
    const required = operation.requiredFields().filter((field) => field !== 'request' && field !== 'nonce');
    return named.sort().join() === required.sort().join() ? { fields: {} } : undefined;
  },
  orderIdMissing: () => ({ fields: {} }),
  ordersMissing: () => ({ fields: {} }),
  ordersNotArray: () => ({ fields: { orders: 'all of them' } }),
  sideInvalid: (kitchen) => {
    const start = kitchen.start('side');
    return start && { fields: { ...start, side: 'hold' } };
  },
  amountNotNumeric: (kitchen) => {
    const start = kitchen.start('amount');
    return start && { fields: { ...start, amount: 'ten' } };
  },
  priceNotNumeric: (kitchen) => {
    const start = kitchen.start('price');
    return start && { fields: { ...start, price: 'ten' } };
  },
  marketEmpty: (kitchen) => {
    const start = kitchen.start('market');
    return start && { fields: { ...start, market: '' } };
  },
  invalidMarket: (kitchen) => {
    const start = kitchen.start('market');
    return start && { fields: { ...start, market: 'btc-usdt' } };
  },
  clientOrderIdNotString: (kitchen) => {
    const start = kitchen.start('side');
    return start && { fields: { ...start, clientOrderId: 7 } };
  },
  clientOrderIdInvalid: (kitchen) => {
    const start = kitchen.start('side');
    return start && { fields: { ...start, clientOrderId: 'not valid!' } };
  },
  orderIdNotInteger: (kitchen) => {
    const start = kitchen.start('orderId');
    return start && { fields: { ...start, orderId: String(start.orderId) } };
  },
  tickerNotString: () => ({ fields: { ticker: 5 } }),
  typeNotArray: () => ({ fields: { type: 'spot' } }),
  pageNotInteger: () => ({ fields: { limit: '1', offset: '0' } }),
  missingRequiredField: ({ operation, start }) => {
    // The request example without the fields the example names as missing.
    const named = Object.keys(
      (operation.example('missingRequiredField').value as { errors?: object }).errors ?? {},
    );
    const example = start(named[0]);
    return (
      example && {
        fields: Object.fromEntries(Object.entries(example).filter(([field]) => !named.includes(field))),
      }
    );
  },
  directionInvalid: (kitchen) => {
    const start = kitchen.start('direction');
    return start && { fields: { ...start, direction: 'sideways' } };
  },
  quoteIdNonNumeric: () => ({ fields: { quoteId: 'q-4050' } }),
  dateNonInteger: () => ({ fields: { from: 'soon' } }),
  limitOutOfRange: ({ operation }) => {
    const maximum = operation.requestPropertyExtension('limit', 'maximum');
    return typeof maximum === 'number' ? { fields: { limit: maximum + 1 } } : undefined;
  },
  offsetNegative: () => ({ fields: { offset: -1 } }),
  // With the fields the operation requires, so that nonceWindow is the only one refused.
  nonceWindowNotBoolean: ({ operation, start }) => ({
    fields: { ...requiredFrom(operation, start), nonceWindow: 'yes' },
  }),
  // With the fields the operation requires, from its request examples (a sub-account's id).
  pageTooLarge: ({ operation, start }) => ({
    fields: { ...requiredFrom(operation, start), limit: 1_000_000_000, offset: 1_000_000_000 },
  }),
};

/** A request example's caller fields: without request, nonce and nonceWindow. */
function callerFields(value: JsonRecord): Record<string, unknown> {
  const { request: _, nonce: __, nonceWindow: ___, ...fields } = value;
  return structuredClone(fields);
}

/** The recipes a fixture allows, for every 400 and 422 example of the documents. */
export function exampleRecipes(fixture: Fixture, documents: SandboxDocuments = projectDocuments()): Recipe[] {
  const key = credentialKey(fixture);
  const found: Recipe[] = [];
  for (const operation of documents.operations.values()) {
    const examples = operation.requestExamples().map((example) => callerFields(example.value));
    const kitchen: Kitchen = {
      operation,
      fixture,
      key,
      start: (field) =>
        examples.find((example) => field === undefined || field in example) ?? (field ? undefined : {}),
    };
    for (const { name, status } of operation.errorExamples()) {
      if (status !== 400 && status !== 422) continue;
      const dish = recipes[name]?.(kitchen);
      if (dish)
        found.push({ operationId: operation.id, example: name, fields: dish.fields, key: dish.key ?? key });
    }
  }
  return found;
}
