// The sandbox's control, outside the API's paths: what a test or a person does to the market
// that no client of the service can (set a price, move the clock), over HTTP, so that a test of
// a sandbox in another process (`npm run sandbox`, `npm start`) can do what `sandbox.setPrice`
// and `sandbox.advanceClock` do in process. Its answers are plain JSON, not the service's.
//
//   GET  /sandbox                                   what the control takes, and the clock
//   POST /sandbox/price  {"market":"BTC_USDT","price":"36000"}
//   POST /sandbox/clock  {"advanceSeconds":3600}
import type { Answer } from './answer.ts';
import { compare, isDecimal, normalize } from './decimal.ts';
import { movePrice } from './exchange.ts';
import type { SandboxState } from './state.ts';

export const controlPath = '/sandbox';

/** The lines `npm run sandbox` prints about the control, for its base URL. */
export const controlLines = (url: string) => [
  `# Control (outside the API): curl -X POST ${url}${controlPath}/price -d '{"market":"BTC_USDT","price":"36000"}'`,
  `#   and curl -X POST ${url}${controlPath}/clock -d '{"advanceSeconds":3600}' (GET ${url}${controlPath} says more)`,
];

interface Controlled {
  state: SandboxState;
  clock: () => number;
  catchUp: (now: number) => void;
  advance: (milliseconds: number) => void;
}

const refused = (message: string): Answer => ({ status: 400, body: { error: message } });

function bodyOf(raw: Buffer | undefined): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(raw?.toString('utf8') ?? '');
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Carries out one control request. */
export function control(sandbox: Controlled, method: string, path: string, raw: Buffer | undefined): Answer {
  const now = sandbox.clock();
  if (method === 'GET' && path === controlPath) {
    return {
      status: 200,
      body: {
        now: Math.floor(now / 1000),
        prices: Object.fromEntries(
          [...sandbox.state.markets.values()].map((market) => [market.name, market.price]),
        ),
        controls: {
          [`POST ${controlPath}/price`]: '{"market": name, "price": decimal string above 0}',
          [`POST ${controlPath}/clock`]: '{"advanceSeconds": whole number of seconds, 0 or more}',
        },
      },
    };
  }
  if (method !== 'POST') return { status: 405, body: { error: `${method} ${path} is not a control` } };
  const body = bodyOf(raw);
  if (!body) return refused('the body must be a JSON object');
  if (path === `${controlPath}/price`) {
    const { market, price } = body;
    if (typeof market !== 'string' || !sandbox.state.markets.has(market))
      return refused(`market must be one of ${[...sandbox.state.markets.keys()].join(', ')}`);
    if (typeof price !== 'string' || !isDecimal(price) || compare(price, '0') <= 0)
      return refused('price must be a decimal string above 0');
    sandbox.catchUp(now);
    movePrice(sandbox.state, market, price, now);
    return { status: 200, body: { market, price: normalize(price) } };
  }
  if (path === `${controlPath}/clock`) {
    const seconds = body.advanceSeconds;
    if (typeof seconds !== 'number' || !Number.isSafeInteger(seconds) || seconds < 0)
      return refused('advanceSeconds must be a whole number of seconds, 0 or more');
    sandbox.advance(seconds * 1000);
    sandbox.catchUp(sandbox.clock());
    return { status: 200, body: { now: Math.floor(sandbox.clock() / 1000) } };
  }
  return { status: 404, body: { error: `${path} is not a control` } };
}
