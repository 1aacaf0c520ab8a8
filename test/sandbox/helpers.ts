// Test helpers: the tests' own minimal signing code (node:crypto), independent of src/.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { SuccessResponseJSON } from 'openapi-typescript-helpers';
import { afterAll, beforeAll, expect } from 'vitest';
import { type OperationId, operations, signingHeaders } from '../../generated/operations.ts';
import type { operations as PrivateOperations } from '../../generated/private-v4.ts';
import type { operations as PublicOperations } from '../../generated/public-v4.ts';
import { at, type JsonRecord, recordAt } from '../../model/json.ts';
import type { DocumentModel } from '../../model/model.ts';
import { projectDocuments } from '../../sandbox/document.ts';
import type { Fixture, FixtureKey } from '../../sandbox/fixture.ts';
import { defaultFixturePath } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';

export { type OperationId, operations };

/** An operation of the project's documents, as the sandbox reads it (named examples, wording). */
export const documentOf = (operationId: OperationId) => projectDocuments().operation(operationId);

/** A fresh copy of the default fixture. */
export function defaultFixture(): Fixture {
  return JSON.parse(readFileSync(defaultFixturePath, 'utf8'));
}

export function findKey(fixture: Fixture, predicate: (key: FixtureKey) => boolean): FixtureKey {
  const key = fixture.keys.find(predicate);
  if (!key) throw new Error('the fixture has no such key');
  return key;
}

export const partnerKey = (fixture: Fixture) =>
  findKey(fixture, (k) => k.partner === true && k.enabled !== false);
export const ordinaryKey = (fixture: Fixture) =>
  findKey(fixture, (k) => k.partner !== true && k.enabled !== false);
export const disabledKey = (fixture: Fixture) => findKey(fixture, (k) => k.enabled === false);

export function sign(secret: string, payload: string): string {
  return createHmac('sha512', secret).update(payload).digest('hex');
}

let lastNonce = BigInt(Date.now()) * 1000n;
/** Strictly increasing nonces for the non-window mode. */
export function nextNonce(): string {
  lastNonce += 1n;
  return String(lastNonce);
}

/** Every field of a JSON answer, at every depth, as present: what a test reads, it expects there. */
type Expected<Value> = Value extends readonly (infer Item)[]
  ? Expected<Item>[]
  : Value extends object
    ? { -readonly [Key in keyof Value]-?: Expected<Exclude<Value[Key], undefined>> }
    : Value;

/** What a documented operation answers when it succeeds (its 2xx JSON), as the tests read it. */
export type SuccessBody<Id extends OperationId> = Expected<
  SuccessResponseJSON<(PrivateOperations & PublicOperations)[Id]>
>;

export interface Reply<Body = unknown> {
  status: number;
  body: Body;
  headers: Headers;
}

/**
 * A refusal's body as the tests read it: the error object's code and message, and its errors by
 * field ({} when it has none); whatever the body is, nothing here throws.
 */
export function refusalOf(reply: Reply): { code: unknown; message: unknown; errors: JsonRecord } {
  return {
    code: at(reply.body, 'code'),
    message: at(reply.body, 'message'),
    errors: recordAt(reply.body, 'errors'),
  };
}

/** A value the test needs there: it, or a failure naming what is missing (null or undefined). */
export function present<Value>(value: Value | null | undefined, what: string): Value {
  if (value === null || value === undefined) throw new Error(`${what} is missing`);
  return value;
}

export interface CallOptions {
  /** Fields of the body besides request and nonce (these may be overridden too). */
  fields?: Record<string, unknown>;
  /** Drop `request` or `nonce` from the body. */
  omit?: string[];
  /** Exact body text instead of compact JSON. */
  bodyText?: string;
  /** Headers to override (undefined removes one). */
  headers?: Record<string, string | undefined>;
  /** Sign with this secret instead of the key's. */
  secret?: string;
  /** Sign this payload string instead of the body's base64. */
  payload?: string;
}

export function call<Id extends OperationId>(
  baseUrl: string,
  key: Pick<FixtureKey, 'apiKey' | 'secret'>,
  operationId: Id,
  options: CallOptions = {},
): Promise<Reply<SuccessBody<Id>>> {
  return callPath(baseUrl, key, operations[operationId].path, options) as Promise<Reply<SuccessBody<Id>>>;
}

/**
 * A public GET with its parameters by name (by default the document's first example of each),
 * each put in its path or query string as the document places it.
 */
export async function get<Id extends OperationId>(
  baseUrl: string,
  operationId: Id,
  fields?: Readonly<Record<string, unknown>>,
): Promise<Reply<SuccessBody<Id>>> {
  const view = projectDocuments().model.operation(operationId);
  const example = view.parametersExample ?? {};
  const given = fields ?? { ...example.path, ...example.query };
  const where = (name: string) => view.parameters.find((parameter) => parameter.name === name)?.in;
  const path = view.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(given[name])),
  );
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(given)) {
    if (where(name) === 'path') continue;
    for (const item of Array.isArray(value) ? value : [value]) query.append(name, String(item));
  }
  const search = query.toString();
  const response = await fetch(`${baseUrl}${path}${search ? `?${search}` : ''}`);
  const raw = await response.text();
  return { status: response.status, body: raw ? JSON.parse(raw) : undefined, headers: response.headers };
}

/** The body text and headers of a signed POST to a path: what `callPath` sends. */
export function signedPost(
  key: Pick<FixtureKey, 'apiKey' | 'secret'>,
  path: string,
  options: CallOptions = {},
): { text: string; headers: Record<string, string> } {
  const body: Record<string, unknown> = { request: path, nonce: nextNonce(), ...options.fields };
  for (const field of options.omit ?? []) delete body[field];
  const text = options.bodyText ?? JSON.stringify(body);
  const payload = options.payload ?? Buffer.from(text).toString('base64');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const wanted: Record<string, string | undefined> = {
    [signingHeaders.ApiKey]: key.apiKey,
    [signingHeaders.Payload]: payload,
    [signingHeaders.Signature]: sign(options.secret ?? key.secret, payload),
    ...options.headers,
  };
  for (const [name, value] of Object.entries(wanted)) if (value !== undefined) headers[name] = value;
  return { text, headers };
}

/** A signed POST to a path, of this project's documents or of any other. */
export async function callPath(
  baseUrl: string,
  key: Pick<FixtureKey, 'apiKey' | 'secret'>,
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  const { text, headers } = signedPost(key, path, options);
  const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: text });
  const raw = await response.text();
  return { status: response.status, body: raw ? JSON.parse(raw) : undefined, headers: response.headers };
}

/** Test-side exact decimal: units at a fixed scale of 18 digits, independent of sandbox code. */
const scale = 18n;
export function units(text: string): bigint {
  const match = /^(-?)([0-9]+)(?:\.([0-9]+))?$/.exec(text);
  if (!match) throw new Error(`not a decimal: ${text}`);
  const fraction = (match[3] ?? '').padEnd(Number(scale), '0');
  if (fraction.length > Number(scale)) throw new Error(`too many decimals: ${text}`);
  const value = BigInt(match[2] ?? '0') * 10n ** scale + BigInt(fraction || '0');
  return match[1] ? -value : value;
}

const one = 10n ** scale;
/** units → decimal text, exact (the inverse of `units`). */
export function decimalText(value: bigint): string {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const fraction = (magnitude % one).toString().padStart(Number(scale), '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${magnitude / one}${fraction ? `.${fraction}` : ''}`;
}

/** a × b in units, exact while the product has at most 18 decimals. */
export const times = (a: string, b: string) => (units(a) * units(b)) / one;

/** A fee in units: `amount` (units) × `ratePercent` %, rounded up to `decimals` places. */
export function feeUp(amount: bigint, ratePercent: string, decimals: number): bigint {
  const exact = (amount * units(ratePercent)) / 100n / one;
  const step = 10n ** (scale - BigInt(decimals));
  return ((exact + step - 1n) / step) * step;
}

/** Action types as the specification's table lists them. */
export const actionType = { INVEST: 1, DAILY_EARNING: 4, OPEN_INVESTMENT: 6 } as const;

/**
 * A strict sandbox for one suite, on a free port, with a clock the suite may move; closed after
 * the suite, which must have seen no answer that breaks the document.
 */
export function strictSandbox(): { readonly sandbox: Sandbox; clock: { now: number } } {
  const clock = { now: Date.now() };
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, strict: true, clock: () => clock.now });
  });
  afterAll(async () => {
    await sandbox?.close();
    expect(sandbox?.violations).toEqual([]);
  });
  return {
    clock,
    get sandbox() {
      if (!sandbox) throw new Error('the sandbox starts in beforeAll');
      return sandbox;
    },
  };
}

/**
 * Whether an error example of the operation is the service's answer while the account is in some
 * state (x-refused-while: positions or orders are open) and its examples name nothing the fixture
 * seeds: they are then sent on an account without what the fixture seeds for the other examples
 * (collateral positions, OTO and OCO orders and their orders), the state they need.
 */
export const refusedWhileSeeded = (model: DocumentModel, operationId: string, fixture: Fixture): boolean => {
  const operation = model.operations.find((candidate) => candidate.operationId === operationId);
  const refused = [...(operation?.responses.values() ?? [])]
    .flatMap((response) => response.examples)
    .some((example) => example.refusedWhile !== undefined);
  // An operation whose examples name a seeded position or order (a close, a cancel) needs it.
  const seededIds = new Set(
    fixture.accounts.flatMap((account) => [
      ...(account.collateralPositions ?? []).map((position) => position.positionId),
      ...(account.otoOrders ?? []).map((oto) => oto.otoId),
      ...(account.ocoOrders ?? []).map((oco) => oco.id),
    ]),
  );
  const namesSeeded = (operation?.requestExamples ?? []).some((example) =>
    Object.values(example.value as Record<string, unknown>).some(
      (value) => typeof value === 'number' && seededIds.has(value),
    ),
  );
  return refused && !namesSeeded;
};

export function withoutCollateralSeeds(fixture: Fixture, accountId: string): Fixture {
  for (const account of fixture.accounts) {
    if (account.id !== accountId) continue;
    const seeded = new Set([
      ...(account.otoOrders ?? []).map((oto) => oto.orderId),
      ...(account.ocoOrders ?? []).flatMap((oco) => [oco.stopLossOrderId, oco.takeProfitOrderId]),
    ]);
    account.openOrders = (account.openOrders ?? []).filter((order) => !seeded.has(order.orderId));
    account.collateralPositions = [];
    account.otoOrders = [];
    account.ocoOrders = [];
  }
  return fixture;
}
