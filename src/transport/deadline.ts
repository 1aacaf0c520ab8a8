// One deadline for one exchange, also following the caller's signal and the client's closing. It
// ends the exchange with a TimeoutError DOMException, as AbortSignal.timeout does, or with the
// reason of the signal that fired, and is cleared as soon as the exchange ends (AbortSignal.timeout
// cannot be cleared and leaves a timer pending for the whole timeout). A plain object with its own
// listeners rather than an AbortController: a controller and a listener on its signal measured
// about 6 µs a call, a fifth of the client's own cost. A transport that needs a real AbortSignal
// (fetch) asks for `signal`, made on demand.

import { ActiveList, type Entry } from './active-list.ts';

function timeoutError(): DOMException {
  return new DOMException('The operation was aborted due to timeout', 'TimeoutError');
}

/** The longest delay a timer takes: longer ones fire at once. */
export const maxTimerMs = 2 ** 31 - 1;

/**
 * Deadlines of a second or more share one timer that ticks every `tickMs` while any is pending,
 * and end up to one tick late: a timer of their own per exchange measured about 3 µs a call at
 * concurrency 64. Shorter ones keep a timer of their own, to the millisecond.
 */
const sharedFromMs = 1000;
const tickMs = 100;
const pendingShared = new ActiveList<Deadline>();
let ticker: ReturnType<typeof setInterval> | undefined;

function tick(): void {
  const now = performance.now();
  for (const deadline of pendingShared.values()) {
    if (deadline.endsAt <= now) deadline.end(timeoutError());
  }
  if (pendingShared.size === 0) {
    clearInterval(ticker);
    ticker = undefined;
  }
}

export class Deadline {
  ended = false;
  reason: unknown = undefined;
  /** When a shared-timer deadline ends (performance.now() time); Infinity otherwise. */
  readonly endsAt: number = Number.POSITIVE_INFINITY;
  private readonly listeners: (() => void)[] = [];
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  private readonly followed: AbortSignal | undefined;
  private readonly onFollowedAbort: (() => void) | undefined;
  private controller: AbortController | undefined;
  private shared: Entry<Deadline> | undefined;

  /** Ends after `ms` (0: never on its own), or as soon as `signal` aborts. */
  constructor(ms: number, signal?: AbortSignal) {
    if (ms >= sharedFromMs) {
      this.endsAt = performance.now() + ms;
      this.shared = pendingShared.add(this);
      if (!ticker) {
        ticker = setInterval(tick, tickMs);
        (ticker as { unref?: () => void }).unref?.();
      }
    } else if (ms > 0) {
      this.timer = setTimeout(() => this.end(timeoutError()), ms);
      (this.timer as { unref?: () => void }).unref?.();
    }
    if (signal?.aborted) this.end(signal.reason);
    else if (signal) {
      const onFollowedAbort = () => this.end(signal.reason);
      signal.addEventListener('abort', onFollowedAbort, { once: true });
      this.followed = signal;
      this.onFollowedAbort = onFollowedAbort;
    }
  }

  /** A real AbortSignal that follows this deadline. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.ended) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Ends the exchange now with `reason` (a transport's own limit, such as the response size). */
  end(reason: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.reason = reason;
    if (this.shared) pendingShared.remove(this.shared);
    this.controller?.abort(reason);
    for (const listener of this.listeners.splice(0)) listener();
  }

  /** Calls `listener` once, when the deadline ends. */
  onEnd(listener: () => void): void {
    this.listeners.push(listener);
  }

  offEnd(listener: () => void): void {
    const index = this.listeners.indexOf(listener);
    if (index >= 0) this.listeners.splice(index, 1);
  }

  /** Sleeps `ms`, or rejects with the reason as soon as the deadline ends. */
  wait(ms: number): Promise<void> {
    if (this.ended) return Promise.reject(this.reason);
    return new Promise((resolve, reject) => {
      const onEnd = () => {
        clearTimeout(timer);
        reject(this.reason);
      };
      const timer = setTimeout(
        () => {
          this.offEnd(onEnd);
          resolve();
        },
        Math.min(ms, maxTimerMs),
      );
      this.onEnd(onEnd);
    });
  }

  clear(): void {
    clearTimeout(this.timer);
    if (this.shared) pendingShared.remove(this.shared);
    if (this.onFollowedAbort) this.followed?.removeEventListener('abort', this.onFollowedAbort);
  }
}
