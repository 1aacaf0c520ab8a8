// The errors the sandbox's streams answer a request with, as the stream documents' descriptions
// give them (observed upstream; no message of the documents has their schema yet): `result` null
// and `error` an object of `code` and `message`, from a fixed table. The sandbox uses these:
// 1 for parameters it cannot take (a token it did not hand out among them), 4 for a method the
// documents do not name, 6 for an account channel before `authorize`, 7 past the rate limit.

export interface StreamError {
  code: number;
  message: string;
}

export const streamErrors = {
  invalidArgument: { code: 1, message: 'invalid argument' },
  methodNotFound: { code: 4, message: 'method not found' },
  requireAuthentication: { code: 6, message: 'require authentication' },
  tooManyRequests: { code: 7, message: 'too many requests' },
} as const satisfies Record<string, StreamError>;

/** A request refused: what a channel answers instead of a result. */
export interface Refusal {
  readonly refused: StreamError;
}

export const refused = (error: StreamError): Refusal => ({ refused: error });
export const invalidArgument = refused(streamErrors.invalidArgument);

export const isRefusal = (value: unknown): value is Refusal =>
  typeof value === 'object' && value !== null && 'refused' in value;
