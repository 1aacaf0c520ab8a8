// Mining in the sandbox: each account's mining accounts, by name, with where their rewards are
// paid, and the watcher links that show them to others until they expire. The fixture seeds the
// mining accounts (without a payout destination set or a link); the rest comes from calls
// (handlers/mining.ts checks each one).
import type { FixtureAccount } from './fixture.ts';

/** Where a mining account's rewards go, once a call has set it. */
export interface PayoutDestination {
  payoutDestination: string;
  /** The bitcoin address paid; null while the rewards go to the main balance. */
  externalAddress: string | null;
}

/** A mining account of an account. */
export interface MiningAccount {
  readonly name: string;
  /** Unix seconds. */
  readonly createdAt: number;
  /** Unset until a call sets it: the operation that reads it answers its documented default. */
  payout?: PayoutDestination;
}

/** A link that shows some of an account's mining accounts to whoever has it. */
export interface WatcherLink {
  readonly id: string;
  readonly accounts: readonly string[];
  readonly name: string;
  readonly link: string;
  readonly permissions: readonly string[];
  /** When it expires, Unix seconds; null when it never does. */
  readonly liveUntil: number | null;
  /** Unix seconds. */
  readonly createdAt: number;
}

/** One account's mining. */
export interface Mining {
  /** Its mining accounts by name, in the order they were made. */
  readonly accounts: Map<string, MiningAccount>;
  /** Its watcher links, in the order they were made, expired ones included. */
  readonly watcherLinks: WatcherLink[];
}

/** The fixture's mining accounts, by the account they belong to. */
export function seededMining(accounts: readonly FixtureAccount[]): Map<string, Mining> {
  const all = new Map<string, Mining>();
  for (const account of accounts) {
    const seeds = account.miningAccounts ?? [];
    if (seeds.length === 0) continue;
    all.set(account.id, {
      accounts: new Map(seeds.map((seed) => [seed.name, { name: seed.name, createdAt: seed.createdAt }])),
      watcherLinks: [],
    });
  }
  return all;
}

/** The account's mining; an empty one, not kept, while it has no mining account. */
export const miningOf = (all: ReadonlyMap<string, Mining>, accountId: string): Mining =>
  all.get(accountId) ?? { accounts: new Map(), watcherLinks: [] };

/** The account's mining, kept from now on: where a mining account is made. */
export function openMining(all: Map<string, Mining>, accountId: string): Mining {
  const mining = miningOf(all, accountId);
  all.set(accountId, mining);
  return mining;
}

/** Whether the link still shows what it shows at `nowSeconds`. */
export const isLive = (link: WatcherLink, nowSeconds: number): boolean =>
  link.liveUntil === null || link.liveUntil > nowSeconds;
