// Opt-in retries: only for operations the documents mark x-retry-safe, only on failures that a
// later attempt can cure, with exponential backoff and jitter (by default the operator's advice,
// x-backoff in the documents) and never sooner than the server's Retry-After. Each attempt is
// signed again with a fresh nonce by the caller of these helpers.
import { backoff } from '../generated/operations.ts';
import type { ApiError } from './errors.ts';

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
  return option === true ? defaultRetryPolicy : { ...defaultRetryPolicy, ...option };
}

const retryableKinds = new Set(['rate-limited', 'server-error', 'transport', 'timeout']);

export function isRetryable(error: ApiError): boolean {
  return retryableKinds.has(error.kind);
}

/** Delay before attempt `attempt + 1`: half the capped exponential step plus a random half. */
export function retryDelayMs(
  policy: RetryPolicy,
  attempt: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jittered = step / 2 + random() * (step / 2);
  return Math.max(jittered, retryAfterMs ?? 0);
}
