// What the suite reads from the environment to run against a target it cannot look into: the
// credentials (the same names as txc) and the ids the target holds, which replace the documents'
// example values in the calls that need real ones; the names are model/environment.ts's. Checked
// by `npm run contract` before vitest starts, so a missing one is one line, not a stack trace.
import { contractVariables, environmentVariables } from '../../model/environment.ts';

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

/** The request fields each id a URL target holds fills, by the variable that names the id. */
export const idFields: Readonly<Record<string, readonly string[]>> = {
  [contractVariables.planId]: ['plan', 'planId'],
  [contractVariables.market]: ['market'],
  [contractVariables.ticker]: ['ticker'],
};

/** Field values set in the environment, by the request fields they fill. */
export function knownFromEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const known: Record<string, string> = {};
  for (const [name, fields] of Object.entries(idFields)) {
    const value = env[name];
    if (value) for (const field of fields) known[field] = value;
  }
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
    ...(env[contractVariables.allowWrites] === '1' ? [contractVariables.market] : []),
  ];
  return needed.filter((name) => !env[name]);
}

/** The one line that says what is missing and what each is for. */
export function missingLine(target: string, missing: string[]): string {
  const names = missing.map((name) => `${name} (${purpose[name] ?? name})`).join(', ');
  return `contract: the target ${target} needs ${names} in the environment (see docs/guides/contract-tests.md)`;
}

/** The local servers a target may name (support/target.ts starts each). */
export const targetNames = ['sandbox'] as const;
export type TargetName = (typeof targetNames)[number];
export const isTargetName = (target: string): target is TargetName =>
  (targetNames as readonly string[]).includes(target);

/** The target as it may be printed: a URL without its username and password. */
export function describeTarget(target: string): string {
  if (!URL.canParse(target)) return target;
  const url = new URL(target);
  if (!url.username && !url.password) return target;
  url.username = '';
  url.password = '';
  return url.toString();
}

/**
 * Why the suite cannot run against `target` with this environment, as one line; undefined when
 * it can. `npm run contract` asks before vitest starts, so the reason comes first and alone.
 */
export function targetProblem(target: string, env: NodeJS.ProcessEnv): string | undefined {
  const stream = env[contractVariables.streamTarget]?.trim();
  if (stream && (!/^wss?:\/\//.test(stream) || !URL.canParse(stream))) {
    return `contract: --stream-target must be a ws(s) URL; got ${describeTarget(stream)}`;
  }
  if (target === 'mock' || isTargetName(target)) return undefined;
  if (!/^https?:\/\//.test(target) || !URL.canParse(target)) {
    return `contract: --target must be "mock", an http(s) URL or one of: ${targetNames.join(', ')}; got ${describeTarget(target)}`;
  }
  const missing = missingForUrlTarget(env);
  return missing.length > 0 ? missingLine(describeTarget(target), missing) : undefined;
}
