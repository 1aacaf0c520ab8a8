// Every wait of a call, written once: the time limits a timer can take, the retry delays, the one
// abortable wait, the deadline that bounds an attempt, the permits that calls queue for
// (connection slots and rate windows alike), and the state the process keeps per API key (its
// nonce sequence and its rate windows). Nothing here knows about HTTP, signing or the documents.

/** The longest delay a timer takes: a longer one fires at once. */
export const maxTimerMs = 2 ** 31 - 1;

/** What is wrong with a number of milliseconds a timer is to wait, or undefined. */
export function timerMsProblem(ms: unknown): string | undefined {
  if (typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 && ms <= maxTimerMs) return undefined;
  return `must be a number of milliseconds from 0 to ${maxTimerMs}`;
}

/**
 * The one abortable wait: resolves after `ms`, or rejects with the signal's reason as soon as it
 * aborts. Its timer keeps the process alive: a script waiting to retry must not exit undone.
 */
export function wait(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.min(ms, maxTimerMs),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** How a call is retried: how many attempts in all, and the delays between them. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** The first field of a retry policy that is not usable, with what it must be. */
export function retryPolicyProblem(option: unknown): { field: string; message: string } | undefined {
  if (option === undefined || typeof option === 'boolean') return undefined;
  if (typeof option !== 'object' || option === null) {
    return { field: 'retry', message: 'must be a boolean or a policy object' };
  }
  const { attempts, baseDelayMs, maxDelayMs } = option as Partial<Record<keyof RetryPolicy, unknown>>;
  if (attempts !== undefined && !(Number.isInteger(attempts) && (attempts as number) >= 1)) {
    return { field: 'retry.attempts', message: 'must be an integer, 1 or more' };
  }
  for (const [field, value] of Object.entries({ baseDelayMs, maxDelayMs })) {
    const problem = value === undefined ? undefined : timerMsProblem(value);
    if (problem) return { field: `retry.${field}`, message: problem };
  }
  return undefined;
}

/**
 * Delay before attempt `attempt + 1`: the exponential step (capped), plus up to half of it again
 * at random so that clients refused together do not retry together, and never sooner than the
 * server's Retry-After. Undefined when the server asks for a longer wait than the policy's
 * `maxDelayMs`: the call then ends with the server's answer rather than wait that long.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  attempt: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxDelayMs) return undefined;
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.min(maxTimerMs, Math.max(step * (1 + random() / 2), retryAfterMs ?? 0));
}

function timeoutError(): DOMException {
  return new DOMException('The operation was aborted due to timeout', 'TimeoutError');
}

/**
 * Deadlines of a second or more share one timer that ticks every `tickMs` while any is pending,
 * and end up to one tick late: a timer of their own per attempt measured about 3 µs a call at
 * concurrency 64. Shorter ones keep a timer of their own, to the millisecond.
 */
const sharedFromMs = 1000;
const tickMs = 100;

/**
 * Every deadline not yet cleared, in one list linked through the deadlines themselves (a Set
 * measured about 0.17 µs to add and delete an object, this 0.01 µs): the shared tick walks it for
 * those whose time is up, and closing a client for those of that client.
 */
let live: Deadline | undefined;
let sharedCount = 0;
let ticker: ReturnType<typeof setInterval> | undefined;

function tick(): void {
  const now = performance.now();
  const due: Deadline[] = [];
  for (let deadline = live; deadline; deadline = deadline.next)
    if (deadline.endsAt <= now) due.push(deadline);
  for (const deadline of due) deadline.end(timeoutError());
  if (sharedCount === 0) {
    clearInterval(ticker);
    ticker = undefined;
  }
}

/** Ends, with `reason`, every live deadline made for `owner` (a client being closed). */
export function endDeadlinesOf(owner: object, reason: unknown): void {
  const ending: Deadline[] = [];
  for (let deadline = live; deadline; deadline = deadline.next)
    if (deadline.owner === owner) ending.push(deadline);
  for (const deadline of ending) deadline.end(reason);
}

/**
 * The bound of one wait or one attempt: it ends after `ms` (0: never on its own) with a
 * TimeoutError DOMException, as AbortSignal.timeout does, when the caller's `signal` aborts (with
 * its reason), or when `end` is called (the client closes, a transport's own limit). A plain
 * object with its own listeners rather than an AbortController: a controller and a listener on
 * its signal measured about 6 µs a call. A transport that needs a real AbortSignal (fetch) asks
 * for `signal`, made on demand. `clear()` it once the attempt is over.
 */
export class Deadline {
  ended = false;
  reason: unknown = undefined;
  /** When a deadline on the shared tick ends (performance.now() time); Infinity otherwise. */
  readonly endsAt: number = Number.POSITIVE_INFINITY;
  /** Whose deadline it is, so that closing a client ends only its own. */
  readonly owner: object | undefined;
  previous: Deadline | undefined = undefined;
  next: Deadline | undefined = undefined;
  private listed = true;
  /** Most deadlines have one listener at most: kept without an array. */
  private listener: (() => void) | undefined = undefined;
  private more: (() => void)[] | undefined = undefined;
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  private readonly followed: AbortSignal | undefined;
  private readonly onFollowedAbort: (() => void) | undefined;
  private controller: AbortController | undefined;

  constructor(ms: number, signal?: AbortSignal, owner?: object) {
    this.owner = owner;
    this.next = live;
    if (live) live.previous = this;
    live = this;
    if (ms >= sharedFromMs) {
      this.endsAt = performance.now() + ms;
      sharedCount++;
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

  /** Ends now with `reason`, calling every listener once; ending again does nothing. */
  end(reason: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.reason = reason;
    this.unlist();
    this.controller?.abort(reason);
    const { listener, more } = this;
    this.listener = undefined;
    this.more = undefined;
    listener?.();
    if (more) for (const each of more) each();
  }

  /** Calls `listener` once, when the deadline ends (never, once it is cleared). */
  onEnd(listener: () => void): void {
    if (!this.listener) this.listener = listener;
    else if (this.more) this.more.push(listener);
    else this.more = [listener];
  }

  offEnd(listener: () => void): void {
    if (this.listener === listener) this.listener = this.more?.shift();
    else if (this.more) {
      const index = this.more.indexOf(listener);
      if (index >= 0) this.more.splice(index, 1);
    }
  }

  /** Resolves after `ms`, or rejects with the reason as soon as the deadline ends. */
  wait(ms: number): Promise<void> {
    // A wait is rare (a retry's delay, a window-mode hold): its AbortSignal costs nothing a call.
    return wait(ms, this.signal);
  }

  /** The attempt is over: no timer, no listener on the caller's signal, off the live list. */
  clear(): void {
    clearTimeout(this.timer);
    this.unlist();
    if (this.onFollowedAbort) this.followed?.removeEventListener('abort', this.onFollowedAbort);
  }

  private unlist(): void {
    if (!this.listed) return;
    this.listed = false;
    if (this.endsAt !== Number.POSITIVE_INFINITY) sharedCount--;
    if (this.previous) this.previous.next = this.next;
    else live = this.next;
    if (this.next) this.next.previous = this.previous;
  }
}

/**
 * N permits, and the calls waiting for one, in order: the one waiter queue, for connection
 * slots (a permit is back as soon as it is given back) and for rate windows (`windowMs`: a permit
 * is back one window after it was given back).
 *
 * In a rate window, a call holds a permit from before it is sent until its answer has arrived,
 * and the permit comes back one window later. The server counts a request at its arrival, which
 * lies between the two, so no window of the server's sees more than N requests, whatever the
 * network delays. Permits on their way back are the times they were given back, in order, counted
 * lazily when a permit is asked for, so a call costs no timer. A timer runs only while calls
 * wait, for the earliest permit to come back, and keeps the process alive meanwhile: a script
 * whose calls are queued must not exit with its work undone.
 */
export class Permits {
  private inUse = 0;
  /** Times (ms) permits were given back that are not back yet; live from `head` on. */
  private returning: number[] = [];
  private head = 0;
  private readonly waiting: (() => void)[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly count: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(count: number, windowMs = 0, now: () => number = () => performance.now()) {
    this.count = count;
    this.windowMs = windowMs;
    this.now = now;
  }

  /** Permits free now: the count less those in use and those not back yet. */
  private available(): number {
    if (this.windowMs === 0) return this.count - this.inUse;
    const cutoff = this.now() - this.windowMs;
    const times = this.returning;
    while (this.head < times.length && (times[this.head] as number) <= cutoff) this.head++;
    if (this.head > 1024 && this.head * 2 > times.length) {
      this.returning = times.slice(this.head);
      this.head = 0;
    }
    return this.count - this.inUse - (this.returning.length - this.head);
  }

  /** Takes a permit if one is free now and nobody waits; false otherwise. */
  tryTake(): boolean {
    if (this.waiting.length > 0 || this.available() <= 0) return false;
    this.inUse++;
    return true;
  }

  /** Resolves once a permit is taken, in call order; rejects with the deadline's reason if it ends first. */
  take(deadline?: Deadline): Promise<void> {
    if (this.tryTake()) return Promise.resolve();
    if (deadline?.ended) return Promise.reject(deadline.reason);
    return new Promise((resolve, reject) => {
      const grant = () => {
        deadline?.offEnd(onEnd);
        this.inUse++;
        resolve();
      };
      const onEnd = () => {
        const index = this.waiting.indexOf(grant);
        if (index >= 0) this.waiting.splice(index, 1);
        if (this.waiting.length === 0) this.stopTimer();
        reject(deadline?.reason);
      };
      this.waiting.push(grant);
      deadline?.onEnd(onEnd);
      this.schedule();
    });
  }

  /** Gives a taken permit back. */
  give(): void {
    this.inUse--;
    if (this.windowMs > 0) this.returning.push(this.now());
    if (this.waiting.length > 0) this.schedule();
  }

  /** Grants waiting calls the permits that are free, and waits for the next one if calls remain. */
  private schedule(): void {
    this.stopTimer();
    let free = this.available();
    while (free > 0 && this.waiting.length > 0) {
      (this.waiting.shift() as () => void)();
      free--;
    }
    if (this.waiting.length === 0) return;
    // The next permit back: the oldest one given back, one window on. None returning means every
    // permit is in use: giving one back will schedule again.
    const oldest = this.returning[this.head];
    if (oldest === undefined) return;
    this.timer = setTimeout(() => this.schedule(), Math.max(0, oldest + this.windowMs - this.now()) + 1);
  }

  private stopTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/**
 * What the process keeps per API key (or per public origin): the last nonce it signed and its
 * rate windows by operation. Shared by every client (and every copy of this module, through a
 * global symbol), since the server counts nonces and rates per key.
 */
export interface KeyState {
  lastNonce: number;
  readonly windows: Map<string, Permits>;
}

const registryKey = Symbol.for('txc-api-v4.key-state');

export function keyState(key: string): KeyState {
  const scope = globalThis as typeof globalThis & { [registryKey]?: Map<string, KeyState> };
  const registry = scope[registryKey] ?? new Map<string, KeyState>();
  scope[registryKey] = registry;
  let state = registry.get(key);
  if (!state) {
    state = { lastNonce: 0, windows: new Map() };
    registry.set(key, state);
  }
  return state;
}
