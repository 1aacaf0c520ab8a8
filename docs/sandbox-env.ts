// The .env file `npm start` writes for its sandbox: the three variables the client, the README's
// examples and txc read, and the streams' URL, so a reader runs an example against the sandbox already running
// (`npx tsx --env-file=.env example.ts`) instead of starting a second one on the same port. A
// .env that npm start did not write is the reader's own and is never overwritten.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { environmentVariables, streamVariables } from '../model/environment.ts';
import { streamUrlOf } from '../sandbox/streams/methods.ts';

/** The first line of every .env file npm start writes: how it knows the file is its own. */
export const sandboxEnvMarker = '# Written by npm start for its sandbox; rewritten at every start.';

export interface SandboxCredentials {
  url: string;
  apiKey: string;
  secret: string;
}

export function sandboxEnvText({ url, apiKey, secret }: SandboxCredentials): string {
  return [
    sandboxEnvMarker,
    `${environmentVariables.baseUrl}=${url}`,
    `${environmentVariables.apiKey}=${apiKey}`,
    `${environmentVariables.apiSecret}=${secret}`,
    // The sandbox's streams, on its origin: what the stream samples and `txc watch` connect to.
    `${streamVariables.url}=${streamUrlOf(url)}`,
    '',
  ].join('\n');
}

/** Writes the file unless a file npm start did not write is there: `kept` then. */
export function writeSandboxEnv(path: string, credentials: SandboxCredentials): 'written' | 'kept' {
  if (existsSync(path) && !readFileSync(path, 'utf8').startsWith(sandboxEnvMarker)) return 'kept';
  writeFileSync(path, sandboxEnvText(credentials), { mode: 0o600 });
  return 'written';
}
