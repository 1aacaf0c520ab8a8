// The generated types the sandbox works with. An operation's own request and response schemas
// are written inline in its file under openapi/paths/, so only the shared ones (Decimal,
// OrderKind, …) have a component name; a request body is typed by its operationId.
import type { SuccessResponseJSON } from 'openapi-typescript-helpers';
import type { OperationId, operations } from '../generated/operations.ts';
import type { components, paths } from '../generated/private-v4.ts';

type PrivatePath = keyof paths;

/** The JSON body of a private operation's request, by path. */
export type RequestBody<Path extends PrivatePath> = NonNullable<
  paths[Path]['post']['requestBody']
>['content']['application/json'];

/** The JSON body of a private operation's success, by path. */
export type SuccessBody<Path extends PrivatePath> = SuccessResponseJSON<paths[Path]['post']>;

type PathOf<Op extends OperationId> = (typeof operations)[Op]['path'];

/** The request body of an operation: a private one's JSON body, none for a public one. */
export type BodyOf<Op extends OperationId> =
  PathOf<Op> extends PrivatePath ? RequestBody<PathOf<Op>> : undefined;

export type HistoryRecord =
  SuccessBody<'/api/v4/main-account/smart-flex/investments/history'>['data'][number];
/** One deposit or withdrawal of the wallet's history. */
export type WalletHistoryRecord = NonNullable<SuccessBody<'/api/v4/main-account/history'>['records']>[number];
export type CollateralItem = SuccessBody<'/api/v4/collateral-account/balance-summary'>[number];
/** One asset's entry of the main balance. */
export type AssetMainBalance = Extract<SuccessBody<'/api/v4/main-account/balance'>, { main_balance: string }>;
export type OrderKind = components['schemas']['OrderKind'];
export type OrderSide = components['schemas']['OrderSide'];
