// The sandbox's starting state: sandbox/fixture.json by default, or any file that follows
// sandbox/fixture.schema.json (SANDBOX_FIXTURE=path).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { operations } from '../generated/operations.ts';
import { createSchemaValidator } from '../model/document.ts';
import type { CollateralItem, HistoryRecord, OrderKind } from './api-types.ts';
import { compare } from './decimal.ts';
import { projectDocuments } from './document.ts';

export interface FixturePlan {
  id: string;
  currency: string;
  status: 'active' | 'paused' | 'inactive' | 'disabled' | 'no-coins-left';
  minAmount: string;
  maxAmount: string;
  /** A special offer, not available through the API. */
  specialOffer?: boolean;
  /** What is left to invest in the plan (absent: no limit). */
  available?: string;
  /** Most digits after the point an amount may have (absent: any). */
  decimals?: number;
  /** Interest owed per unit invested (0.1 is 10 %). */
  interestRate?: string;
  /** What the plan holds to pay interest with (absent: no limit). */
  interestFunds?: string;
  description?: string;
}

export interface FixtureOrder {
  id: string;
  market: string;
  type: OrderKind;
  side?: 'buy' | 'sell';
  positionSide?: 'long' | 'short';
  amount?: string;
  price?: string;
}

export interface FixtureAccount {
  id: string;
  mainBalances?: Record<string, string>;
  collateralBalances?: CollateralItem[];
  openOrders?: FixtureOrder[];
  history?: HistoryRecord[];
}

export interface FixtureKey {
  apiKey: string;
  secret: string;
  account: string;
  enabled?: boolean;
  partner?: boolean;
  /** May hold several investments in one plan (default true). */
  multipleInvestments?: boolean;
  operations?: string[];
  description?: string;
}

export interface Fixture {
  credentials?: string;
  assets: string[];
  markets: string[];
  /** The markets of `markets` that are perpetual futures (where positionSide applies). */
  perpetualMarkets?: string[];
  plans: FixturePlan[];
  accounts: FixtureAccount[];
  keys: FixtureKey[];
}

export const defaultFixturePath = fileURLToPath(new URL('./fixture.json', import.meta.url));
const schemaPath = fileURLToPath(new URL('./fixture.schema.json', import.meta.url));

let validateFixture: ReturnType<ReturnType<typeof createSchemaValidator>['compile']> | undefined;

/** Checks a fixture's shape and its cross references; throws with every problem found. */
export function checkFixture(value: unknown): Fixture {
  validateFixture ??= createSchemaValidator().compile(JSON.parse(readFileSync(schemaPath, 'utf8')));
  if (!validateFixture(value)) {
    const problems = (validateFixture.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
    throw new Error(`invalid sandbox fixture:\n  ${problems.join('\n  ')}`);
  }
  const fixture = value as Fixture;
  const problems: string[] = [];
  const assets = new Set(fixture.assets);
  const accounts = new Set(fixture.accounts.map((account) => account.id));
  const actionTypes = projectDocuments().schemaEnum('private-v4', 'ActionType');
  const unique = (what: string, ids: string[]) => {
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id)) problems.push(`duplicate ${what} ${id}`);
      seen.add(id);
    }
  };
  unique(
    'plan',
    fixture.plans.map((plan) => plan.id),
  );
  unique(
    'account',
    fixture.accounts.map((account) => account.id),
  );
  unique(
    'apiKey',
    fixture.keys.map((key) => key.apiKey),
  );
  for (const plan of fixture.plans) {
    if (!assets.has(plan.currency)) problems.push(`plan ${plan.id}: unknown currency ${plan.currency}`);
    if (compare(plan.minAmount, plan.maxAmount) > 0) problems.push(`plan ${plan.id}: minAmount > maxAmount`);
  }
  for (const market of fixture.perpetualMarkets ?? []) {
    if (!fixture.markets.includes(market)) problems.push(`perpetual market ${market} is not in markets`);
  }
  for (const account of fixture.accounts) {
    for (const ticker of Object.keys(account.mainBalances ?? {})) {
      if (!assets.has(ticker)) problems.push(`account ${account.id}: unknown asset ${ticker}`);
    }
    for (const item of account.collateralBalances ?? []) {
      if (!assets.has(item.asset)) problems.push(`account ${account.id}: unknown asset ${item.asset}`);
    }
    unique(
      `order of ${account.id}`,
      (account.openOrders ?? []).map((order) => order.id),
    );
    for (const row of account.history ?? []) {
      if (!actionTypes.includes(row.actionType)) {
        problems.push(`account ${account.id}: history actionType ${row.actionType} is not in the document`);
      }
    }
  }
  for (const key of fixture.keys) {
    if (!accounts.has(key.account)) problems.push(`key ${key.apiKey}: unknown account ${key.account}`);
    for (const operationId of key.operations ?? []) {
      if (!(operationId in operations)) problems.push(`key ${key.apiKey}: unknown operation ${operationId}`);
    }
  }
  if (fixture.credentials && !fixture.keys.some((key) => key.apiKey === fixture.credentials)) {
    problems.push(`credentials: no key ${fixture.credentials}`);
  }
  if (problems.length > 0) throw new Error(`invalid sandbox fixture:\n  ${problems.join('\n  ')}`);
  return structuredClone(fixture);
}

export function loadFixture(path: string = defaultFixturePath): Fixture {
  return checkFixture(JSON.parse(readFileSync(path, 'utf8')));
}

/** The key whose credentials are printed at start-up. */
export function credentialKey(fixture: Fixture): FixtureKey {
  const key = fixture.keys.find((candidate) => candidate.apiKey === fixture.credentials) ?? fixture.keys[0];
  if (!key) throw new Error('the fixture has no keys');
  return key;
}
