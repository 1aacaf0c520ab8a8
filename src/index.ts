// The package's entry: the clients, the signing middleware for openapi-fetch, their errors and
// types, and the generated facts a caller may want (servers, the ActionType values).
export { servers } from '../generated/operations.ts';
export type * as PrivateApi from '../generated/private-v4.ts';
export { ActionType } from '../generated/private-v4.ts';
export type * as PublicApi from '../generated/public-v4.ts';
export type {
  CallerBody,
  CallOptions,
  CallResult,
  PrivateClient,
  PrivateResult,
  PublicClient,
  PublicResult,
} from './call-types.ts';
export { createPrivateClient, createPublicClient, unwrap } from './client.ts';
export { ApiError, type ApiErrorKind, ConfigurationError } from './errors.ts';
export { type CallerPaths, createSigningMiddleware } from './middleware.ts';
export type {
  ClientOptions,
  OperationId,
  PrivateClientOptions,
  ServerName,
  VisibleOptions,
} from './options.ts';
export type { Limit } from './rate-limit.ts';
export type { RetryPolicy } from './retry.ts';
export { defaultRetryPolicy } from './retry.ts';
export type { SigningOptions } from './sign-request.ts';
export { createSigner, type Signature, type Signer } from './signing.ts';
export type { FetchLike } from './transport/fetch.ts';
export type { Answer, Exchange, Outgoing, ResponseLike, Transport } from './transport/types.ts';
export { type BodyRules, checkBody, type FieldRule, type Violation } from './validate.ts';
