// Where `txc watch` connects: --stream-url, else the streams of the origin --base-url names (the
// sandbox serves them on its own origin, at the channels' address), else a deployment that
// --server names (the stream documents' servers), else TXC_STREAM_URL, else TXC_BASE_URL's
// origin as for --base-url. Flags win over the environment and --env-file, as for every
// subcommand; with none of them txc refuses rather than fall back on a live deployment. A
// deployment's streams need not be on its HTTP origin: give them with --stream-url.
import { streamChannels, streamServers } from '../../../generated/streams.ts';
import { environmentVariables, streamVariables } from '../../../model/environment.ts';
import type { StreamClientOptions, StreamServerName } from '../../streams/options.ts';
import type { ConnectionFlags } from '../connection.ts';
import { readEnvFile } from '../env-file.ts';
import { UsageError } from '../usage-error.ts';

export interface StreamFlags extends ConnectionFlags {
  streamUrl?: string;
}

/** The address every channel shares on a server (`/ws`). */
const address = Object.values(streamChannels)[0]?.address ?? '/ws';

const serverNames = [...new Set(Object.values(streamServers).flatMap(Object.keys))].join(', ');

/** `http://host:port/anything` -> `ws://host:port/ws`; https gives wss. */
export function streamUrlOf(origin: string, source: string): string {
  const parsed = URL.canParse(origin) ? new URL(origin) : undefined;
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') {
    throw new UsageError(`${source}: not an http(s) origin to find the streams on, or give --stream-url`);
  }
  return `${parsed.protocol === 'https:' ? 'wss:' : 'ws:'}//${parsed.host}${address}`;
}

/** The stream client's `url` or `server`; a UsageError when nothing says where. */
export function streamTarget(
  flags: StreamFlags,
  environment: NodeJS.ProcessEnv = process.env,
): Pick<StreamClientOptions, 'url' | 'server'> {
  if (flags.streamUrl !== undefined) return { url: flags.streamUrl };
  if (flags.baseUrl !== undefined) return { url: streamUrlOf(flags.baseUrl, '--base-url') };
  if (flags.server !== undefined) return { server: flags.server as StreamServerName };
  const values = flags.envFile ? { ...environment, ...readEnvFile(flags.envFile) } : environment;
  const streamUrl = values[streamVariables.url];
  if (streamUrl) return { url: streamUrl };
  const baseUrl = values[environmentVariables.baseUrl];
  if (baseUrl) return { url: streamUrlOf(baseUrl, environmentVariables.baseUrl) };
  throw new UsageError(
    `no stream URL: set ${streamVariables.url} or ${environmentVariables.baseUrl}, or pass --stream-url, --base-url or --server (${serverNames})`,
  );
}
