// How long the client waits before it tries to connect again: an exponential step from
// `baseDelayMs`, capped at `maxDelayMs`, of which a random part is waited ("equal jitter"), so that
// clients dropped together by one server do not all come back at once, and never longer than the
// cap. The delays follow the HTTP client's retries (src/waits.ts) in spirit; the cap is a hard one.

export interface ReconnectPolicy {
  /** Tries in a row before the client gives up (Infinity: never). */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const defaultReconnectPolicy: ReconnectPolicy = {
  attempts: Number.POSITIVE_INFINITY,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
};

/** The delay before try `attempt` (1 for the first after a drop): within [step / 2, step]. */
export function reconnectDelayMs(
  policy: ReconnectPolicy,
  attempt: number,
  random: () => number = Math.random,
): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(attempt - 1, 52));
  return Math.round(step / 2 + (random() * step) / 2);
}
