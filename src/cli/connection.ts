// Where and as whom txc calls: the connection flags, the environment and --env-file. The file's
// values win over the environment (naming a file on the command line is the more deliberate
// choice); flags win over both. The secret comes only from the environment or the file.

import { environmentVariables, streamVariables } from '../../model/environment.ts';
import type { ClientOptions, PrivateClientOptions, ServerName } from '../index.ts';
import { readEnvFile } from './env-file.ts';
import { UsageError } from './usage-error.ts';

export interface ConnectionFlags {
  envFile?: string;
  baseUrl?: string;
  server?: string;
  timeoutMs?: string;
  retry?: boolean;
  nonceWindow?: boolean;
  validate?: boolean;
}

/** Which flag or variable sets each client option, to name it when the client refuses one. */
export const optionSources: Readonly<Record<string, string>> = {
  baseUrl: `--base-url or ${environmentVariables.baseUrl}`,
  /** The stream client's (txc watch). */
  url: `--stream-url, ${streamVariables.url}, --base-url or ${environmentVariables.baseUrl}`,
  server: '--server',
  timeoutMs: '--timeout-ms',
  apiKey: environmentVariables.apiKey,
  apiSecret: environmentVariables.apiSecret,
};

function variables(
  flags: ConnectionFlags,
  environment: NodeJS.ProcessEnv,
): Record<string, string | undefined> {
  return flags.envFile ? { ...environment, ...readEnvFile(flags.envFile) } : environment;
}

function optionsFrom(flags: ConnectionFlags, values: Record<string, string | undefined>): ClientOptions {
  const options: ClientOptions = {};
  // An explicit --server beats a base URL from the environment.
  const baseUrl = flags.baseUrl ?? (flags.server ? undefined : values[environmentVariables.baseUrl]);
  // A live deployment is only ever called when named: with neither, txc refuses rather than fall
  // back on the documents' default server.
  if (!baseUrl && !flags.server) {
    throw new UsageError(
      `no origin: set ${environmentVariables.baseUrl}, or pass --base-url or --server (global, eu)`,
    );
  }
  if (baseUrl) options.baseUrl = baseUrl;
  if (flags.server) options.server = flags.server as ServerName;
  // As typed: the client says what is wrong with it (see optionSources).
  if (flags.timeoutMs !== undefined)
    options.timeoutMs = flags.timeoutMs.trim() === '' ? Number.NaN : Number(flags.timeoutMs);
  if (flags.retry) options.retry = true;
  return options;
}

/** Client options for any call: origin, timeout, retries. */
export function clientOptions(flags: ConnectionFlags, environment = process.env): ClientOptions {
  return optionsFrom(flags, variables(flags, environment));
}

/**
 * The fiat gateway's token for a call it authorises, from the gateway-token variable of model/environment.ts or
 * --env-file, never a flag (a secret); missing, a usage error that says where it comes from.
 */
export function gatewayToken(flags: ConnectionFlags, environment = process.env): string {
  const name = environmentVariables.gatewayToken;
  const value = variables(flags, environment)[name];
  if (!value) {
    throw new UsageError(
      `${name} is not set: export the token txc jwt-token prints (data.token), or pass --env-file with a file that sets it`,
    );
  }
  return value;
}

/** Client options for a signed call; a missing credential is a usage error that says where to set it. */
export function privateClientOptions(
  flags: ConnectionFlags,
  environment = process.env,
): PrivateClientOptions {
  const values = variables(flags, environment);
  const credential = (name: string) => {
    const value = values[name];
    if (!value) {
      throw new UsageError(`${name} is not set: export it, or pass --env-file with a file that sets it`);
    }
    return value;
  };
  return {
    ...optionsFrom(flags, values),
    apiKey: credential(environmentVariables.apiKey),
    apiSecret: credential(environmentVariables.apiSecret),
    ...(flags.nonceWindow ? { nonceWindow: true } : {}),
  };
}
