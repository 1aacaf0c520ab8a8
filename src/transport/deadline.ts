// One deadline for one exchange, also following the caller's signal and the client's closing. It
// is itself the part of an AbortSignal that undici reads (aborted, reason, 'abort' listeners),
// without an EventTarget: an AbortController and undici's listener on it measured about 6 µs a
// call, a fifth of the client's own cost. A transport that needs a real AbortSignal (fetch) asks
// for `signal`, made on demand. It aborts with a TimeoutError DOMException, as AbortSignal.timeout
// does, or with the reason of the signal that fired, and is cleared as soon as the exchange ends
// (AbortSignal.timeout cannot be cleared and leaves a timer pending for the whole timeout).

function timeoutError(): DOMException {
  return new DOMException('The operation was aborted due to timeout', 'TimeoutError');
}

/** The longest delay a timer takes: longer ones fire at once. */
export const maxTimerMs = 2 ** 31 - 1;

export class Deadline {
  aborted = false;
  reason: unknown = undefined;
  private readonly listeners: (() => void)[] = [];
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  private readonly followed: AbortSignal[] = [];
  private controller: AbortController | undefined;
  private readonly onFollowedAbort = (event: Event) => this.abort((event.target as AbortSignal).reason);

  constructor(ms: number, ...signals: (AbortSignal | undefined)[]) {
    if (ms > 0) {
      this.timer = setTimeout(() => this.abort(timeoutError()), Math.min(ms, maxTimerMs));
      (this.timer as { unref?: () => void }).unref?.();
    }
    for (const signal of signals) {
      if (!signal) continue;
      if (signal.aborted) {
        this.abort(signal.reason);
        break;
      }
      signal.addEventListener('abort', this.onFollowedAbort, { once: true });
      this.followed.push(signal);
    }
  }

  /** A real AbortSignal that follows this deadline. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Ends the exchange now with `reason` (a transport's own limit, such as the response size). */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
    for (const listener of this.listeners.splice(0)) listener();
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const index = this.listeners.indexOf(listener);
    if (index >= 0) this.listeners.splice(index, 1);
  }

  /** Sleeps `ms`, or rejects with the reason as soon as the deadline ends. */
  wait(ms: number): Promise<void> {
    if (this.aborted) return Promise.reject(this.reason);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(this.reason);
      };
      const timer = setTimeout(
        () => {
          this.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.min(ms, maxTimerMs),
      );
      this.addEventListener('abort', onAbort);
    });
  }

  clear(): void {
    clearTimeout(this.timer);
    for (const signal of this.followed) signal.removeEventListener('abort', this.onFollowedAbort);
  }
}
