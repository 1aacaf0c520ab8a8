// What the suite reads from the environment to run against a target it cannot look into: the
// credentials (the same names as txc, src/cli/environment.ts) and the ids the target holds,
// which replace the documents' example values in the calls that need real ones. Checked by
// `npm run contract` before vitest starts, so a missing one is one line, not a stack trace.
import { environmentVariables } from '../../src/cli/environment.ts';

export const contractVariables = {
  /** A plan the target knows: invest, and the history filtered by plan. */
  planId: 'CONTRACT_PLAN_ID',
  /** A market the target lists: cancel all (a write). */
  market: 'CONTRACT_MARKET',
  /** An asset the key holds: the main and collateral balances. */
  ticker: 'CONTRACT_TICKER',
} as const;

const purpose: Record<string, string> = {
  [environmentVariables.apiKey]: 'the API key',
  [environmentVariables.apiSecret]: 'its secret',
  [contractVariables.planId]: 'a plan the target knows',
  [contractVariables.market]: 'a market it lists',
  [contractVariables.ticker]: 'an asset the key holds',
};

/** The credentials from the environment, when both are set. */
export function credentialsFromEnvironment(
  env: NodeJS.ProcessEnv,
): { apiKey: string; apiSecret: string } | undefined {
  const apiKey = env[environmentVariables.apiKey];
  const apiSecret = env[environmentVariables.apiSecret];
  return apiKey && apiSecret ? { apiKey, apiSecret } : undefined;
}

/** Field values set in the environment, by the request fields they fill. */
export function knownFromEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const known: Record<string, string> = {};
  const planId = env[contractVariables.planId];
  if (planId) Object.assign(known, { plan: planId, planId });
  const market = env[contractVariables.market];
  if (market) known.market = market;
  const ticker = env[contractVariables.ticker];
  if (ticker) known.ticker = ticker;
  return known;
}

/**
 * What a URL target still needs from the environment: the credentials, a plan and a ticker, and
 * a market when writes are allowed (only cancel all uses one). Empty when nothing is missing.
 */
export function missingForUrlTarget(env: NodeJS.ProcessEnv): string[] {
  const needed: string[] = [
    environmentVariables.apiKey,
    environmentVariables.apiSecret,
    contractVariables.planId,
    contractVariables.ticker,
    ...(env.CONTRACT_ALLOW_WRITES === '1' ? [contractVariables.market] : []),
  ];
  return needed.filter((name) => !env[name]);
}

/** The one line that says what is missing and what each is for. */
export function missingLine(target: string, missing: string[]): string {
  const names = missing.map((name) => `${name} (${purpose[name] ?? name})`).join(', ');
  return `contract: the target ${target} needs ${names} in the environment (see README, Contract tests)`;
}
