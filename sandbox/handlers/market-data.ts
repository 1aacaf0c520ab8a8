// The market data the sandbox trades on, from its fixture: the markets (those trading now) and
// the assets, in the shape the operation's answer declares, and the fees the account trades at.
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

/** A market's kind of fees: futures markets have defaults of their own, every other market the spot ones. */
const feeKind = (type: string) => (type === 'spot' ? 'spot' : 'futures');

/**
 * The account's fees, from the fixture's markets that trade now (the sandbox has no fees of an
 * account's own): the default of each kind is the maker and taker pair most of its markets have
 * (the first such market's on a tie), and each market with another pair is listed in
 * `custom_fee`. No RPI premium is set, so both are null; a kind without a market is left out.
 */
export function readMarketFee(context: CallContext): Answer {
  const markets = [...context.state.markets.values()].filter((market) => isTrading(market, context.now));
  const defaults = new Map<string, { maker: string; taker: string }>();
  for (const kind of ['spot', 'futures']) {
    const counts = new Map<string, number>();
    for (const market of markets.filter((candidate) => feeKind(candidate.type) === kind)) {
      const pair = `${market.makerFee} ${market.takerFee}`;
      counts.set(pair, (counts.get(pair) ?? 0) + 1);
    }
    const most = Math.max(0, ...counts.values());
    const pair = [...counts].find(([, count]) => count === most)?.[0];
    const [maker = '', taker = ''] = pair?.split(' ') ?? [];
    if (pair) defaults.set(kind, { maker, taker });
  }
  const customFee: Record<string, { taker: string; maker: string }> = {};
  for (const market of markets) {
    const fees = defaults.get(feeKind(market.type));
    if (fees?.maker !== market.makerFee || fees?.taker !== market.takerFee) {
      customFee[market.name] = { taker: market.takerFee, maker: market.makerFee };
    }
  }
  const spot = defaults.get('spot');
  const futures = defaults.get('futures');
  return ok({
    error: null,
    ...(spot ? { taker: spot.taker, maker: spot.maker } : {}),
    ...(futures ? { futures_taker: futures.taker, futures_maker: futures.maker } : {}),
    rpi_maker_fee_premium: null,
    futures_rpi_maker_fee_premium: null,
    custom_fee: customFee,
  });
}
