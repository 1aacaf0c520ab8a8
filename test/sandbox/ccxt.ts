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

export function whitebitFor(baseUrl: string, apiKey: string, secret: string): Whitebit {
  const exchange = new ccxt.whitebit({ apiKey, secret });
  const api = exchange.urls.api as unknown as Record<string, Record<string, string>>;
  for (const [version, kinds] of Object.entries(api)) {
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
