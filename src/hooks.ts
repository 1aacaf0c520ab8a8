// Hooks: functions the caller gives that see each step of a call. They observe and cannot change
// anything; their events hold names, numbers and kinds only (never a header, a body, a key or a
// secret), so they may be logged or exported as they are. The engine (engine.ts) follows a call
// from its start to its end here; the attempts (attempts.ts) report each step between.
import type { ApiErrorKind, CallResult } from './errors.ts';

export interface EventBase {
  /** The same number for every event of one call (unique in the process). */
  readonly callId: number;
  readonly operationId: string;
}

/** A call begins (its path is an operation of the documents). */
export interface StartEvent extends EventBase {
  readonly method: 'GET' | 'POST';
  readonly path: string;
}

/** An attempt goes out: it holds a connection and is signed. */
export interface RequestEvent extends EventBase {
  /** 1 for the first. */
  readonly attempt: number;
  /** How long the attempt waited for a free connection (ms). */
  readonly connectionWaitMs: number;
  /** How long the nonce window held it back so that its nonce stays within the window (ms). */
  readonly nonceHeldMs: number;
}

/** An attempt's answer arrived, whatever its status. */
export interface AnswerEvent extends EventBase {
  readonly attempt: number;
  readonly status: number;
  /** From the attempt's start to the answer's last byte (ms). */
  readonly latencyMs: number;
}

/** An attempt failed and the call will be sent again after `delayMs`. */
export interface RetryEvent extends EventBase {
  /** The attempt that failed. */
  readonly attempt: number;
  readonly errorKind: ApiErrorKind;
  readonly status: number | undefined;
  readonly delayMs: number;
}

/** The rate limiter held the call back before an attempt. */
export interface RateLimitWaitEvent extends EventBase {
  readonly attempt: number;
  readonly waitedMs: number;
}

/** The call ends with an error (its result's `error`). */
export interface ErrorEvent extends EventBase {
  readonly attempts: number;
  readonly errorKind: ApiErrorKind;
  readonly status: number | undefined;
}

/** The call is over, with data or an error. */
export interface EndEvent extends EventBase {
  readonly ok: boolean;
  readonly attempts: number;
  readonly status: number | undefined;
  readonly errorKind: ApiErrorKind | undefined;
  /** From the call's start to its result (ms). */
  readonly durationMs: number;
}

export interface Hooks {
  start?: readonly ((event: StartEvent) => void)[];
  request?: readonly ((event: RequestEvent) => void)[];
  answer?: readonly ((event: AnswerEvent) => void)[];
  retry?: readonly ((event: RetryEvent) => void)[];
  rateLimitWait?: readonly ((event: RateLimitWaitEvent) => void)[];
  error?: readonly ((event: ErrorEvent) => void)[];
  end?: readonly ((event: EndEvent) => void)[];
}

/**
 * Calls each hook with the event, frozen. A hook that throws does not change the call (an order
 * placed is still reported placed): its error is thrown again on its own, as an uncaught
 * exception, as Node's diagnostics channels do with a subscriber's.
 */
export function emit<Event extends EventBase>(
  hooks: readonly ((event: Event) => void)[] | undefined,
  event: Event,
) {
  if (!hooks) return;
  Object.freeze(event);
  for (const hook of hooks) {
    try {
      hook(event);
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}
let lastCallId = 0;

/** One call followed by hooks. */
export interface Trace {
  readonly callId: number;
  /** Attempts begun so far. */
  attempts: number;
}

/** What the start event tells of a call's operation. */
export interface TracedRoute {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
}

/**
 * A call followed by hooks: its id and its start, then `call` (which reports its attempts on the
 * trace), then its error if it failed, and its end.
 */
export async function traced(
  hooks: Hooks,
  route: TracedRoute,
  call: (trace: Trace) => Promise<CallResult<unknown, unknown>>,
): Promise<CallResult<unknown, unknown>> {
  const trace: Trace = { callId: ++lastCallId, attempts: 0 };
  const { callId } = trace;
  const { operationId } = route;
  const started = performance.now();
  emit(hooks.start, {
    callId,
    operationId,
    method: route.method === 'get' ? 'GET' : 'POST',
    path: route.path,
  });
  const result = await call(trace);
  const { error } = result;
  const status = error ? error.status : result.response.status;
  if (error)
    emit(hooks.error, { callId, operationId, attempts: error.attempts, errorKind: error.kind, status });
  emit(hooks.end, {
    callId,
    operationId,
    ok: !error,
    attempts: Math.max(1, trace.attempts),
    status,
    errorKind: error?.kind,
    durationMs: performance.now() - started,
  });
  return result;
}
