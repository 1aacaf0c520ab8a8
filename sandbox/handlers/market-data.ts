// The public market data the sandbox trades on, from its fixture: the markets (those trading
// now) and the assets, in the shape the operation's answer declares.
import { at, optionalRecordAt } from '../../model/json.ts';
import type { Answer } from '../answer.ts';
import { type CallContext, ok } from '../context.ts';
import { isTrading } from '../orders.ts';

/**
 * Records of the fixture as the operation's answer lists them: an array of them, or an object
 * keyed by their names (the answer's `additionalProperties`), each with only the properties the
 * answer declares (a market's price, the sandbox's own, is not one of them).
 */
function listed(context: CallContext, records: Iterable<[string, object]>): Answer {
  const schema = context.operation.successSchema();
  const list = at(schema, 'type') === 'array';
  const item = optionalRecordAt(schema, list ? 'items' : 'additionalProperties');
  if (!item) throw new Error(`${context.operation.id}'s answer is neither an array nor an object of records`);
  const declared = Object.keys(optionalRecordAt(item, 'properties') ?? {});
  const shaped = [...records].map(([name, record]): [string, object] => [
    name,
    Object.fromEntries(Object.entries(record).filter(([property]) => declared.includes(property))),
  ]);
  return ok(list ? shaped.map(([, record]) => record) : Object.fromEntries(shaped));
}

export function tradingMarkets(context: CallContext): Answer {
  return listed(
    context,
    [...context.state.markets].filter(([, market]) => isTrading(market, context.now)),
  );
}

export function fixtureAssets(context: CallContext): Answer {
  return listed(context, context.state.assets);
}
