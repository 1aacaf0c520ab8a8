// The sandbox's control, outside the API's paths: what a test or a person does to the market
// that no client of the service can (set a price, move the clock, send a deposit from outside),
// over HTTP, so that a test of a sandbox in another process (`npm run sandbox`, `npm start`) can
// do what `sandbox.setPrice`, `sandbox.advanceClock` and `sandbox.deposit` do in process. Its
// answers are plain JSON, not the service's.
//
//   GET  /sandbox                                   what the control takes, and the clock
//   POST /sandbox/price    {"market":"BTC_USDT","price":"36000"}
//   POST /sandbox/clock    {"advanceSeconds":3600}
//   POST /sandbox/deposit  {"ticker":"USDT","amount":"250"}  (and "account", "network" or "address")
import type { Answer } from './answer.ts';
import { compare, isDecimal, normalize, subtract } from './decimal.ts';
import { movePrice } from './exchange.ts';
import type { AccountState, DepositAddress, SandboxState } from './state.ts';
import { deposit, depositAddressOf, depositRefusal, networksOf } from './wallet.ts';

export const controlPath = '/sandbox';

/** The lines `npm run sandbox` prints about the control, for its base URL. */
export const controlLines = (url: string) => [
  `# Control (outside the API): curl -X POST ${url}${controlPath}/price -d '{"market":"BTC_USDT","price":"36000"}'`,
  `#   curl -X POST ${url}${controlPath}/clock -d '{"advanceSeconds":3600}'`,
  `#   and curl -X POST ${url}${controlPath}/deposit -d '{"ticker":"USDT","amount":"250"}' (GET ${url}${controlPath} says more)`,
];

interface Controlled {
  state: SandboxState;
  clock: () => number;
  catchUp: (now: number) => void;
  advance: (milliseconds: number) => void;
  /** The account a deposit arrives in when the control names none: that of the printed key. */
  defaultAccount: string;
}

/** What a deposit through the control asks for. */
export interface DepositRequest {
  ticker: string;
  amount: string;
  /** The account it arrives in; by default the printed key's. */
  account?: string;
  /** One of the asset's deposit networks; by default its default one. */
  network?: string;
  /** A deposit address the sandbox handed out, which names the account, the asset and the network. */
  address?: string;
}

/**
 * Carries out a deposit from outside, or says why it cannot: the address it goes to is the one
 * named, or the account's latest for the asset and network (made on first use).
 */
export function depositFromOutside(
  state: SandboxState,
  request: DepositRequest,
  defaultAccount: string,
  now: number,
): { account: AccountState; to: DepositAddress; credited: string } | string {
  const { ticker, amount } = request;
  if (typeof ticker !== 'string' || !state.assets.has(ticker))
    return `ticker must be one of ${[...state.assets.keys()].join(', ')}`;
  if (typeof amount !== 'string' || !isDecimal(amount) || compare(amount, '0') <= 0)
    return 'amount must be a decimal string above 0';
  // Checked before an address is made: a refused deposit changes nothing.
  const refusal = depositRefusal(state, ticker, amount);
  if (refusal) return refusal;
  let account: AccountState | undefined;
  let to: DepositAddress | undefined;
  if (request.address !== undefined) {
    for (const candidate of state.accounts.values()) {
      const held = candidate.depositAddresses.find((address) => address.address === request.address);
      if (held) [account, to] = [candidate, held];
    }
    if (!account || !to)
      return `address ${String(request.address)} is no deposit address the sandbox handed out`;
    if (to.ticker !== ticker) return `address ${to.address} is an address of ${to.ticker}, not ${ticker}`;
  } else {
    const id = request.account ?? defaultAccount;
    account = state.accounts.get(id);
    if (!account) return `account must be one of ${[...state.accounts.keys()].join(', ')}`;
    const { names, default: fallback } = networksOf(state.assets.get(ticker), 'deposits');
    const network = request.network ?? fallback ?? names[0] ?? ticker;
    if (request.network !== undefined && !names.includes(request.network))
      return `network must be one of ${names.join(', ') || ticker}`;
    to = depositAddressOf(state, account, ticker, network);
  }
  const row = deposit(state, account, { ticker, amount, to }, now);
  return { account, to, credited: subtract(row.amount, row.fee) };
}

const refused = (message: string): Answer => ({ status: 400, body: { error: message } });

function bodyOf(raw: Buffer | undefined): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(raw?.toString('utf8') ?? '');
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Carries out one control request. */
export function control(sandbox: Controlled, method: string, path: string, raw: Buffer | undefined): Answer {
  const now = sandbox.clock();
  if (method === 'GET' && path === controlPath) {
    return {
      status: 200,
      body: {
        now: Math.floor(now / 1000),
        prices: Object.fromEntries(
          [...sandbox.state.markets.values()].map((market) => [market.name, market.price]),
        ),
        controls: {
          [`POST ${controlPath}/price`]: '{"market": name, "price": decimal string above 0}',
          [`POST ${controlPath}/clock`]: '{"advanceSeconds": whole number of seconds, 0 or more}',
          [`POST ${controlPath}/deposit`]:
            '{"ticker": asset, "amount": decimal string above 0, optional "account" (default the printed key\'s), "network", or "address" (a deposit address the sandbox gave)}',
        },
      },
    };
  }
  if (method !== 'POST') return { status: 405, body: { error: `${method} ${path} is not a control` } };
  const body = bodyOf(raw);
  if (!body) return refused('the body must be a JSON object');
  if (path === `${controlPath}/price`) {
    const { market, price } = body;
    if (typeof market !== 'string' || !sandbox.state.markets.has(market))
      return refused(`market must be one of ${[...sandbox.state.markets.keys()].join(', ')}`);
    if (typeof price !== 'string' || !isDecimal(price) || compare(price, '0') <= 0)
      return refused('price must be a decimal string above 0');
    sandbox.catchUp(now);
    movePrice(sandbox.state, market, price, now);
    return { status: 200, body: { market, price: normalize(price) } };
  }
  if (path === `${controlPath}/clock`) {
    const seconds = body.advanceSeconds;
    if (typeof seconds !== 'number' || !Number.isSafeInteger(seconds) || seconds < 0)
      return refused('advanceSeconds must be a whole number of seconds, 0 or more');
    sandbox.advance(seconds * 1000);
    sandbox.catchUp(sandbox.clock());
    return { status: 200, body: { now: Math.floor(sandbox.clock() / 1000) } };
  }
  if (path === `${controlPath}/deposit`) {
    sandbox.catchUp(now);
    const done = depositFromOutside(
      sandbox.state,
      body as unknown as DepositRequest,
      sandbox.defaultAccount,
      now,
    );
    if (typeof done === 'string') return refused(done);
    return {
      status: 200,
      body: {
        account: done.account.id,
        ticker: body.ticker,
        amount: normalize(String(body.amount)),
        credited: done.credited,
        address: done.to.address,
        network: done.to.network,
      },
    };
  }
  return { status: 404, body: { error: `${path} is not a control` } };
}
