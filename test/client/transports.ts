// The client's transports, for tests that must hold on each: the default one (undici on Node) and
// the fetch transport (Bun, Deno, browsers, or an injected fetch), here with Node's own fetch.
import type { FetchLike } from '../../src/index.ts';

export const transports: [name: string, fetch: FetchLike | undefined][] = [
  ['undici (default)', undefined],
  ['fetch', (request) => fetch(request)],
];

/** The client option that selects a transport. */
export const transportOption = (fetch: FetchLike | undefined) => (fetch ? { fetch } : {});
