// The stream client's options: what each means, its default (the keepalive's from the documents,
// generated/streams.ts), the checks made at creation (a ConfigurationError naming the option), and
// the view of them that is safe to show: the token never, the URL without credentials.
import { streamChannels, streamKeepalive, streamServers } from '../../generated/streams.ts';
import { ConfigurationError } from '../errors.ts';
import { timerMsProblem } from '../waits.ts';
import { defaultReconnectPolicy, type ReconnectPolicy } from './backoff.ts';
import { type StreamHooks, streamHookNames } from './hooks.ts';
import type { WebSocketConstructor } from './socket.ts';
import { shownToken, type TokenOption } from './token.ts';

export type StreamServerName = keyof (typeof streamServers)['public-v4'];

export interface StreamClientOptions {
  /** The WebSocket URL, `ws://` or `wss://` with its path (`wss://host/ws`); overrides `server`. */
  url?: string;
  /** A deployment named in the documents (x-server-name), at the channels' address; default `global`. */
  server?: StreamServerName;
  /**
   * For the private channels: a WebSocket token, or a function that fetches a fresh one (called
   * for each connection that needs one, and once more when the server refuses a token). The
   * HTTP API issues them (`/api/v4/profile/websocket_token`).
   */
  token?: TokenOption;
  /** Functions that see each step: connections, reconnections, authorization, errors. */
  hooks?: StreamHooks;
  /** A WebSocket class to use instead of the runtime's (by default: the global one, else undici's). */
  webSocket?: WebSocketConstructor;
  /** A request's deadline, from the call to its answer (connecting and authorizing included). Default 10 s. */
  requestTimeoutMs?: number;
  /** How long a connection may take to open. Default 10 s. */
  connectTimeoutMs?: number;
  /**
   * Time from one keepalive pong to the next ping; 0 sends none. Default: half the time the server
   * keeps an idle connection (the documents' keepalive, 60 s: every 30 s).
   */
  pingIntervalMs?: number;
  /** How long a ping may go unanswered before the connection is taken as half-open. Default 10 s. */
  pongTimeoutMs?: number;
  /** A frame larger than this many bytes ends the connection with a FrameTooLargeError. Default 16 MiB. */
  maxMessageBytes?: number;
  /** Updates a subscription holds for a consumer that is behind; one more is a BufferOverflowError. Default 1024. */
  bufferSize?: number;
  /** Reconnect after a drop, with backoff (default on): false, or a policy's fields. */
  reconnect?: boolean | Partial<ReconnectPolicy>;
}

/** The options in force, defaults filled in. */
export interface StreamSettings {
  readonly url: string;
  readonly requestTimeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly pingIntervalMs: number;
  readonly pongTimeoutMs: number;
  readonly maxMessageBytes: number;
  readonly bufferSize: number;
  readonly reconnect: ReconnectPolicy | undefined;
  readonly hooks: StreamHooks;
}

/** The options as `client.options` shows them: what is safe to log. */
export interface VisibleStreamOptions extends Omit<StreamSettings, 'hooks'> {
  /** `[redacted]` for a token, `provider` for a function, undefined for none. */
  readonly token: '[redacted]' | 'provider' | undefined;
  readonly webSocket: 'custom' | 'default';
  /** The events hooks are set for. */
  readonly hooks: readonly string[];
}

const defaults = {
  requestTimeoutMs: 10_000,
  connectTimeoutMs: 10_000,
  pingIntervalMs: (streamKeepalive.idleCloseSeconds * 1000) / 2,
  pongTimeoutMs: 10_000,
  maxMessageBytes: 16 * 1024 * 1024,
  bufferSize: 1024,
};

/** The channels' address on a server (every channel shares one connection, at one address). */
const address = streamChannels[streamKeepalive.channel].address;

function checkUrl(url: unknown): string {
  const example = 'such as wss://host/ws or ws://127.0.0.1:4010/ws';
  if (typeof url !== 'string' || !URL.canParse(url)) {
    throw new ConfigurationError('url', `must be an absolute WebSocket URL, ${example}`);
  }
  const parsed = new URL(url);
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') {
    throw new ConfigurationError(
      'url',
      `must use ws or wss, not ${parsed.protocol.slice(0, -1)}, ${example}`,
    );
  }
  if (parsed.username || parsed.password) {
    throw new ConfigurationError(
      'url',
      'must not carry credentials (user:password@); they would be sent and shown',
    );
  }
  if (parsed.hash) throw new ConfigurationError('url', `must not have a fragment, ${example}`);
  return parsed.href;
}

function resolveUrl(options: StreamClientOptions): string {
  if (options.url !== undefined) return checkUrl(options.url);
  const name = options.server ?? 'global';
  const servers: Readonly<Record<string, string>> = streamServers['public-v4'];
  const origin = Object.hasOwn(servers, name) ? servers[name] : undefined;
  if (!origin) {
    throw new ConfigurationError(
      'server',
      `unknown server "${name}"; the documents name ${Object.keys(servers).join(', ')}`,
    );
  }
  return checkUrl(`${origin}${address ?? ''}`);
}

/** A number of milliseconds for a timer; 0 only where it turns something off (`zero` says what). */
function checkMs(field: string, value: unknown, fallback: number, zero?: string): number {
  if (value === undefined) return fallback;
  const problem = timerMsProblem(value);
  if (problem) throw new ConfigurationError(field, `${problem}${zero ? ` (0: ${zero})` : ''}`);
  if (value === 0 && !zero) throw new ConfigurationError(field, 'must be 1 ms or more');
  return value as number;
}

function checkCount(field: string, value: unknown, fallback: number, unit: string): number {
  if (value === undefined) return fallback;
  if (!(typeof value === 'number' && Number.isSafeInteger(value) && value > 0)) {
    throw new ConfigurationError(field, `must be a whole number of ${unit}, 1 or more`);
  }
  return value;
}

function resolveReconnect(option: unknown): ReconnectPolicy | undefined {
  if (option === false) return undefined;
  if (option === undefined || option === true) return defaultReconnectPolicy;
  if (typeof option !== 'object' || option === null) {
    throw new ConfigurationError('reconnect', 'must be a boolean or a policy object');
  }
  const { attempts, baseDelayMs, maxDelayMs } = option as Partial<Record<keyof ReconnectPolicy, unknown>>;
  if (
    attempts !== undefined &&
    !(attempts === Number.POSITIVE_INFINITY || (Number.isSafeInteger(attempts) && (attempts as number) >= 1))
  ) {
    throw new ConfigurationError('reconnect.attempts', 'must be a whole number, 1 or more, or Infinity');
  }
  return {
    attempts: (attempts as number | undefined) ?? defaultReconnectPolicy.attempts,
    baseDelayMs: checkMs('reconnect.baseDelayMs', baseDelayMs, defaultReconnectPolicy.baseDelayMs),
    maxDelayMs: checkMs('reconnect.maxDelayMs', maxDelayMs, defaultReconnectPolicy.maxDelayMs),
  };
}

/** The hooks that are set, copied (a later change to the caller's arrays changes nothing). */
function checkHooks(hooks: unknown): StreamHooks {
  if (hooks === undefined) return {};
  if (typeof hooks !== 'object' || hooks === null) throw new ConfigurationError('hooks', 'must be an object');
  const own: Record<string, readonly unknown[]> = {};
  for (const [name, list] of Object.entries(hooks)) {
    if (!(streamHookNames as readonly string[]).includes(name)) {
      throw new ConfigurationError(
        `hooks.${name}`,
        `is not an event; the events are ${streamHookNames.join(', ')}`,
      );
    }
    if (list === undefined) continue;
    if (!(Array.isArray(list) && list.every((hook) => typeof hook === 'function'))) {
      throw new ConfigurationError(`hooks.${name}`, 'must be an array of functions');
    }
    if (list.length > 0) own[name] = [...list];
  }
  return own as StreamHooks;
}

/** The settings, or a ConfigurationError naming the first option that is not usable. */
export function resolveSettings(options: StreamClientOptions): StreamSettings {
  if (typeof options !== 'object' || options === null)
    throw new ConfigurationError('options', 'must be an object');
  const { token, webSocket } = options;
  if (token !== undefined && !((typeof token === 'string' && token !== '') || typeof token === 'function')) {
    throw new ConfigurationError('token', 'must be a non-empty string or a function that returns one');
  }
  if (webSocket !== undefined && typeof webSocket !== 'function') {
    throw new ConfigurationError('webSocket', 'must be a WebSocket class');
  }
  return {
    url: resolveUrl(options),
    requestTimeoutMs: checkMs('requestTimeoutMs', options.requestTimeoutMs, defaults.requestTimeoutMs),
    connectTimeoutMs: checkMs('connectTimeoutMs', options.connectTimeoutMs, defaults.connectTimeoutMs),
    pingIntervalMs: checkMs('pingIntervalMs', options.pingIntervalMs, defaults.pingIntervalMs, 'no pings'),
    pongTimeoutMs: checkMs('pongTimeoutMs', options.pongTimeoutMs, defaults.pongTimeoutMs),
    maxMessageBytes: checkCount(
      'maxMessageBytes',
      options.maxMessageBytes,
      defaults.maxMessageBytes,
      'bytes',
    ),
    bufferSize: checkCount('bufferSize', options.bufferSize, defaults.bufferSize, 'updates'),
    reconnect: resolveReconnect(options.reconnect),
    hooks: checkHooks(options.hooks),
  };
}

export function visibleOptions(settings: StreamSettings, options: StreamClientOptions): VisibleStreamOptions {
  const { hooks, ...shown } = settings;
  return {
    ...shown,
    token: shownToken(options.token),
    webSocket: options.webSocket ? 'custom' : 'default',
    hooks: Object.keys(hooks),
  };
}
