// The account's wallet in the sandbox: deposit addresses, deposits from outside, withdrawals that
// go out on the sandbox's clock, moves between the account's balances, and the fees of deposits
// and withdrawals (the fixture's `transferFees`). Every amount moves by one balanced entry of the
// ledger (ledger.ts): a withdrawal leaves the main balance for the withdrawals on their way, and
// once done goes to the outside, its fee to the fee account; a deposit comes from the outside,
// its fee to the fee account. The callers (handlers/wallet.ts, the control) check the request
// and the balance first; the ledger refuses a move that would take a balance below zero.
import { createHash, randomUUID } from 'node:crypto';
import { add, compare, isZero, max, multiply, normalize, percent, round, subtract } from './decimal.ts';
import type { FixtureAsset, FixtureTransferFee } from './fixture.ts';
import { collateral, house, main, type Place, spot, transfer } from './ledger.ts';
import type { AccountState, DepositAddress, SandboxState, WalletTransaction } from './state.ts';
import { confirmationsOf } from './state.ts';

/**
 * How long a withdrawal stays pending on the sandbox's clock before it is done. Observed upstream,
 * a crypto withdrawal typically takes 15 to 60 minutes; the sandbox takes the shortest.
 */
export const withdrawalProcessingMs = 15 * 60 * 1000;

/** The account's balances a move names, as the operator's `from` and `to` do. */
export type BalanceName = 'main' | 'spot' | 'collateral';

export const balancePlace = (account: AccountState, name: BalanceName): Place =>
  name === 'main' ? main(account) : name === 'spot' ? spot(account) : collateral(account);

/** The digits after the point an asset keeps (its `currency_precision`; 8 when the asset list gives none). */
function precisionOf(asset: FixtureAsset | undefined): number {
  const precision = asset?.currency_precision;
  return typeof precision === 'number' ? precision : 8;
}

/** An asset's networks for deposits or withdrawals, and its default (the asset list's `networks`). */
export function networksOf(
  asset: FixtureAsset | undefined,
  kind: 'deposits' | 'withdraws',
): { names: string[]; default?: string } {
  const networks = asset?.networks;
  if (networks === null || typeof networks !== 'object') return { names: [] };
  const { [kind]: names, default: fallback } = networks as Record<string, unknown>;
  return {
    names: Array.isArray(names) ? names.filter((name): name is string => typeof name === 'string') : [],
    ...(typeof fallback === 'string' ? { default: fallback } : {}),
  };
}

/** Whether the asset list says the asset needs a memo for `kind`. */
export function needsMemo(asset: FixtureAsset | undefined, kind: 'deposit' | 'withdraw'): boolean {
  const memo = asset?.memo;
  return memo !== null && typeof memo === 'object' && (memo as Record<string, unknown>)[kind] === true;
}

/** A figure of the asset list (`min_withdraw`, …) as a decimal string, "0" when it gives none. */
export function assetFigure(asset: FixtureAsset | undefined, field: string): string {
  const value = asset?.[field];
  return typeof value === 'string' ? value : '0';
}

/** The fixture's fee rule of a deposit or withdrawal of the asset; none charges nothing. */
export function feeRule(
  state: SandboxState,
  ticker: string,
  kind: 'deposit' | 'withdraw',
): Required<FixtureTransferFee> {
  const rule = state.transferFees[ticker]?.[kind] ?? {};
  return {
    fixed: normalize(rule.fixed ?? '0'),
    percent: normalize(rule.percent ?? '0'),
    minFee: normalize(rule.minFee ?? '0'),
    maxFee: normalize(rule.maxFee ?? '0'),
  };
}

/**
 * The fee of a transfer of `amount`: the fixed part plus the percentage of the amount held between
 * the smallest and the largest figure (a largest of "0" sets no bound), as the operator describes
 * it; the percentage part rounded up to the asset's precision (the sandbox's choice: the operator
 * does not show its rounding).
 */
export function transferFee(
  state: SandboxState,
  ticker: string,
  kind: 'deposit' | 'withdraw',
  amount: string,
): string {
  const rule = feeRule(state, ticker, kind);
  if (isZero(rule.percent)) return rule.fixed;
  let flex = round(multiply(amount, percent(rule.percent)), precisionOf(state.assets.get(ticker)), 'up');
  flex = max(flex, rule.minFee);
  if (!isZero(rule.maxFee) && compare(flex, rule.maxFee) > 0) flex = rule.maxFee;
  return add(rule.fixed, flex);
}

/** A deposit address of the sandbox's own making: it only has to be unique and stable. */
function newAddress(account: AccountState, ticker: string, network: string): DepositAddress {
  const made = account.depositAddresses.length;
  const digest = createHash('sha256').update(`${account.id}:${ticker}:${network}:${made}`).digest('hex');
  return { ticker, network, address: `sbx1${digest.slice(0, 38)}` };
}

/** Hands out a new deposit address of the asset on the network; with a memo where the asset needs one. */
export function makeDepositAddress(
  state: SandboxState,
  account: AccountState,
  ticker: string,
  network: string,
): DepositAddress {
  const made = newAddress(account, ticker, network);
  if (needsMemo(state.assets.get(ticker), 'deposit')) {
    made.memo = String(BigInt(`0x${made.address.slice(4, 16)}`));
  }
  account.depositAddresses.push(made);
  return made;
}

/** The account's latest deposit address of the asset on the network, made on first use. */
export function depositAddressOf(
  state: SandboxState,
  account: AccountState,
  ticker: string,
  network: string,
): DepositAddress {
  const held = account.depositAddresses.findLast(
    (candidate) => candidate.ticker === ticker && candidate.network === network,
  );
  return held ?? makeDepositAddress(state, account, ticker, network);
}

/** The rules of a deposit of the asset, as a deposit address is answered with. */
export function depositRules(state: SandboxState, ticker: string) {
  const asset = state.assets.get(ticker);
  const rule = feeRule(state, ticker, 'deposit');
  return {
    fixedFee: rule.fixed,
    flexFee: { maxFee: rule.maxFee, minFee: rule.minFee, percent: rule.percent },
    maxAmount: assetFigure(asset, 'max_deposit'),
    minAmount: assetFigure(asset, 'min_deposit'),
  };
}

const hashOf = (id: string) => createHash('sha256').update(id).digest('hex');

/**
 * Takes a withdrawal the caller has checked: what it costs the main balance (`gross`: the amount,
 * or the amount and the fee on top) leaves for the withdrawals on their way, and it is pending
 * until the clock reaches `now` + withdrawalProcessingMs.
 */
export function startWithdrawal(
  state: SandboxState,
  account: AccountState,
  withdrawal: {
    ticker: string;
    amount: string;
    fee: string;
    gross: string;
    address: string;
    memo?: string | undefined;
    network: string | null;
    uniqueId: string;
  },
  now: number,
): WalletTransaction {
  state.ledger.post(transfer(main(account), house('withdrawals'), withdrawal.ticker, withdrawal.gross));
  account.usedUniqueIds.add(withdrawal.uniqueId);
  const row: WalletTransaction = {
    method: 'withdrawal',
    ticker: withdrawal.ticker,
    amount: normalize(withdrawal.amount),
    fee: withdrawal.fee,
    gross: withdrawal.gross,
    address: withdrawal.address,
    memo: withdrawal.memo ?? '',
    network: withdrawal.network,
    uniqueId: withdrawal.uniqueId,
    createdAt: Math.floor(now / 1000),
    transactionId: randomUUID(),
    transactionHash: null,
    state: 'pending',
    doneAt: now + withdrawalProcessingMs,
    confirmations: null,
  };
  account.transactions.push(row);
  return row;
}

/**
 * Applies what the clock has reached: each pending withdrawal whose time has come goes out, its fee
 * to the fee account and the rest to the outside, and is done.
 */
export function settleWithdrawals(state: SandboxState, now: number) {
  for (const account of state.accounts.values()) {
    for (const row of account.transactions) {
      if (row.state !== 'pending' || row.doneAt === undefined || row.doneAt > now) continue;
      state.ledger.post([
        ...transfer(house('withdrawals'), house('fees'), row.ticker, row.fee),
        ...transfer(house('withdrawals'), house('outside'), row.ticker, subtract(row.gross, row.fee)),
      ]);
      row.state = 'successful';
      row.transactionHash = hashOf(row.transactionId);
      delete row.doneAt;
    }
  }
}

/** Why a deposit cannot arrive, or undefined when it can. */
export function depositRefusal(state: SandboxState, ticker: string, amount: string): string | undefined {
  const asset = state.assets.get(ticker);
  if (!asset) return `ticker must be one of ${[...state.assets.keys()].join(', ')}`;
  if (asset.can_deposit === false) return `${ticker} is closed to deposits`;
  const least = assetFigure(asset, 'min_deposit');
  if (compare(amount, least) < 0) return `a deposit of ${ticker} is at least ${least}`;
  const most = assetFigure(asset, 'max_deposit');
  if (!isZero(most) && compare(amount, most) > 0) return `a deposit of ${ticker} is at most ${most}`;
  const fee = transferFee(state, ticker, 'deposit', amount);
  if (compare(amount, fee) <= 0) return `a deposit of ${amount} ${ticker} does not cover its fee of ${fee}`;
  return undefined;
}

/**
 * A deposit arrives from outside at one of the account's deposit addresses: the main balance gets
 * the amount less the deposit fee, the fee account the fee, and the history a successful deposit
 * with its network's confirmations. The caller has checked it (`depositRefusal`).
 */
export function deposit(
  state: SandboxState,
  account: AccountState,
  arriving: { ticker: string; amount: string; to: DepositAddress },
  now: number,
): WalletTransaction {
  const { ticker, amount, to } = arriving;
  const fee = transferFee(state, ticker, 'deposit', amount);
  state.ledger.post([
    ...transfer(house('outside'), main(account), ticker, subtract(amount, fee)),
    ...transfer(house('outside'), house('fees'), ticker, fee),
  ]);
  const required = confirmationsOf(state.assets.get(ticker), to.network);
  const transactionId = randomUUID();
  const row: WalletTransaction = {
    method: 'deposit',
    ticker,
    amount: normalize(amount),
    fee,
    gross: normalize(amount),
    address: to.address,
    memo: to.memo ?? '',
    network: to.network,
    uniqueId: null,
    createdAt: Math.floor(now / 1000),
    transactionId,
    transactionHash: hashOf(transactionId),
    state: 'successful',
    confirmations: required === undefined ? null : { actual: required, required },
  };
  account.transactions.push(row);
  return row;
}
