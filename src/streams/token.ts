// The WebSocket token, kept out of sight: given as a string or as a function that fetches one (the
// HTTP client's `/api/v4/profile/websocket_token`, a caller's cache), it lives in this closure
// only, never on an object that could be inspected or serialized. Every text from the server that
// may end up in an error is scrubbed of each token used.
import { AuthorizationError } from './errors/authorization-error.ts';

/** A token, or a function that fetches a fresh one (called for each connection and after a refusal). */
export type TokenOption = string | (() => Promise<string> | string);

export interface TokenSource {
  /** Whether a token was given. */
  readonly given: boolean;
  /** Whether asking again can give a different token (a provider function). */
  readonly refreshable: boolean;
  /** A token; from a provider, a fresh one each time. Rejects with an AuthorizationError. */
  get(): Promise<string>;
  /** The text with every token used so far replaced by `[redacted]`. */
  scrub(text: string): string;
  /** The value with every token used so far replaced, in its strings at any depth (a server's error object). */
  scrubValue(value: unknown): unknown;
}

/** How the option is shown: never the token itself. */
export const shownToken = (token: TokenOption | undefined) =>
  token === undefined ? undefined : typeof token === 'string' ? '[redacted]' : 'provider';

/**
 * How many of a provider's tokens are kept for scrubbing: a server echoes only the token sent on
 * its connection, and the set must not grow with every reconnection.
 */
const remembered = 16;

export function tokenSource(token: TokenOption | undefined): TokenSource {
  const used = new Set<string>();
  if (typeof token === 'string') used.add(token);
  const remember = (fresh: string) => {
    used.delete(fresh);
    used.add(fresh);
    if (used.size > remembered) used.delete(used.values().next().value as string);
  };
  const scrub = (text: string) => {
    let scrubbed = text;
    for (const secret of used)
      if (scrubbed.includes(secret)) scrubbed = scrubbed.replaceAll(secret, '[redacted]');
    return scrubbed;
  };
  const scrubValue = (value: unknown): unknown => {
    if (typeof value === 'string') return scrub(value);
    if (Array.isArray(value)) return value.map(scrubValue);
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [scrub(key), scrubValue(item)]));
    }
    return value;
  };
  return {
    given: token !== undefined,
    refreshable: typeof token === 'function',
    async get() {
      if (token === undefined) {
        throw new AuthorizationError(
          'a private channel needs the token option (a WebSocket token or a function that fetches one)',
        );
      }
      if (typeof token === 'string') return token;
      let fresh: unknown;
      try {
        fresh = await token();
      } catch (cause) {
        throw new AuthorizationError('the token provider failed', cause);
      }
      if (typeof fresh !== 'string' || fresh === '') {
        throw new AuthorizationError('the token provider gave no token (a non-empty string)');
      }
      remember(fresh);
      return fresh;
    },
    scrub,
    scrubValue,
  };
}
