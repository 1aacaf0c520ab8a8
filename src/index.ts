// The package's entry: the clients, their hooks, errors and types, the signing middleware for
// openapi-fetch, the stream client, and the generated facts a caller may want (servers, the
// ActionType values).
export { servers } from '../generated/operations.ts';
export type * as PrivateApi from '../generated/private-v4.ts';
export { ActionType } from '../generated/private-v4.ts';
export type * as PublicApi from '../generated/public-v4.ts';
export {
  type CallerBody,
  type ClientOptions,
  createPrivateClient,
  createPublicClient,
  defaultRetryPolicy,
  type OperationId,
  type PrivateClient,
  type PrivateClientOptions,
  type PrivateResult,
  type PublicClient,
  type PublicResult,
  type ServerName,
  unwrap,
  type VisibleOptions,
} from './client.ts';
// Types only: the engine and its parts load when a client is made, not with the package.
export type { CallOptions } from './engine.ts';
export {
  type Answer,
  ApiError,
  type ApiErrorKind,
  type CallResult,
  ConfigurationError,
  type ResponseLike,
} from './errors.ts';
export type {
  AnswerEvent,
  EndEvent,
  ErrorEvent,
  Hooks,
  RateLimitWaitEvent,
  RequestEvent,
  RetryEvent,
  StartEvent,
} from './hooks.ts';
export { type CallerPaths, createSigningMiddleware } from './middleware.ts';
export type { Limit } from './rate-window.ts';
export type { BodyRules, FieldRule, Violation } from './request-checks.ts';
export { createSigner, type Signature, type Signer, type SigningOptions } from './signing.ts';
export type { FetchLike } from './transport/fetch.ts';
export type { Lease, Outgoing, Target, Transport } from './transport/types.ts';
export type { Drift, DriftCheck, DriftEvent, ValidationOptions } from './validation-options.ts';
export type { Deadline, RetryPolicy } from './waits.ts';
