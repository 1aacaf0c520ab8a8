// The spot trading transitions: placing, changing and cancelling orders on the sandbox's
// markets.
import type { Answer } from '../answer.ts';
import type { OrderKind } from '../api-types.ts';
import { type CallContext, caller, ok, refuse, refuseWith } from '../context.ts';
import type { FixtureOrder } from '../fixture.ts';

export interface CancelAllQuery {
  market?: string;
  type?: readonly OrderKind[];
  positionSide?: 'both' | 'long' | 'short';
}

export function cancelAll(context: CallContext, body: CancelAllQuery): Answer {
  const { account } = caller(context);
  if (body.market !== undefined && !context.state.markets.has(body.market)) {
    return refuse(context, 'marketNotAvailable');
  }
  // Observed upstream: positionSide only for perpetual futures markets. The refusal's wording
  // is not published; it takes the validation answer (code 30) with the document's wording.
  if (
    body.positionSide !== undefined &&
    (body.market === undefined || !context.state.perpetualMarkets.has(body.market))
  ) {
    return refuseWith(context, context.operation.validationExampleName(), {
      positionSide: [context.operation.message('positionSideNotPerpetual')],
    });
  }
  const kinds = body.type && body.type.length > 0 ? new Set<string>(body.type) : undefined;
  context.state.cancelOrders(
    account.id,
    (order: FixtureOrder) =>
      (body.market === undefined || order.market === body.market) &&
      (kinds === undefined || kinds.has(order.type)) &&
      (body.positionSide === undefined ||
        body.positionSide === 'both' ||
        order.positionSide === body.positionSide),
  );
  return ok([]);
}
