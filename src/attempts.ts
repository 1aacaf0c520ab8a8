// The attempts of one checked call: for each, a permit of the rate window, a deadline, a
// connection leased from the transport, the request signed on it (signing.ts), sent, and the
// answer read (errors.ts); then, where the documents allow it, a retry. Hooks see each step.
//
// Retries are opt-in, only for operations the documents mark x-retry-safe (or, for those whose
// repeat the service refuses by a key, only when the body carries that key), only on failures
// that a later attempt can cure, with exponential backoff and jitter (by default the operator's
// advice, x-backoff in the documents), never sooner than the server's Retry-After. Each attempt
// is signed again with a fresh nonce.
import {
  ApiError,
  type ApiErrorKind,
  type CallResult,
  describeFailure,
  errorWithoutAnswer,
  readAnswer,
} from './errors.ts';
import { emit, type Hooks, type Trace } from './hooks.ts';
import type { RequestSigner } from './signing.ts';
import type { Lease, Outgoing, Target, Transport } from './transport/types.ts';
import { Deadline, type Permits, type RetryPolicy, retryDelayMs } from './waits.ts';

type AnyResult = CallResult<unknown, unknown>;

/**
 * One engine's life: closed once its client is. Every wait of its calls is a deadline made for
 * it, so that closing ends them all at once.
 */
export interface Lifetime {
  closed: boolean;
}

/** What the attempts read of their engine's settings. */
export interface AttemptSettings {
  readonly retry: RetryPolicy | undefined;
  readonly hooks?: Hooks | undefined;
  /** Private clients: signs each attempt. */
  readonly signer?: RequestSigner | undefined;
  readonly userAgent?: string | undefined;
}

/** A call whose input passed the checks: what each attempt sends, and what may repeat it. */
export interface CheckedCall {
  readonly operationId: string;
  /** The route's path as the documents write it: what is signed. */
  readonly path: string;
  readonly target: Target;
  /** The body, copied into plain data and checked; undefined for none. */
  readonly fields: Readonly<Record<string, unknown>> | undefined;
  /**
   * A token call's token and the header it goes in: the body is sent unsigned, as JSON. A secret:
   * never in an event or an error (an answer that echoes it is scrubbed).
   */
  readonly token?: { readonly header: string; readonly value: string };
  /**
   * What an answer is scrubbed of beyond the API secret, each with what replaces it: the token,
   * and the values of the body's sensitive fields (x-sensitive), masked.
   */
  readonly hidden?: readonly (readonly [string, string])[] | undefined;
  /** What the documents say of repeating it (x-retry-safe). */
  readonly retrySafe: boolean | { readonly idempotencyKey: string };
  /** The route's rate window; null when the client does not limit its rate. */
  readonly window: Permits | null;
  readonly signal: AbortSignal | undefined;
  readonly attemptMs: number;
}

const retryableKinds = new Set<ApiErrorKind>(['rate-limited', 'server-error', 'transport', 'timeout']);

/**
 * Whether this call may be sent again: the documents say the operation may always be repeated,
 * or may be repeated when its body carries a non-empty key whose repeat the service refuses (a
 * quote's id: a quote confirmed once is refused, not converted again). Otherwise never: an order,
 * an investment, anything that moves money is sent once.
 */
function mayRepeat(call: CheckedCall): boolean {
  const safe = call.retrySafe;
  if (typeof safe === 'boolean') return safe;
  const key = call.fields?.[safe.idempotencyKey];
  return (typeof key === 'string' && key !== '') || (typeof key === 'number' && Number.isFinite(key));
}

/** A failed attempt's outcome as the call's result: its error says how many attempts were made. */
function counted(outcome: AnyResult, error: ApiError, attempt: number): AnyResult {
  if (attempt === 1) return outcome;
  const counted = error.withAttempts(attempt);
  return outcome.response ? { error: counted, response: outcome.response } : { error: counted };
}

/** The attempts of one engine's calls, over its transport and signer. */
export function createAttempts(
  settings: AttemptSettings,
  transport: Transport,
  lifetime: Lifetime,
): (call: CheckedCall, trace: Trace | undefined) => Promise<AnyResult> {
  const { retry, hooks, signer } = settings;
  // Header names as Headers would hold them: lowercase.
  const baseHeaders: Record<string, string> = {};
  if (signer) baseHeaders['content-type'] = 'application/json';
  if (settings.userAgent) baseHeaders['user-agent'] = settings.userAgent;
  const unsigned: Outgoing = { headers: baseHeaders, body: undefined };
  const scrub = signer?.scrub;

  /** A token call's request: its body as JSON, unsigned, its token in its header. */
  function withToken(call: CheckedCall, token: NonNullable<CheckedCall['token']>): Outgoing {
    const headers: Record<string, string> = {};
    for (const name in baseHeaders) headers[name] = baseHeaders[name] as string;
    headers['content-type'] = 'application/json';
    headers[token.header] = token.value;
    return { headers, body: JSON.stringify(call.fields ?? {}) };
  }

  /**
   * What an answer to a call is scrubbed of: the API secret, a token, sensitive fields' values. A
   * JSON answer is scrubbed inside its strings (keys too), never across its syntax: a card number
   * is whatever the caller typed, `"` or `1` included, and a plain replace would break the JSON or
   * its numbers. Any other answer (shown as text in an error) is scrubbed as text.
   */
  function scrubFor(call: CheckedCall): ((text: string) => string) | undefined {
    const { hidden } = call;
    if (!hidden) return scrub;
    const hide = (text: string) => {
      let clean = text;
      for (const [value, shown] of hidden) if (clean.includes(value)) clean = clean.replaceAll(value, shown);
      return clean;
    };
    return (text) => {
      const clean = scrub ? scrub(text) : text;
      let parsed: unknown;
      try {
        parsed = JSON.parse(clean);
      } catch {
        return hide(clean);
      }
      return JSON.stringify(parsed, (_key, value: unknown) => {
        if (typeof value === 'string') return hide(value);
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
        return Object.fromEntries(Object.entries(value).map(([name, inner]) => [hide(name), inner]));
      });
    };
  }

  /** The caller aborted or the client closed while the call waited: which one, as the error's kind. */
  function stopped(operationId: string): AnyResult {
    const kind = lifetime.closed ? 'closed' : 'aborted';
    return { error: new ApiError(describeFailure(kind, operationId), { kind, operationId }) };
  }

  return async function attempts(call, trace) {
    const { operationId, target, fields, window, signal } = call;
    const policy = retry && mayRepeat(call) ? retry : undefined;
    const callId = trace?.callId ?? 0;
    for (let attempt = 1; ; attempt++) {
      if (trace) trace.attempts = attempt;
      // A free permit (or no limiter) is taken without a promise.
      if (window && !window.tryTake()) {
        const waitStarted = performance.now();
        const waiting = new Deadline(0, signal, lifetime);
        try {
          await window.take(waiting);
        } catch {
          return stopped(operationId);
        } finally {
          waiting.clear();
        }
        if (hooks)
          emit(hooks.rateLimitWait, {
            callId,
            operationId,
            attempt,
            waitedMs: performance.now() - waitStarted,
          });
      }
      // The attempt, awaited here rather than in a function of its own: one promise less a call.
      const deadline = new Deadline(call.attemptMs, signal, lifetime);
      const attemptStarted = hooks ? performance.now() : 0;
      let outcome: AnyResult;
      let lease: Lease | undefined;
      try {
        const leasing = transport.lease(target, deadline);
        lease = leasing instanceof Promise ? await leasing : leasing;
        const leased = hooks ? performance.now() : 0;
        const signing = call.token
          ? withToken(call, call.token)
          : signer
            ? signer.sign(call.path, fields, baseHeaders, deadline)
            : unsigned;
        const outgoing = signing instanceof Promise ? await signing : signing;
        if (deadline.ended) throw deadline.reason;
        if (hooks) {
          emit(hooks.request, {
            callId,
            operationId,
            attempt,
            connectionWaitMs: leased - attemptStarted,
            nonceHeldMs: (outgoing as { heldMs?: number }).heldMs ?? 0,
          });
        }
        const sending = lease;
        lease = undefined;
        const answer = await sending.send(outgoing);
        if (hooks) {
          emit(hooks.answer, {
            callId,
            operationId,
            attempt,
            status: answer.response.status,
            latencyMs: performance.now() - attemptStarted,
          });
        }
        outcome = readAnswer(operationId, answer, scrubFor(call));
      } catch (cause) {
        // A lease not sent on (the deadline ended while it was signed) goes back unused.
        lease?.release();
        outcome = {
          error: errorWithoutAnswer(operationId, deadline.ended ? deadline.reason : cause, signal),
        };
      } finally {
        deadline.clear();
        window?.give();
      }
      const error = outcome.error;
      if (!error) return outcome;
      if (
        !policy ||
        attempt >= policy.attempts ||
        !retryableKinds.has(error.kind) ||
        lifetime.closed ||
        signal?.aborted
      )
        return counted(outcome, error, attempt);
      const delay = retryDelayMs(policy, attempt, error.retryAfterMs);
      // The server asks for a longer wait than the policy allows: its answer is the result.
      if (delay === undefined) return counted(outcome, error, attempt);
      if (hooks) {
        emit(hooks.retry, {
          callId,
          operationId,
          attempt,
          errorKind: error.kind,
          status: error.status,
          delayMs: delay,
        });
      }
      const waiting = new Deadline(0, signal, lifetime);
      try {
        await waiting.wait(delay);
      } catch {
        return counted(outcome, error, attempt);
      } finally {
        waiting.clear();
      }
    }
  };
}
