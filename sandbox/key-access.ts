// What a call signed with a sub-account's API key may do: the one place that decides it. The
// operator shows what each key type allows (`x-key-type-permissions`: info, trading, deposits,
// withdrawals), but not which call needs which; the sandbox decides that from the operation's
// tag and whether it writes (`x-writes`), by the table below (docs/guides/sandbox.md words it).
// Refusals, in this order, each one of the shared 403 answers every private operation documents:
// a blocked sub-account's key, and a call from an address the key does not list, are
// `keyNotEnabled`; a call its type does not allow, or whose endpoint was turned off for the key,
// is `noPermission`. A deleted key, or a reset key's old secret, never gets this far: the
// signature check answers 401 as for any unknown key or wrong secret.
import { BlockList, isIP } from 'node:net';
import { isRecord } from '../model/json.ts';
import type { Answer } from './answer.ts';
import type { OperationDocument, SandboxDocuments } from './document.ts';
import { keyNotEnabled, noPermission } from './errors.ts';
import type { SandboxState } from './state.ts';
import type { SubAccountKey } from './sub-account-keys.ts';

/** What a call needs of a key: permissions of `x-key-type-permissions`, or no sub-account key at all. */
type Needs = readonly string[] | 'the account itself';

/** By tag: what its reads and its writes need. A tag not here takes `otherwise`. */
const needsByTag: Readonly<Record<string, { reads: Needs; writes: Needs }>> = {
  'Spot trading': { reads: ['info'], writes: ['trading'] },
  'Collateral trading': { reads: ['info'], writes: ['trading'] },
  Convert: { reads: ['info'], writes: ['trading'] },
  // Deposit addresses, withdrawals and moves between balances: money in or out of the balances.
  Wallet: { reads: ['info'], writes: ['deposits', 'withdrawals'] },
  // A sub-account has no sub-accounts of its own, and manages no keys.
  'Sub-accounts': { reads: 'the account itself', writes: 'the account itself' },
  'Sub-account API keys': { reads: 'the account itself', writes: 'the account itself' },
};
/** Every other tag (the main balance, codes, investments, streams): reading is info, a write moves money. */
const otherwise = { reads: ['info'], writes: ['deposits', 'withdrawals'] } as const;

/** What a call of the operation needs of a sub-account's key. */
export function needsOf(operation: OperationDocument): Needs {
  const tags = operation.object.tags;
  const tag = Array.isArray(tags) && typeof tags[0] === 'string' ? tags[0] : undefined;
  const row = (tag === undefined ? undefined : needsByTag[tag]) ?? otherwise;
  return operation.facts.writes ? row.writes : row.reads;
}

/** The tags the table names (for the tests: each must be a tag of the documents). */
export const tagsWithRules = (): string[] => Object.keys(needsByTag);

const typeTables = new WeakMap<SandboxDocuments, Readonly<Record<string, unknown>>>();

/**
 * What a key of `type` may do: `x-key-type-permissions`, of the one operation of the documents
 * that makes keys. A type it does not list may do nothing.
 */
function permissionsOf(documents: SandboxDocuments, type: number): readonly string[] {
  let table = typeTables.get(documents);
  if (!table) {
    const found = [...documents.operations.values()]
      .map((operation) => operation.object['x-key-type-permissions'])
      .find(isRecord);
    if (!found) throw new Error('no operation of the documents has x-key-type-permissions');
    table = found;
    typeTables.set(documents, table);
  }
  const listed = table[String(type)];
  return Array.isArray(listed) ? listed.map(String) : [];
}

/** Whether `address` is one the key may call from: any, while it lists none. */
export function callsFrom(key: SubAccountKey, address: string): boolean {
  if (key.ipAddresses.length === 0) return true;
  const allowed = new BlockList();
  for (const ip of key.ipAddresses) allowed.addAddress(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4');
  const bare = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  const family = isIP(bare);
  return family !== 0 && allowed.check(bare, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * The refusal of a call signed with `apiKey` from `address`, when that is a sub-account's key
 * that may not make it; undefined for any other key, and for a call the key may make.
 */
export function subAccountKeyRefusal(
  state: SandboxState,
  operation: OperationDocument,
  apiKey: string,
  address: string,
): Answer | undefined {
  const key = state.subAccountKeys.byApiKey(apiKey);
  if (!key) return undefined;
  if (state.subAccounts.get(key.subAccountId)?.blocked !== false) return keyNotEnabled(operation);
  if (!callsFrom(key, address)) return keyNotEnabled(operation);
  const needs = needsOf(operation);
  const allowed = permissionsOf(operation.documents, key.type);
  if (needs === 'the account itself' || !needs.every((need) => allowed.includes(need)))
    return noPermission(operation);
  if (key.disabledPaths.includes(operation.facts.path)) return noPermission(operation);
  return undefined;
}
