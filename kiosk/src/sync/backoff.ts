/** When to try a failed action again. Injectable, so tests need not wait real seconds. */
export interface RetryPolicy {
  /** The longest wait between attempts: a `nextAttemptAt` further away than this means the clock moved back. */
  readonly capMs: number;
  /** The wait after the `failures`-th failure in a row; never shorter than `retryAfterMs` (up to the cap). */
  delayMs: (failures: number, retryAfterMs: number | undefined) => number;
}

/**
 * Exponential backoff with full jitter (a random wait between 0 and min(cap, base·2^n)): many kiosks that
 * lost the same server at the same moment do not come back in step and knock it over again.
 */
export function fullJitterBackoff(
  options: { baseMs?: number; capMs?: number; random?: () => number } = {},
): RetryPolicy {
  const baseMs = options.baseMs ?? 1_000;
  const capMs = options.capMs ?? 60_000;
  const random = options.random ?? Math.random;
  return {
    capMs,
    delayMs(failures, retryAfterMs) {
      const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(Math.max(failures - 1, 0), 30));
      const jittered = random() * ceiling;
      return retryAfterMs === undefined ? jittered : Math.max(jittered, Math.min(retryAfterMs, capMs));
    },
  };
}

/** Due now, or due "later" by more than the cap can explain (the device clock was set back). */
export function isDue(nextAttemptAt: number, now: number, policy: RetryPolicy): boolean {
  return nextAttemptAt <= now || nextAttemptAt - now > policy.capMs;
}
