// The sandbox's one ledger. Every balance the sandbox keeps changes here and nowhere else, one
// balanced entry at a time: for each asset the legs of an entry add up to zero, so what one place
// gains another gave. Besides the accounts' balances (main, spot available and held, collateral)
// the exchange has places of its own, the houses: the fee account, the market (the other
// participants a fill, a conversion, profit and loss or funding trades with), lending (what
// investments hold), codes (what the codes made and not yet applied carry), withdrawals on their
// way out, and the outside world (deposits come from it,
// withdrawals go to it). At the start the outside gives every account what the fixture says it
// holds, so the sum over every place, the outside included, is zero for each asset; the sum over
// every place but the outside changes only by deposits and withdrawals. `imbalance` checks this
// against the balances themselves, so a move that bypassed the ledger shows.
import type { CollateralItem } from './api-types.ts';
import { add, isNegative, isZero, normalize, subtract } from './decimal.ts';

/** One asset of the trade account: free to trade, and held by open orders. */
export interface TradeBalance {
  available: string;
  frozen: string;
}

/** An account's balances, as the ledger writes them and the operations read them. */
export interface Books {
  readonly id: string;
  /** Main balance by ticker, zero balances included. */
  readonly main: Map<string, string>;
  /** Trade (spot) balance by ticker. */
  readonly trade: Map<string, TradeBalance>;
  /** Collateral balance by asset; the available figures move with the balance. */
  readonly collateral: CollateralItem[];
}

/** A balance of an account: main, spot available, spot held by open orders, collateral. */
export type Book = 'main' | 'spot' | 'spotHeld' | 'collateral';

/** A place of the exchange's own. */
export type House = 'fees' | 'market' | 'lending' | 'codes' | 'withdrawals' | 'outside';

export const houses: readonly House[] = ['fees', 'market', 'lending', 'codes', 'withdrawals', 'outside'];

export type Place = { readonly account: Books; readonly book: Book } | { readonly house: House };

/** One side of an entry: `amount` is signed, above zero a credit of the place, below zero a debit. */
export interface Leg {
  readonly place: Place;
  readonly asset: string;
  readonly amount: string;
}

export const main = (account: Books): Place => ({ account, book: 'main' });
export const spot = (account: Books): Place => ({ account, book: 'spot' });
export const spotHeld = (account: Books): Place => ({ account, book: 'spotHeld' });
export const collateral = (account: Books): Place => ({ account, book: 'collateral' });
export const house = (name: House): Place => ({ house: name });

/** `amount` of `asset` moves from one place to another. */
export const transfer = (from: Place, to: Place, asset: string, amount: string): Leg[] => [
  { place: from, asset, amount: negate(amount) },
  { place: to, asset, amount },
];

export const negate = (value: string) =>
  isZero(value) ? '0' : isNegative(value) ? value.slice(1) : `-${normalize(value)}`;

/**
 * Places that never go below zero: what an account holds in main and spot, what codes carry, and
 * what is on its way out. A collateral balance may (losses beyond it), as may the houses that stand for parties
 * outside the accounts.
 */
const neverNegative = (place: Place) =>
  'house' in place ? place.house === 'withdrawals' || place.house === 'codes' : place.book !== 'collateral';

const describe = (place: Place) => ('house' in place ? place.house : `${place.account.id} ${place.book}`);

function read(place: Place, asset: string, houses: Map<House, Map<string, string>>): string {
  if ('house' in place) return houses.get(place.house)?.get(asset) ?? '0';
  const { account, book } = place;
  if (book === 'main') return account.main.get(asset) ?? '0';
  if (book === 'collateral') return account.collateral.find((item) => item.asset === asset)?.balance ?? '0';
  const balance = account.trade.get(asset);
  return (book === 'spot' ? balance?.available : balance?.frozen) ?? '0';
}

function write(
  place: Place,
  asset: string,
  value: string,
  delta: string,
  houses: Map<House, Map<string, string>>,
) {
  if ('house' in place) {
    const held = houses.get(place.house) ?? new Map<string, string>();
    held.set(asset, value);
    houses.set(place.house, held);
    return;
  }
  const { account, book } = place;
  if (book === 'main') {
    account.main.set(asset, value);
  } else if (book === 'collateral') {
    let item = account.collateral.find((candidate) => candidate.asset === asset);
    if (!item) {
      item = { asset, balance: '0', borrow: '0', availableWithoutBorrow: '0', availableWithBorrow: '0' };
      account.collateral.push(item);
    }
    item.balance = value;
    item.availableWithoutBorrow = add(item.availableWithoutBorrow, delta);
    item.availableWithBorrow = add(item.availableWithBorrow, delta);
  } else {
    const balance = account.trade.get(asset) ?? { available: '0', frozen: '0' };
    account.trade.set(
      asset,
      book === 'spot' ? { ...balance, available: value } : { ...balance, frozen: value },
    );
  }
}

/** Every balance of the accounts, by place and asset. */
function* balancesOf(accounts: Iterable<Books>): Generator<{ place: Place; asset: string; amount: string }> {
  for (const account of accounts) {
    for (const [asset, amount] of account.main) yield { place: main(account), asset, amount };
    for (const [asset, { available, frozen }] of account.trade) {
      yield { place: spot(account), asset, amount: available };
      yield { place: spotHeld(account), asset, amount: frozen };
    }
    for (const item of account.collateral)
      yield { place: collateral(account), asset: item.asset, amount: item.balance };
  }
}

export class Ledger {
  readonly #houses = new Map<House, Map<string, string>>();
  #entries = 0;

  /** Opens the books: the outside gives each account what it holds at the start. */
  open(accounts: Iterable<Books>) {
    for (const { asset, amount } of balancesOf(accounts)) {
      const outside = this.house('outside', asset);
      write(house('outside'), asset, subtract(outside, amount), negate(amount), this.#houses);
    }
  }

  /**
   * Opens a house's books: the outside gives it what it holds at the start (what the codes a
   * fixture seeds carry). Part of opening, so not an entry.
   */
  openHouse(name: House, asset: string, amount: string) {
    write(
      house('outside'),
      asset,
      subtract(this.house('outside', asset), amount),
      negate(amount),
      this.#houses,
    );
    write(house(name), asset, add(this.house(name, asset), amount), amount, this.#houses);
  }

  /**
   * Carries out one balanced entry, whole or not at all. An entry whose legs do not add up to
   * zero for an asset, or that would take a place that never goes below zero there, is a bug in
   * the caller (each checks the balance before it moves it): it throws, and nothing moves.
   */
  post(legs: readonly Leg[]) {
    const totals = new Map<string, string>();
    const changes = new Map<string, { place: Place; asset: string; delta: string }>();
    for (const leg of legs) {
      totals.set(leg.asset, add(totals.get(leg.asset) ?? '0', leg.amount));
      const key = `${describe(leg.place)}\u0000${leg.asset}`;
      const change = changes.get(key);
      changes.set(key, { place: leg.place, asset: leg.asset, delta: add(change?.delta ?? '0', leg.amount) });
    }
    for (const [asset, total] of totals) {
      if (!isZero(total)) throw new Error(`an entry in ${asset} does not balance: it is off by ${total}`);
    }
    const next = [...changes.values()].map((change) => ({
      ...change,
      value: add(read(change.place, change.asset, this.#houses), change.delta),
    }));
    for (const { place, asset, value } of next) {
      if (neverNegative(place) && isNegative(value))
        throw new Error(`the ${asset} of ${describe(place)} would go below zero`);
    }
    for (const { place, asset, value, delta } of next) write(place, asset, value, delta, this.#houses);
    this.#entries += 1;
  }

  /** What a house holds of an asset. */
  house(name: House, asset: string): string {
    return this.#houses.get(name)?.get(asset) ?? '0';
  }

  /** Every house's balances, by asset. */
  houses(): Record<House, Record<string, string>> {
    return Object.fromEntries(
      houses.map((name) => [name, Object.fromEntries(this.#houses.get(name) ?? [])]),
    ) as Record<House, Record<string, string>>;
  }

  /** How many entries were posted since the books opened. */
  get entries(): number {
    return this.#entries;
  }

  /**
   * For each asset, the sum of every place, the houses and the outside included, where it is not
   * zero: empty while every move went through `post`.
   */
  imbalance(accounts: Iterable<Books>): Record<string, string> {
    const totals = new Map<string, string>();
    const count = (asset: string, amount: string) => totals.set(asset, add(totals.get(asset) ?? '0', amount));
    for (const { asset, amount } of balancesOf(accounts)) count(asset, amount);
    for (const held of this.#houses.values()) for (const [asset, amount] of held) count(asset, amount);
    return Object.fromEntries([...totals].filter(([, total]) => !isZero(total)));
  }
}
