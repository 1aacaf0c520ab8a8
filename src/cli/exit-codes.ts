// Exit codes by what went wrong, so a script can branch on them (documented in docs/guides/txc.md).
import type { ApiErrorKind } from '../index.ts';

export const exitCodes = {
  success: 0,
  /** Anything not listed below: the service refused (private or public error object), an unreadable body, declined. */
  other: 1,
  /** A bad flag, a missing credential, an invalid request refused before sending, a write not confirmed. */
  usage: 2,
  /** Unauthorized or forbidden. */
  denied: 3,
  rateLimited: 4,
  /** A server error, a transport failure or a timeout. */
  unavailable: 5,
} as const;

export function exitCodeOf(kind: ApiErrorKind): number {
  switch (kind) {
    case 'invalid-request':
      return exitCodes.usage;
    case 'unauthorized':
    case 'forbidden':
      return exitCodes.denied;
    case 'rate-limited':
      return exitCodes.rateLimited;
    case 'server-error':
    case 'transport':
    case 'timeout':
      return exitCodes.unavailable;
    default:
      return exitCodes.other;
  }
}
