// ccxt's whitebit class as a user points it at the sandbox: every API origin it knows mapped onto
// the sandbox's base URL (so that nothing leaves 127.0.0.1), and a nonce that never repeats.
//
// ccxt's nonce is the millisecond clock and its calls are sequential, so two calls can fall in
// one millisecond and the second nonce would not be greater than the first: the service refuses
// it, and so does the sandbox. Instead of waiting, ccxt gets the clock or one more than the last
// nonce, whichever is greater. ccxt's documentation has a section on overriding `nonce`, and this
// is the rule the service checks (our own client's, src/nonce.ts), so the configuration is one a
// careful user has; nothing else of ccxt's is changed.
import ccxt from 'ccxt';

export type Whitebit = InstanceType<typeof ccxt.whitebit>;
export type WhitebitPro = InstanceType<typeof ccxt.pro.whitebit>;

/** Every REST origin of `exchange` onto `baseUrl`, and the nonce that never repeats. */
function pointAt<Exchange extends Whitebit>(exchange: Exchange, baseUrl: string): Exchange {
  const api = exchange.urls.api as unknown as Record<string, Record<string, string> | string>;
  for (const [version, kinds] of Object.entries(api)) {
    // ccxt.pro's class adds its WebSocket URL beside the REST ones, as a string: set apart.
    if (typeof kinds !== 'object') continue;
    for (const kind of Object.keys(kinds)) {
      kinds[kind] = `${baseUrl}/api/${version}${kind === 'public' ? '/public' : ''}`;
    }
  }
  let last = 0;
  exchange.nonce = () => {
    last = Math.max(Date.now(), last + 1);
    return last;
  };
  return exchange;
}

export function whitebitFor(baseUrl: string, apiKey: string, secret: string): Whitebit {
  return pointAt(new ccxt.whitebit({ apiKey, secret }), baseUrl);
}

/**
 * ccxt.pro's whitebit class, the same with its streams: its one WebSocket URL (`urls.api.ws`, read
 * by pro/whitebit.js) set to the URL the sandbox prints. On Node, ccxt opens a `ws://` URL only
 * once `loadHttpProxyAgent()` has loaded an HTTP agent (it says so when it refuses), so that is
 * done before its first stream.
 */
export async function whitebitProFor(
  baseUrl: string,
  streamUrl: string,
  apiKey: string,
  secret: string,
): Promise<WhitebitPro> {
  const exchange = pointAt(new ccxt.pro.whitebit({ apiKey, secret }), baseUrl);
  (exchange.urls.api as unknown as { ws: string }).ws = streamUrl;
  await exchange.loadHttpProxyAgent();
  return exchange;
}
