// Sub-accounts' API keys in the sandbox: each signs calls as its sub-account, on that account's
// own books. The secrets are kept in a private field, out of every view of a key: no inspection,
// snapshot or serialization of the state shows one, and the answers that hand a secret out
// (making a key, resetting it) take it from `secretOf` once. A key's id and its public key never
// change; a reset replaces only the secret. The callers (handlers/sub-account-keys.ts) check the
// request and the owner; key-access.ts decides what a call the key signs may do.
import { randomBytes, randomUUID } from 'node:crypto';
import type { FixtureSubAccountKey } from './fixture.ts';

/** A sub-account's API key, without its secret. */
export interface SubAccountKey {
  readonly id: string;
  /** The sub-account it acts as: the account of that id. */
  readonly subAccountId: string;
  /** The public key, sent in the key header. */
  readonly apiKey: string;
  title: string;
  /** Its `type`, as it was made with: what it may do is the documents' `x-key-type-permissions`. */
  readonly type: number;
  /** The addresses it may call from; with none, any. */
  readonly ipAddresses: string[];
  /** Endpoint paths turned off for it. */
  readonly disabledPaths: string[];
  /** Unix seconds: when it was made, then when it last signed a call carried out. */
  lastActivity: number;
}

export class SubAccountKeys {
  /** By id, oldest first. */
  readonly #keys = new Map<string, SubAccountKey>();
  /** Key ids by public key. */
  readonly #byApiKey = new Map<string, string>();
  /** Secrets by key id: private, so that nothing that shows the state shows one. */
  readonly #secrets = new Map<string, string>();

  /** Makes a key for the sub-account; its secret is `secretOf(key.id)`. */
  make(seed: { subAccountId: string; title: string; type: number }, now: number): SubAccountKey {
    return this.#add(
      { id: randomUUID(), apiKey: randomBytes(16).toString('hex'), ...seed, ipAddresses: [] },
      newSecret(),
      now,
    );
  }

  /** The fixture's keys of a sub-account, with the secrets the fixture gives them; `now` in Unix seconds. */
  seed(subAccountId: string, seeds: readonly FixtureSubAccountKey[], now: number): void {
    for (const { secret, ipAddresses, ...seed } of seeds)
      this.#add({ ...seed, subAccountId, ipAddresses: [...(ipAddresses ?? [])] }, secret, Math.floor(now));
  }

  #add(
    given: Pick<SubAccountKey, 'id' | 'subAccountId' | 'apiKey' | 'title' | 'type' | 'ipAddresses'>,
    secret: string,
    now: number,
  ): SubAccountKey {
    if (this.#keys.has(given.id) || this.#byApiKey.has(given.apiKey))
      throw new Error(`sub-account key ${given.id} exists`);
    const key: SubAccountKey = { ...given, disabledPaths: [], lastActivity: now };
    this.#keys.set(key.id, key);
    this.#byApiKey.set(key.apiKey, key.id);
    this.#secrets.set(key.id, secret);
    return key;
  }

  /** A new secret for the key: the old one signs nothing from now on. */
  renew(id: string): void {
    if (!this.#keys.has(id)) throw new Error(`no sub-account key ${id}`);
    this.#secrets.set(id, newSecret());
  }

  /** Deletes the key: it signs nothing from now on. */
  remove(id: string): void {
    const key = this.#keys.get(id);
    if (!key) return;
    this.#keys.delete(id);
    this.#byApiKey.delete(key.apiKey);
    this.#secrets.delete(id);
  }

  get(id: string): SubAccountKey | undefined {
    return this.#keys.get(id);
  }

  byApiKey(apiKey: string): SubAccountKey | undefined {
    const id = this.#byApiKey.get(apiKey);
    return id === undefined ? undefined : this.#keys.get(id);
  }

  /** Notes that the key (when it is one of these) signed a call carried out at `seconds`. */
  used(apiKey: string, seconds: number): void {
    const key = this.byApiKey(apiKey);
    if (key) key.lastActivity = seconds;
  }

  /** The key's secret, for the one answer that hands it out and for checking a signature. */
  secretOf(id: string): string {
    const secret = this.#secrets.get(id);
    if (secret === undefined) throw new Error(`no sub-account key ${id}`);
    return secret;
  }

  /** The keys of the sub-accounts, oldest first. */
  of(subAccountIds: ReadonlySet<string>): SubAccountKey[] {
    return [...this.#keys.values()].filter((key) => subAccountIds.has(key.subAccountId));
  }

  /** Plain copies of every key, without secrets (the state's snapshot). */
  snapshot(): SubAccountKey[] {
    return structuredClone([...this.#keys.values()]);
  }
}

const newSecret = () => randomBytes(32).toString('hex');
