// The mining pool's transitions: making mining accounts and listing them, setting and reading
// where their rewards are paid, and making and listing the watcher links that show them
// (sandbox/mining.ts keeps the model). Every refusal is a named example of the operation called,
// or its `x-messages` wording; the answers take their status, a link's address and a payout's
// default from the operation's first success example, a link's lifetime from `x-live-seconds`.
import { randomUUID } from 'node:crypto';
import { isRecord } from '../../model/json.ts';
import type { Answer } from '../answer.ts';
import { type CallContext, caller, ok, refuse, refuseWorded } from '../context.ts';
import type { DocumentedExample } from '../document.ts';
import {
  isLive,
  type Mining,
  type MiningAccount,
  miningOf,
  openMining,
  type WatcherLink,
} from '../mining.ts';

/** The destination value that pays an external address, which then needs one. */
const externalAddress = 'external_address';

const secondsOf = (context: CallContext) => Math.floor(context.now / 1000);

/** The caller's mining (an empty one, not kept, while it has no mining account). */
function callerMining(context: CallContext): Mining {
  const { account } = caller(context);
  return miningOf(context.state.mining, account.id);
}

/** The operation's first success example: its status and the shape of its answer. */
function documentedSuccess(context: CallContext): DocumentedExample {
  const found = context.operation.successExample();
  if (!found) throw new Error(`${context.operation.id} has no success example`);
  return found;
}

/** An unknown mining account, refused as the operation words it: naming it, or as its example is. */
function accountNotFound(context: CallContext, name: string): Answer {
  return context.operation.optionalMessage('accountNotFound') === undefined
    ? refuse(context, 'accountNotFound')
    : refuseWorded(context, 'user', 'accountNotFound', { account: name }, 'accountNotFound');
}

/** Makes a mining account; a name the account already uses is refused. */
export function createMiningAccount(context: CallContext, body: { name: string }): Answer {
  if (callerMining(context).accounts.has(body.name)) return refuse(context, 'nameTaken');
  const mining = openMining(context.state.mining, caller(context).account.id);
  const made: MiningAccount = { name: body.name, createdAt: secondsOf(context) };
  mining.accounts.set(made.name, made);
  return {
    status: documentedSuccess(context).status,
    body: { data: { name: made.name, createdAt: made.createdAt } },
  };
}

/** The account's mining accounts, newest first, or the one of exactly `name`, a page of them. */
export function listMiningAccounts(
  context: CallContext,
  body: { name?: string; limit?: number; offset?: number },
): Answer {
  const limit = body.limit ?? (context.operation.requestDefault('limit') as number);
  const offset = body.offset ?? (context.operation.requestDefault('offset') as number);
  const newestFirst = [...callerMining(context).accounts.values()].reverse();
  const matching = newestFirst.filter((account) => body.name === undefined || account.name === body.name);
  const data = matching
    .slice(offset, offset + limit)
    .map((account) => ({ name: account.name, createdAt: account.createdAt }));
  return ok({ data, limit, offset });
}

/**
 * Sets where the mining account's rewards go; an external address without an address is refused
 * before the account is looked up, as a malformed request.
 */
export function setPayoutDestination(
  context: CallContext,
  body: { accountName: string; destination: string; address?: string },
): Answer {
  const external = body.destination === externalAddress;
  if (external && !body.address) return refuse(context, 'btcAddressRequired');
  const account = callerMining(context).accounts.get(body.accountName);
  if (!account) return accountNotFound(context, body.accountName);
  account.payout = {
    payoutDestination: body.destination,
    externalAddress: external ? (body.address ?? null) : null,
  };
  return ok({ ...account.payout });
}

/** Where the mining account's rewards go: as last set, else the operation's documented default. */
export function readPayoutDestination(context: CallContext, body: { accountName: string }): Answer {
  const account = callerMining(context).accounts.get(body.accountName);
  if (!account) return accountNotFound(context, body.accountName);
  return account.payout ? ok({ ...account.payout }) : ok(documentedSuccess(context).value);
}

/** The link's lifetime in seconds for `liveUntil` (null: it never expires), from `x-live-seconds`. */
function lifetimeOf(context: CallContext, liveUntil: string): number | null {
  const lifetimes = context.operation.object['x-live-seconds'];
  const seconds = isRecord(lifetimes) ? lifetimes[liveUntil] : undefined;
  if (seconds === null || typeof seconds === 'number') return seconds;
  throw new Error(`${context.operation.id} has no x-live-seconds for ${liveUntil}`);
}

/** The address of a link: the documented example's, with its id in place of the example's. */
function addressOf(context: CallContext, id: string): string {
  const data = (documentedSuccess(context).value as { data?: { id?: unknown; link?: unknown } }).data;
  if (typeof data?.id !== 'string' || typeof data.link !== 'string' || !data.link.includes(data.id))
    throw new Error(`${context.operation.id}'s success example has no link that holds its id`);
  return data.link.replace(data.id, id);
}

/** Makes a watcher link of the caller's mining accounts; one that is not the caller's is refused. */
export function createWatcherLink(
  context: CallContext,
  body: { accounts: string[]; name: string; permissions: string[]; liveUntil: string },
): Answer {
  const mining = callerMining(context);
  const unknown = body.accounts.find((name) => !mining.accounts.has(name));
  if (unknown !== undefined) return accountNotFound(context, unknown);
  const createdAt = secondsOf(context);
  const lifetime = lifetimeOf(context, body.liveUntil);
  const id = randomUUID();
  const link: WatcherLink = {
    id,
    accounts: [...body.accounts],
    name: body.name,
    link: addressOf(context, id),
    permissions: [...body.permissions],
    liveUntil: lifetime === null ? null : createdAt + lifetime,
    createdAt,
  };
  mining.watcherLinks.push(link);
  const { accounts: _, name: __, permissions: ___, ...answered } = link;
  return { status: documentedSuccess(context).status, body: { data: answered } };
}

/** The live watcher links that show the mining account, oldest first. */
export function listWatcherLinks(context: CallContext, body: { account: string }): Answer {
  const mining = callerMining(context);
  if (!mining.accounts.has(body.account)) return accountNotFound(context, body.account);
  const now = secondsOf(context);
  const data = mining.watcherLinks
    .filter((link) => link.accounts.includes(body.account) && isLive(link, now))
    .map((link) => ({ ...link, accounts: [...link.accounts], permissions: [...link.permissions] }));
  return ok({ data });
}
