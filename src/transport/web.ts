// The default transport everywhere but Node (Bun, Deno, browsers, workers: the other conditions of
// `#transport` in package.json): the runtime's own fetch. No `node:` module and no undici is
// reachable from here, so a bundler with default settings never sees them.
import { createFetchTransport } from './fetch.ts';
import type { Transport } from './types.ts';

export function createDefaultTransport(): Transport {
  return createFetchTransport();
}
