// Client-side rate limiting: a sliding window per API key and operation, with the limits of the
// generated operation table, so that the client waits instead of earning a 429. Windows are
// shared by every client in the process, as the server counts per key.

export interface Limit {
  requests: number;
  windowSeconds: number;
}

/** Exact sliding window: send k waits until send k-N is at least one window old. */
export class SlidingWindow {
  private readonly sendTimes: Float64Array;
  private next = 0;
  private readonly windowMs: number;

  constructor(limit: Limit) {
    this.sendTimes = new Float64Array(limit.requests).fill(Number.NEGATIVE_INFINITY);
    this.windowMs = limit.windowSeconds * 1000;
  }

  /** Reserves the next send slot; returns how long to wait before sending. */
  reserve(now: number): number {
    const at = Math.max(now, (this.sendTimes[this.next] as number) + this.windowMs);
    this.sendTimes[this.next] = at;
    this.next = (this.next + 1) % this.sendTimes.length;
    return at - now;
  }
}

const registryKey = Symbol.for('txc-api-v4.rate-windows');
const globalScope = globalThis as typeof globalThis & { [registryKey]?: Map<string, SlidingWindow> };
const windows = globalScope[registryKey] ?? new Map<string, SlidingWindow>();
globalScope[registryKey] = windows;

export function sharedWindow(key: string, limit: Limit): SlidingWindow {
  const id = `${key}\u0000${limit.requests}/${limit.windowSeconds}`;
  let window = windows.get(id);
  if (!window) {
    window = new SlidingWindow(limit);
    windows.set(id, window);
  }
  return window;
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 && !signal?.aborted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
