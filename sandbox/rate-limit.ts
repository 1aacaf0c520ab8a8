// Sliding-window rate limits: at most `requests` accepted calls in any `windowSeconds`, per
// caller and operation. A refused call does not count.

export interface Limit {
  requests: number;
  windowSeconds: number;
}

export class SlidingWindowLimiter {
  readonly #accepted = new Map<string, number[]>();

  /**
   * Whether the window has room for one more call at `now` (ms), without counting it; if not,
   * how many whole seconds until the oldest call in the window leaves it.
   */
  check(bucket: string, limit: Limit, now: number): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const windowMs = limit.windowSeconds * 1000;
    const times = this.#accepted.get(bucket);
    if (!times) return { ok: true };
    let expired = 0;
    while (expired < times.length && (times[expired] as number) <= now - windowMs) expired++;
    if (expired > 0) times.splice(0, expired);
    if (times.length >= limit.requests) {
      const oldest = times[0] as number;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
    }
    return { ok: true };
  }

  /** Counts a call accepted at `now` (ms). */
  record(bucket: string, now: number): void {
    let times = this.#accepted.get(bucket);
    if (!times) {
      times = [];
      this.#accepted.set(bucket, times);
    }
    times.push(now);
  }

  /** `check`, and when there is room, `record`. */
  take(bucket: string, limit: Limit, now: number): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const verdict = this.check(bucket, limit, now);
    if (verdict.ok) this.record(bucket, now);
    return verdict;
  }
}
