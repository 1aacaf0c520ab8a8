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
  /** Timers that will hand a permit back; they keep the process alive only while calls wait. */
  private readonly returning = new Set<ReturnType<typeof setTimeout>>();
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
        if (this.waiting.length === 0) this.keepAlive(false);
        reject(signal?.reason);
      };
      this.waiting.push(grant);
      this.keepAlive(true);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const timer = setTimeout(() => {
        this.returning.delete(timer);
        const next = this.waiting.shift();
        if (next) next();
        else this.available++;
        if (this.waiting.length === 0) this.keepAlive(false);
      }, this.windowMs);
      this.returning.add(timer);
      if (this.waiting.length === 0) (timer as { unref?: () => void }).unref?.();
    };
  }

  /**
   * A permit on its way back must not keep an idle process alive, but must while a call waits
   * for it: otherwise a script whose calls are queued would exit with its work undone.
   */
  private keepAlive(on: boolean): void {
    for (const timer of this.returning) {
      const handle = timer as { ref?: () => void; unref?: () => void };
      if (on) handle.ref?.();
      else handle.unref?.();
    }
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
