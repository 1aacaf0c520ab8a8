// Client-side rate limiting: a sliding window per API key and operation, with the limits of the
// generated operation table, so that the client waits instead of earning a 429. Windows are
// shared by every client in the process, as the server counts per key.

export interface Limit {
  requests: number;
  windowSeconds: number;
}

/**
 * Sliding window of N permits. A call holds a permit from before it is sent until its answer
 * has arrived, and the permit comes back one window later. The server counts a request at its
 * arrival, which lies between the two, so no window of the server's sees more than N requests,
 * whatever the network delays: a window timed from the send alone would let a slow request and
 * a fast later one land closer than a window apart.
 */
export class SlidingWindow {
  private available: number;
  private readonly waiting: (() => void)[] = [];
  private readonly windowMs: number;

  constructor(limit: Limit) {
    this.available = limit.requests;
    this.windowMs = limit.windowSeconds * 1000;
  }

  /** Resolves with a release function once a permit is free, in call order. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.available > 0 && this.waiting.length === 0) {
      this.available--;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve(this.releaser());
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(grant);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal?.reason);
      };
      this.waiting.push(grant);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const timer = setTimeout(() => {
        const next = this.waiting.shift();
        if (next) next();
        else this.available++;
      }, this.windowMs);
      // A pending permit must not keep the process alive.
      (timer as { unref?: () => void }).unref?.();
    };
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
