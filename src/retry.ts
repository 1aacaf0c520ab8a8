// Opt-in retries: only for operations the documents mark x-retry-safe, only on failures that a
// later attempt can cure, with exponential backoff and jitter (by default the operator's advice,
// x-backoff in the documents) and never sooner than the server's Retry-After. Each attempt is
// signed again with a fresh nonce by the caller of these helpers.
import { backoff } from '../generated/operations.ts';
import type { ApiError } from './errors.ts';
import { maxTimerMs } from './transport/deadline.ts';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  attempts: 4,
  baseDelayMs: backoff.initialSeconds * 1000,
  maxDelayMs: backoff.maxSeconds * 1000,
};

export function resolveRetryPolicy(
  option: boolean | Partial<RetryPolicy> | undefined,
): RetryPolicy | undefined {
  if (!option) return undefined;
  if (option === true) return defaultRetryPolicy;
  const given = Object.entries(option).filter(([, value]) => value !== undefined);
  return { ...defaultRetryPolicy, ...Object.fromEntries(given) };
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
    // A timer cannot wait longer than maxTimerMs: a longer delay would fire at once.
    if (value !== undefined && !(typeof value === 'number' && value >= 0 && value <= maxTimerMs)) {
      return {
        field: `retry.${field}`,
        message: `must be a number of milliseconds from 0 to ${maxTimerMs}`,
      };
    }
  }
  return undefined;
}

const retryableKinds = new Set(['rate-limited', 'server-error', 'transport', 'timeout']);

export function isRetryable(error: ApiError): boolean {
  return retryableKinds.has(error.kind);
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
  return Math.max(step * (1 + random() / 2), retryAfterMs ?? 0);
}
