// The wallet's transitions: deposit addresses, withdrawals (the fee in the amount or on top), moves
// between the main, spot and collateral balances, the deposit and withdrawal history and the fees,
// on the sandbox's state (sandbox/wallet.ts keeps the model, sandbox/ledger.ts the balances). Every
// refusal is a named example of the operation called, or its `x-messages` wording; the history's
// status codes are its `x-transaction-statuses`.
import { isRecord } from '../../model/json.ts';
import type { Answer } from '../answer.ts';
import { transferableCollateral } from '../collateral.ts';
import { type CallContext, caller, ok, refuse, refuseWorded } from '../context.ts';
import { add, compare, isZero } from '../decimal.ts';
import type { FixtureAsset } from '../fixture.ts';
import type { AccountState, WalletTransaction } from '../state.ts';
import { missingFields } from '../validation.ts';
import {
  assetFigure,
  type BalanceName,
  balancePlace,
  depositAddressOf,
  depositRules,
  feeRule,
  makeDepositAddress,
  needsMemo,
  networksOf,
  startWithdrawal,
  transferFee,
} from '../wallet.ts';

/** An entry of a fee list (the account's fees): what the fixture's rule says, by the operator's names. */
function feeEntry(context: CallContext, ticker: string, kind: 'deposit' | 'withdraw') {
  const asset = context.state.assets.get(ticker);
  const rule = feeRule(context.state, ticker, kind);
  return {
    minFlex: rule.minFee,
    maxFlex: rule.maxFee,
    percentFlex: rule.percent,
    fixed: rule.fixed,
    minAmount: assetFigure(asset, kind === 'deposit' ? 'min_deposit' : 'min_withdraw'),
    maxAmount: assetFigure(asset, kind === 'deposit' ? 'max_deposit' : 'max_withdraw'),
  };
}

const nameOf = (asset: FixtureAsset | undefined, ticker: string) =>
  typeof asset?.name === 'string' ? asset.name : ticker;

// --- fees --------------------------------------------------------------------------------------

/** Every asset's deposit and withdrawal fees and limits, as they apply to the account. */
export function readTransferFees(context: CallContext): Answer {
  return ok(
    [...context.state.assets].map(([ticker, asset]) => ({
      ticker,
      name: nameOf(asset, ticker),
      can_deposit: asset.can_deposit !== false,
      can_withdraw: asset.can_withdraw !== false,
      deposit: feeEntry(context, ticker, 'deposit'),
      withdraw: feeEntry(context, ticker, 'withdraw'),
    })),
  );
}

/**
 * One kind of transfer of an asset as the public fee list words it: the fixed fee, null when the
 * rule has none, and the percentage bounded by its smallest and largest fee, null when it has none.
 */
function publicFee(context: CallContext, ticker: string, kind: 'deposit' | 'withdraw') {
  const asset = context.state.assets.get(ticker);
  const rule = feeRule(context.state, ticker, kind);
  return {
    max_amount: assetFigure(asset, kind === 'deposit' ? 'max_deposit' : 'max_withdraw'),
    min_amount: assetFigure(asset, kind === 'deposit' ? 'min_deposit' : 'min_withdraw'),
    fixed: isZero(rule.fixed) ? null : rule.fixed,
    flex: isZero(rule.percent) ? null : { percent: rule.percent, min_fee: rule.minFee, max_fee: rule.maxFee },
  };
}

/**
 * Every asset's deposit and withdrawal fees and limits, keyed by ticker, from the same fixture
 * rules the wallet charges (a client that reads the public list and then withdraws sees the fee
 * it is charged). The sandbox's assets take no payment providers: each has one fee object a kind.
 */
export function readAssetFees(context: CallContext): Answer {
  return ok(
    Object.fromEntries(
      [...context.state.assets].map(([ticker, asset]) => {
        const depositable = asset.can_deposit !== false;
        const withdrawable = asset.can_withdraw !== false;
        return [
          ticker,
          {
            ticker,
            name: nameOf(asset, ticker),
            providers: [],
            is_depositable: depositable,
            is_withdrawal: withdrawable,
            is_api_depositable: depositable,
            is_api_withdrawal: withdrawable,
            deposit: publicFee(context, ticker, 'deposit'),
            withdraw: publicFee(context, ticker, 'withdraw'),
          },
        ];
      }),
    ),
  );
}

// --- deposit addresses ---------------------------------------------------------------------------

interface AddressBody {
  ticker: string;
  network?: string;
}

/**
 * The network a deposit address is on: the one asked for, which must be one of the asset's deposit
 * networks, or else its default (or its only one). A string is the named example that refuses it.
 */
function depositNetwork(
  asset: FixtureAsset,
  body: AddressBody,
  noDefault: string,
): { network: string } | string {
  const { names, default: fallback } = networksOf(asset, 'deposits');
  if (body.network !== undefined)
    return names.includes(body.network) ? { network: body.network } : 'unknownNetwork';
  const network = fallback ?? (names.length === 1 ? names[0] : undefined);
  return network === undefined ? noDefault : { network };
}

/** The checks both address operations make; the asset and network, or the refusal. */
function addressRequest(
  context: CallContext,
  body: AddressBody,
  noDefault: string,
): { account: AccountState; network: string } | Answer {
  const { account } = caller(context);
  const asset = context.state.assets.get(body.ticker);
  if (!asset) return refuse(context, 'unknownTicker');
  const network = depositNetwork(asset, body, noDefault);
  if (typeof network === 'string') return refuse(context, network);
  if (asset.can_deposit === false) return refuse(context, 'notDepositable');
  return { account, network: network.network };
}

const addressAnswer = (
  context: CallContext,
  ticker: string,
  address: { address: string; memo?: string },
) => ({
  account: { address: address.address, ...(address.memo === undefined ? {} : { memo: address.memo }) },
  required: depositRules(context.state, ticker),
});

/** The account's address for the asset on the network: the latest handed out, or a first one. */
export function readDepositAddress(context: CallContext, body: AddressBody): Answer {
  const checked = addressRequest(context, body, 'unknownNetwork');
  if ('status' in checked) return checked;
  const address = depositAddressOf(context.state, checked.account, body.ticker, checked.network);
  return ok(addressAnswer(context, body.ticker, address));
}

/** A new address for the asset on the network, whatever the account holds already. */
export function newDepositAddress(context: CallContext, body: AddressBody): Answer {
  const checked = addressRequest(context, body, 'noDefaultNetwork');
  if ('status' in checked) return checked;
  const address = makeDepositAddress(context.state, checked.account, body.ticker, checked.network);
  return { status: 201, body: addressAnswer(context, body.ticker, address) };
}

// --- withdrawals ---------------------------------------------------------------------------------

interface WithdrawalBody {
  ticker: string;
  amount: string;
  address: string;
  uniqueId: string;
  memo?: string;
  network?: string;
}

/**
 * A withdrawal, refused in this order: the request (an unknown asset, a memo missing where the
 * asset needs one, a uniqueId the account has used: 400), then the business rules (an asset closed
 * to withdrawals, an amount not above the fee where the fee is in it, below the asset's smallest
 * withdrawal, more than the main balance has: 422). Taken, it leaves the main balance at once and
 * is pending on the sandbox's clock.
 */
function withdraw(context: CallContext, body: WithdrawalBody, feeOnTop: boolean): Answer {
  const { account } = caller(context);
  const { state } = context;
  const asset = state.assets.get(body.ticker);
  if (!asset) return refuse(context, 'unknownTicker');
  if (needsMemo(asset, 'withdraw') && !body.memo) return refuse(context, 'memoRequired');
  if (account.usedUniqueIds.has(body.uniqueId)) return refuse(context, 'duplicateUniqueId');
  if (asset.can_withdraw === false) return refuse(context, 'currencyNotWithdrawable');
  const fee = transferFee(state, body.ticker, 'withdraw', body.amount);
  if (!feeOnTop && compare(body.amount, fee) <= 0) return refuse(context, 'amountNotAboveFee');
  if (compare(body.amount, assetFigure(asset, 'min_withdraw')) < 0)
    return refuse(context, 'amountBelowWithdrawalMinimum');
  const gross = feeOnTop ? add(body.amount, fee) : body.amount;
  const available = state.mainBalance(account.id, body.ticker);
  if (compare(gross, available) > 0) {
    return refuseWorded(
      context,
      'amount',
      'notEnoughBalance',
      { name: nameOf(asset, body.ticker), available },
      'notEnoughBalance',
    );
  }
  const { default: fallback } = networksOf(asset, 'withdraws');
  startWithdrawal(
    state,
    account,
    {
      ticker: body.ticker,
      amount: body.amount,
      fee,
      gross,
      address: body.address,
      memo: body.memo,
      network: body.network ?? fallback ?? null,
      uniqueId: body.uniqueId,
    },
    context.now,
  );
  return { status: 201, body: [] };
}

/** A withdrawal whose amount includes the fee: the address receives the amount less the fee. */
export const withdrawFeeIncluded = (context: CallContext, body: WithdrawalBody) =>
  withdraw(context, body, false);

/** A withdrawal whose fee is added on top: the address receives the whole amount. */
export const withdrawFeeOnTop = (context: CallContext, body: WithdrawalBody) => withdraw(context, body, true);

// --- moves between balances ----------------------------------------------------------------------

interface TransferBody {
  ticker: string;
  amount: string;
  from?: BalanceName;
  to?: BalanceName;
  method?: 'deposit' | 'withdraw' | 'collateral-deposit' | 'collateral-withdraw';
}

/** The older `method` as the two balances it moves between. */
const methods: Record<NonNullable<TransferBody['method']>, [BalanceName, BalanceName]> = {
  deposit: ['main', 'spot'],
  withdraw: ['spot', 'main'],
  'collateral-deposit': ['main', 'collateral'],
  'collateral-withdraw': ['collateral', 'main'],
};

/** What the balance named has available to move out. */
function availableIn(context: CallContext, account: AccountState, name: BalanceName, ticker: string): string {
  if (name === 'main') return context.state.mainBalance(account.id, ticker);
  if (name === 'spot') return account.trade.get(ticker)?.available ?? '0';
  return transferableCollateral(context.state, account, ticker);
}

/** The smallest amount the operation takes: its request `amount`'s `x-minimum-amount`. */
function smallestAmount(context: CallContext): string {
  const found = context.operation.requestPropertyExtension('amount', 'x-minimum-amount');
  if (typeof found !== 'string') throw new Error(`${context.operation.id} amount has no x-minimum-amount`);
  return found;
}

/**
 * Moves an amount between two of the account's balances, named by `from` and `to` or by the older
 * `method` (`from` and `to` win when both are sent: the operator recommends them). Refused, in this
 * order: neither form, or half of `from` and `to` (the field required), the same balance twice, an
 * unknown asset, less than the smallest amount (400), more than the source has available (422).
 */
export function moveBetweenBalances(context: CallContext, body: TransferBody): Answer {
  const { account } = caller(context);
  let between: [BalanceName, BalanceName];
  if (body.from !== undefined || body.to !== undefined) {
    if (body.from === undefined || body.to === undefined)
      return missingFields(context.operation, body, [body.from === undefined ? 'from' : 'to']);
    between = [body.from, body.to];
  } else if (body.method !== undefined) {
    between = methods[body.method];
  } else {
    return missingFields(context.operation, body, ['method']);
  }
  const [from, to] = between;
  if (from === to) return refuse(context, 'sameFromTo');
  if (!context.state.assets.has(body.ticker)) return refuse(context, 'unknownTicker');
  if (compare(body.amount, smallestAmount(context)) < 0) return refuse(context, 'amountTooSmall');
  const available = availableIn(context, account, from, body.ticker);
  if (compare(body.amount, available) > 0) {
    return refuseWorded(
      context,
      'amount',
      'notEnoughBalance',
      { available, amount: body.amount },
      'notEnoughBalance',
    );
  }
  context.state.ledger.post([
    { place: balancePlace(account, from), asset: body.ticker, amount: `-${body.amount}` },
    { place: balancePlace(account, to), asset: body.ticker, amount: body.amount },
  ]);
  return { status: 201, body: [] };
}

// --- the history ---------------------------------------------------------------------------------

type Method = WalletTransaction['method'];
type Statuses = Record<Method, Record<string, number[]>>;

/** The history's status codes by method and state: its `x-transaction-statuses`. */
function statusesOf(context: CallContext): Statuses {
  const found = context.operation.object['x-transaction-statuses'];
  const byMethod = (name: string) => {
    const states = isRecord(found) ? found[name] : undefined;
    if (!isRecord(states)) throw new Error(`${context.operation.id} has no x-transaction-statuses ${name}`);
    return Object.fromEntries(
      Object.entries(states).map(([state, codes]) => [
        state,
        Array.isArray(codes) ? codes.filter((code): code is number => typeof code === 'number') : [],
      ]),
    );
  };
  return { deposit: byMethod('deposit'), withdrawal: byMethod('withdrawal') };
}

/** The `transactionMethod` code of a method, by the names the document gives its values. */
function methodCode(context: CallContext, method: Method): number {
  const values = context.operation.requestPropertyExtension('transactionMethod', 'enum');
  const names = context.operation.requestPropertyExtension('transactionMethod', 'x-enum-varnames');
  const index = Array.isArray(names) ? names.indexOf(method === 'deposit' ? 'DEPOSIT' : 'WITHDRAWAL') : -1;
  const code = Array.isArray(values) ? values[index] : undefined;
  if (typeof code !== 'number')
    throw new Error(`${context.operation.id} names no transactionMethod for ${method}`);
  return code;
}

interface HistoryBody {
  transactionMethod?: number;
  ticker?: string;
  address?: string;
  addresses?: string[];
  memo?: string;
  unique_id?: string;
  status?: number[];
  limit?: number;
  offset?: number;
}

/** The record of a deposit or withdrawal, as the history answers it. */
function recordOf(context: CallContext, row: WalletTransaction, statuses: Statuses) {
  const code = statuses[row.method][row.state]?.[0];
  if (code === undefined) throw new Error(`x-transaction-statuses has no ${row.method} ${row.state} code`);
  return {
    address: row.address,
    unique_id: row.uniqueId,
    createdAt: row.createdAt,
    currency: nameOf(context.state.assets.get(row.ticker), row.ticker),
    ticker: row.ticker,
    method: methodCode(context, row.method),
    amount: row.amount,
    description: '',
    memo: row.memo,
    fee: row.fee,
    status: code,
    network: row.network,
    transactionHash: row.transactionHash,
    transaction_id: row.transactionId,
    details: null,
    confirmations: row.confirmations,
  };
}

/**
 * The account's deposits and withdrawals, newest first, filtered as asked, a page at a time. An
 * unknown asset, a status code the method (or, without one, either method) does not have, and an
 * `offset` + `limit` above 10000 are refused.
 */
export function listWalletHistory(context: CallContext, body: HistoryBody): Answer {
  const { account } = caller(context);
  const statuses = statusesOf(context);
  const methodOf = (code: number | undefined): Method | undefined =>
    code === undefined ? undefined : code === methodCode(context, 'deposit') ? 'deposit' : 'withdrawal';
  const method = methodOf(body.transactionMethod);
  if (body.ticker !== undefined && !context.state.assets.has(body.ticker))
    return refuse(context, 'unknownTicker');
  const known = new Set(
    (method ? [method] : (['deposit', 'withdrawal'] as const)).flatMap((name) =>
      Object.values(statuses[name]).flat(),
    ),
  );
  if (body.status?.some((code) => !known.has(code))) return refuse(context, 'invalidStatus');
  const limit = body.limit ?? (context.operation.requestDefault('limit') as number);
  const offset = body.offset ?? (context.operation.requestDefault('offset') as number);
  if (offset + limit > 10_000) return refuseWorded(context, 'offset', 'offsetTooBig');
  const wanted = body.status ? new Set(body.status) : undefined;
  const addresses = body.addresses && body.addresses.length > 0 ? new Set(body.addresses) : undefined;
  const rows = account.transactions
    .map((row, index) => ({ row, index }))
    .filter(
      ({ row }) =>
        (method === undefined || row.method === method) &&
        (body.ticker === undefined || row.ticker === body.ticker) &&
        (body.address === undefined || row.address === body.address) &&
        (addresses === undefined || addresses.has(row.address)) &&
        (body.memo === undefined || row.memo === body.memo) &&
        (body.unique_id === undefined || row.uniqueId === body.unique_id) &&
        (wanted === undefined || wanted.has(statuses[row.method][row.state]?.[0] ?? -1)),
    )
    // Newest first; rows of the same second in reverse order of recording.
    .sort((a, b) => b.row.createdAt - a.row.createdAt || b.index - a.index)
    .map(({ row }) => recordOf(context, row, statuses));
  return {
    status: 201,
    body: { limit, offset, records: rows.slice(offset, offset + limit), total: rows.length },
  };
}
