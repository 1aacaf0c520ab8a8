// The default transport on Node (the `node` condition of `#transport` in package.json): undici,
// loaded on the first call so that importing the client stays cheap.
import type { Transport } from './types.ts';

export function createDefaultTransport(): Transport {
  let loading: Promise<Transport> | undefined;
  let loaded: Transport | undefined;
  const load = () => {
    loading ??= import('./undici.ts').then((module) => {
      loaded = module.createUndiciTransport();
      return loaded;
    });
    return loading;
  };
  return {
    // Once loaded, a call goes straight through, without waiting on the import again.
    send: (exchange) =>
      loaded ? loaded.send(exchange) : load().then((transport) => transport.send(exchange)),
    close: async (reason) => {
      if (loading) await (await loading).close(reason);
    },
  };
}
