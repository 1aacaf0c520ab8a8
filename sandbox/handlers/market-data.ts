// The public market data the sandbox trades on, from its fixture: the markets (those trading
// now, with their rules, without the sandbox's own price) and the assets.
import type { Answer } from '../answer.ts';
import { type CallContext, ok } from '../context.ts';
import { isTrading } from '../orders.ts';

export function tradingMarkets(context: CallContext): Answer {
  return ok(
    [...context.state.markets.values()]
      .filter((market) => isTrading(market, context.now))
      .map(({ price: _, ...listed }) => listed),
  );
}

export function fixtureAssets(context: CallContext): Answer {
  return ok(Object.fromEntries(context.state.assets));
}
