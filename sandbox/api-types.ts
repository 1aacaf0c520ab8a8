// The generated types the sandbox works with, by path: an operation's own request and response
// schemas are written inline in its file under openapi/paths/, so only the shared ones (Decimal,
// OrderKind, …) have a component name.
import type { SuccessResponseJSON } from 'openapi-typescript-helpers';
import type { components, paths } from '../generated/private-v4.ts';

type PrivatePath = keyof paths;

/** The JSON body of a private operation's request. */
export type RequestBody<Path extends PrivatePath> = NonNullable<
  paths[Path]['post']['requestBody']
>['content']['application/json'];

/** The JSON body of a private operation's success. */
export type SuccessBody<Path extends PrivatePath> = SuccessResponseJSON<paths[Path]['post']>;

export type HistoryRecord =
  SuccessBody<'/api/v4/main-account/smart-flex/investments/history'>['data'][number];
export type CollateralItem = SuccessBody<'/api/v4/collateral-account/balance-summary'>[number];
/** One asset's entry of the main balance. */
export type AssetMainBalance = Extract<SuccessBody<'/api/v4/main-account/balance'>, { main_balance: string }>;
export type OrderKind = components['schemas']['OrderKind'];
