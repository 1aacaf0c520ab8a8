// The sub-accounts' API keys' transitions: making, renaming, resetting, deleting and listing
// them, and the addresses each may call from (sandbox/sub-account-keys.ts keeps the keys,
// sandbox/key-access.ts enforces what a call a key signs may do). Only the account a sub-account
// belongs to reaches its keys: another account's key, or a deleted sub-account's, is not found.
// Every refusal is a named example of the operation called, or its `x-messages` wording; the
// limits are the operations' vendor extensions.
import { isIP } from 'node:net';
import type { Answer } from '../answer.ts';
import { type CallContext, caller, ok, refuse } from '../context.ts';
import { fillTemplate } from '../document.ts';
import type { SubAccountKey } from '../sub-account-keys.ts';
import { subAccountsOf } from '../sub-accounts.ts';

/** The ids of the caller's sub-accounts that are not deleted. */
const ownSubAccounts = (context: CallContext): Set<string> =>
  new Set(subAccountsOf(context.state.subAccounts, caller(context).account.id).map((sub) => sub.id));

/** The caller's sub-account key `id`, or the refusal. */
function ownKey(context: CallContext, id: string): SubAccountKey | Answer {
  const key = context.state.subAccountKeys.get(id);
  if (!key || !ownSubAccounts(context).has(key.subAccountId)) return refuse(context, 'apiKeyNotFound');
  return key;
}

const isAnswer = (value: object): value is Answer => 'status' in value;

/** An integer vendor extension of the operation called. */
function limitOf(context: CallContext, name: string): number {
  const found = context.operation.object[name];
  if (typeof found !== 'number') throw new Error(`${context.operation.id} has no ${name}`);
  return found;
}

/** A key as the answers show it; its secret only where one is handed out. */
function view(key: SubAccountKey, shown: { secret: string; type: number | string }) {
  return {
    subAccountId: key.subAccountId,
    id: key.id,
    title: key.title,
    isEnabled: true,
    apiKey: key.apiKey,
    apiSecret: shown.secret,
    type: shown.type,
    lastActivity: key.lastActivity,
    restrictAccess: key.disabledPaths.length > 0,
    accessEndpoints: [],
  };
}

/** Makes a key for a sub-account of the caller, up to the operation's limit per sub-account. */
export function createSubAccountApiKey(
  context: CallContext,
  body: { type: number; subAccountId: string; title: string },
): Answer {
  if (!ownSubAccounts(context).has(body.subAccountId)) return refuse(context, 'unknownSubAccount');
  const keys = context.state.subAccountKeys;
  if (keys.of(new Set([body.subAccountId])).length >= limitOf(context, 'x-keys-per-sub-account'))
    return refuse(context, 'limitReached');
  const key = keys.make(
    { subAccountId: body.subAccountId, title: body.title, type: body.type },
    Math.floor(context.now / 1000),
  );
  return { status: 201, body: view(key, { secret: keys.secretOf(key.id), type: key.type }) };
}

/** Sets the title, and turns the endpoints `urls` names off or on again for the key. */
export function editSubAccountApiKey(
  context: CallContext,
  body: { apiKeyId: string; title: string; urls: { url: string; enable: boolean }[] },
): Answer {
  const key = ownKey(context, body.apiKeyId);
  if (isAnswer(key)) return key;
  key.title = body.title;
  for (const { url, enable } of body.urls) {
    const at = key.disabledPaths.indexOf(url);
    if (!enable && at < 0) key.disabledPaths.push(url);
    if (enable && at >= 0) key.disabledPaths.splice(at, 1);
  }
  return ok({});
}

/** Deletes the key: from this answer on it signs nothing. */
export function deleteSubAccountApiKey(context: CallContext, body: { apiKeyId: string }): Answer {
  const key = ownKey(context, body.apiKeyId);
  if (isAnswer(key)) return key;
  context.state.subAccountKeys.remove(key.id);
  return ok({});
}

/** A new secret for the key, answered once: the old one signs nothing from now on. */
export function resetSubAccountApiKey(context: CallContext, body: { apiKeyId: string }): Answer {
  const key = ownKey(context, body.apiKeyId);
  if (isAnswer(key)) return key;
  const keys = context.state.subAccountKeys;
  keys.renew(key.id);
  return ok(view(key, { secret: keys.secretOf(key.id), type: key.type }));
}

/** The keys of the caller's sub-accounts, or of one, newest first, a page at a time, without secrets. */
export function listSubAccountApiKeys(
  context: CallContext,
  body: { subAccountId?: string; limit?: number; offset?: number },
): Answer {
  const limit = body.limit ?? (context.operation.requestDefault('limit') as number);
  const offset = body.offset ?? (context.operation.requestDefault('offset') as number);
  const own = ownSubAccounts(context);
  const ids =
    body.subAccountId === undefined ? own : new Set(own.has(body.subAccountId) ? [body.subAccountId] : []);
  const keys = context.state.subAccountKeys.of(ids).reverse();
  return ok({
    offset,
    limit,
    data: keys.slice(offset, offset + limit).map((key) => view(key, { secret: '', type: String(key.type) })),
  });
}

/** The addresses the key may call from. */
export function listSubAccountApiKeyIpAddresses(context: CallContext, body: { apiKeyId: string }): Answer {
  const key = ownKey(context, body.apiKeyId);
  if (isAnswer(key)) return key;
  return ok({ data: [...key.ipAddresses] });
}

/** Adds an address, refused when it is not one, is there already, or the key has the most it may. */
export function addSubAccountApiKeyIpAddress(
  context: CallContext,
  body: { apiKeyId: string; ip: string },
): Answer {
  if (isIP(body.ip) === 0) return refuse(context, 'invalidIp');
  const key = ownKey(context, body.apiKeyId);
  if (isAnswer(key)) return key;
  if (key.ipAddresses.includes(body.ip)) return refuse(context, 'duplicateIp');
  if (key.ipAddresses.length >= limitOf(context, 'x-addresses-per-key'))
    return refuse(context, 'allowlistFull');
  key.ipAddresses.push(body.ip);
  return { status: 201, body: { data: [...key.ipAddresses] } };
}

/** Removes an address, refused when it is not one or the key does not have it. */
export function removeSubAccountApiKeyIpAddress(
  context: CallContext,
  body: { apiKeyId: string; ip: string },
): Answer {
  if (isIP(body.ip) === 0) return refuse(context, 'invalidIp');
  const key = ownKey(context, body.apiKeyId);
  if (isAnswer(key)) return key;
  const at = key.ipAddresses.indexOf(body.ip);
  if (at < 0) {
    const { status, body: shape } = refuse(context, 'ipNotInAllowlist');
    const message = fillTemplate(context.operation.message('ipNotInAllowlist'), { ip: body.ip });
    return { status, body: { ...(shape as object), message } };
  }
  key.ipAddresses.splice(at, 1);
  return ok({ data: [...key.ipAddresses] });
}
