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
 *
 * Permits on their way back are the release times of recent calls, in order; they are counted
 * lazily when a permit is asked for, so a call costs no timer. A timer runs only while calls
 * wait, for the earliest permit to come back, and keeps the process alive meanwhile: a script
 * whose calls are queued must not exit with its work undone.
 */
export class SlidingWindow {
  private inFlight = 0;
  /** Release times (ms) of permits not yet back; live from `head` on. */
  private returning: number[] = [];
  private head = 0;
  private readonly waiting: (() => void)[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly requests: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(limit: Limit, now: () => number = () => performance.now()) {
    this.requests = limit.requests;
    this.windowMs = limit.windowSeconds * 1000;
    this.now = now;
  }

  /** Permits free now: the limit less those in use and those not back yet. */
  private available(): number {
    const cutoff = this.now() - this.windowMs;
    const times = this.returning;
    while (this.head < times.length && (times[this.head] as number) <= cutoff) this.head++;
    if (this.head > 1024 && this.head * 2 > times.length) {
      this.returning = times.slice(this.head);
      this.head = 0;
    }
    return this.requests - this.inFlight - (this.returning.length - this.head);
  }

  /** A release function when a permit is free now and nobody waits; undefined otherwise. */
  tryAcquire(): (() => void) | undefined {
    if (this.waiting.length > 0 || this.available() <= 0) return undefined;
    this.inFlight++;
    return this.releaser();
  }

  /** Resolves with a release function once a permit is free, in call order. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    const free = this.tryAcquire();
    if (free) return Promise.resolve(free);
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        this.inFlight++;
        resolve(this.releaser());
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(grant);
        if (index >= 0) this.waiting.splice(index, 1);
        if (this.waiting.length === 0) this.stopTimer();
        reject(signal?.reason);
      };
      this.waiting.push(grant);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.schedule();
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight--;
      this.returning.push(this.now());
      if (this.waiting.length > 0) this.schedule();
    };
  }

  /** Grants waiting calls the permits that are back, and waits for the next one if calls remain. */
  private schedule(): void {
    this.stopTimer();
    let free = this.available();
    while (free > 0 && this.waiting.length > 0) {
      (this.waiting.shift() as () => void)();
      free--;
    }
    if (this.waiting.length === 0) return;
    // The next permit back: the oldest release, one window on. None returning means every permit
    // is in flight: a release will schedule again.
    const oldest = this.returning[this.head];
    if (oldest === undefined) return;
    this.timer = setTimeout(() => this.schedule(), Math.max(0, oldest + this.windowMs - this.now()) + 1);
  }

  private stopTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

const registryKey = Symbol.for('txc-api-v4.rate-windows');
const globalScope = globalThis as typeof globalThis & { [registryKey]?: Map<string, SlidingWindow> };
const windows = globalScope[registryKey] ?? new Map<string, SlidingWindow>();
globalScope[registryKey] = windows;

function sharedWindow(key: string, limit: Limit): SlidingWindow {
  const id = `${key}\u0000${limit.requests}/${limit.windowSeconds}`;
  let window = windows.get(id);
  if (!window) {
    window = new SlidingWindow(limit);
    windows.set(id, window);
  }
  return window;
}

/** A rate-limit option as the client takes it: on (the documents' limits), off, or limits overridden. */
export type RateLimitOption = boolean | { limits?: Partial<Record<string, Limit>> };

/**
 * The window of each operation for one scope (an API key, or a public origin), made on first use;
 * undefined when rate limiting is off.
 */
export function createWindows(
  scope: string,
  option: RateLimitOption,
): (route: { operationId: string; rateLimit: Limit }) => SlidingWindow | undefined {
  const windows = new Map<string, SlidingWindow | undefined>();
  return (route) => {
    if (!windows.has(route.operationId)) {
      const override = typeof option === 'object' ? option.limits?.[route.operationId] : undefined;
      windows.set(
        route.operationId,
        option ? sharedWindow(`${scope}:${route.operationId}`, override ?? route.rateLimit) : undefined,
      );
    }
    return windows.get(route.operationId);
  };
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
