// A mistake in how txc was called (a flag, a missing credential, an unconfirmed write): it exits
// with the usage code and a message that says what to do instead.
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
