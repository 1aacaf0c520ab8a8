// The rate window: a sliding window per API key (or public origin) and operation, with the
// documents' limits (x-rate-limit) or the caller's, so that the client waits instead of earning a
// 429. Every client of the process with the same key shares it (waits.ts keeps per-key state).
import { keyState, Permits } from './waits.ts';

export interface Limit {
  requests: number;
  windowSeconds: number;
}

/** A rate-limit option: on (the documents' limits), off, or limits overridden by operationId. */
export type RateLimitOption = boolean | { limits?: Partial<Record<string, Limit>> };

/** What the rate window reads of a route. */
export interface RateLimitedRoute {
  readonly operationId: string;
  readonly rateLimit: Limit;
}

/** The window of `route` for `scope`, shared by every client of the process; undefined when off. */
export function rateWindow(
  scope: string,
  option: RateLimitOption,
  route: RateLimitedRoute,
): Permits | undefined {
  if (!option) return undefined;
  const limit =
    (typeof option === 'object' ? option.limits?.[route.operationId] : undefined) ?? route.rateLimit;
  const windows = keyState(scope).windows;
  const id = `${route.operationId}\u0000${limit.requests}/${limit.windowSeconds}`;
  let window = windows.get(id);
  if (!window) {
    window = new Permits(limit.requests, limit.windowSeconds * 1000);
    windows.set(id, window);
  }
  return window;
}
