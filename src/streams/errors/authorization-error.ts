import { StreamError } from './stream-error.ts';

/**
 * A private channel could not be used: no `token` was given, the token provider failed or gave no
 * token, or the server refused the token (after one fresh token from a provider, refused too).
 * `cause` holds the provider's error or the server's refusal (a StreamRequestError).
 */
export class AuthorizationError extends StreamError {
  override readonly name = 'AuthorizationError';
  readonly kind = 'authorization';

  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
  }
}
