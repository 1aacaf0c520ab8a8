// Sliding-window rate limits: at most `requests` accepted calls in any `windowSeconds`, per
// caller and operation. A refused call does not count.

export interface Limit {
  requests: number;
  windowSeconds: number;
}

export class SlidingWindowLimiter {
  readonly #accepted = new Map<string, number[]>();

  /**
   * Records a call at `now` (ms) if the window has room; otherwise answers how many whole
   * seconds until the oldest call in the window leaves it.
   */
  take(bucket: string, limit: Limit, now: number): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const windowMs = limit.windowSeconds * 1000;
    let times = this.#accepted.get(bucket);
    if (!times) {
      times = [];
      this.#accepted.set(bucket, times);
    }
    let expired = 0;
    while (expired < times.length && (times[expired] as number) <= now - windowMs) expired++;
    if (expired > 0) times.splice(0, expired);
    if (times.length >= limit.requests) {
      const oldest = times[0] as number;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
    }
    times.push(now);
    return { ok: true };
  }
}
