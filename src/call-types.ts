// The types of the clients and their calls: openapi-fetch's call shape (`{ data, error, response }`)
// over the generated paths, with private bodies as the caller writes them (no signed fields).
import type { ErrorResponseJSON, RequiredKeysOf, SuccessResponseJSON } from 'openapi-typescript-helpers';
import type { signedBodyFields } from '../generated/operations.ts';
import type { paths as PrivatePaths } from '../generated/private-v4.ts';
import type { paths as PublicPaths } from '../generated/public-v4.ts';
import type { ApiError } from './errors.ts';
import type { VisibleOptions } from './options.ts';
import type { ResponseLike } from './transport/types.ts';

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export type CallResult<Data, ErrorBody> =
  | { data: Data; error?: undefined; response: ResponseLike }
  | { data?: undefined; error: ApiError<ErrorBody>; response?: ResponseLike };

/** The body fields the signer adds (`request`, `nonce`, `nonceWindow`), never the caller. */
export type SignedFields = (typeof signedBodyFields)[number];
type JsonBody<Operation> = Operation extends { requestBody: { content: { 'application/json': infer Body } } }
  ? Body
  : never;
type PrivateOperation<Path extends keyof PrivatePaths> = PrivatePaths[Path]['post'];

/** A private operation's body as the caller writes it: without `request`, `nonce` or `nonceWindow`. */
export type CallerBody<Path extends keyof PrivatePaths> = Omit<
  JsonBody<PrivateOperation<Path>>,
  SignedFields
>;

export type PrivateCallArgs<Path extends keyof PrivatePaths> =
  RequiredKeysOf<CallerBody<Path>> extends never
    ? [init?: CallOptions & { body?: CallerBody<Path> }]
    : [init: CallOptions & { body: CallerBody<Path> }];

export type PrivateResult<Path extends keyof PrivatePaths> = CallResult<
  SuccessResponseJSON<PrivateOperation<Path>>,
  ErrorResponseJSON<PrivateOperation<Path>>
>;

export type PublicResult<Path extends keyof PublicPaths> = CallResult<
  SuccessResponseJSON<PublicPaths[Path]['get']>,
  ErrorResponseJSON<PublicPaths[Path]['get']>
>;

export interface PrivateClient {
  POST<Path extends keyof PrivatePaths>(
    path: Path,
    ...init: PrivateCallArgs<Path>
  ): Promise<PrivateResult<Path>>;
  /** Closes the transport's connections. */
  close(): Promise<void>;
  /** The options in force, secret redacted. */
  readonly options: VisibleOptions;
}

export interface PublicClient {
  GET<Path extends keyof PublicPaths>(path: Path, init?: CallOptions): Promise<PublicResult<Path>>;
  close(): Promise<void>;
  readonly options: VisibleOptions;
}
