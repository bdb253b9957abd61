const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The Standard Webhooks schedule (docs/webhooks.md): the waits after the 1st, 2nd, … failed attempt; then failed. */
export const STANDARD_RETRY_SCHEDULE_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
];

/** A Retry-After longer than this is read as this: a receiver cannot park a delivery for ever. */
const MAX_RETRY_AFTER_MS = 24 * HOUR;

export interface RetryPolicy {
  /** Waits after each failed attempt; its length is the number of retries. */
  scheduleMs: readonly number[];
  /** A number in [0, 1) (Math.random); spreads retries of one outage so they do not arrive together. */
  random: () => number;
}

export const standardRetryPolicy: RetryPolicy = { scheduleMs: STANDARD_RETRY_SCHEDULE_MS, random: Math.random };

/** ±10% around the scheduled wait. */
export function withJitter(waitMs: number, random: () => number): number {
  return Math.round(waitMs * (0.9 + 0.2 * random()));
}

/** `Retry-After` in milliseconds from now: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now: Date): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * SECOND, MAX_RETRY_AFTER_MS);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - now.getTime()), MAX_RETRY_AFTER_MS);
}

/** What one attempt came to, as far as the schedule cares. */
export interface AttemptOutcome {
  statusCode: number | null;
  retryAfterMs?: number;
}

/** Counted per attempt (`gatehouse_webhook_deliveries_total{result}`: docs/operations.md, Observability). */
export type DeliveryResult = 'delivered' | 'retried' | 'failed' | 'disabled';

export type Decision =
  | { status: 'delivered'; result: 'delivered' }
  | { status: 'pending'; result: 'retried'; nextAttemptAt: Date; retryStep: number }
  | { status: 'failed'; result: 'failed' | 'disabled'; disableSubscription: boolean };

/**
 * The next state of a delivery after an attempt: 2xx delivered; 410 failed and its subscription disabled;
 * otherwise the next wait of the schedule (no sooner than a 429/503's Retry-After), or failed when the
 * schedule is spent or the attempt was a one-off retry asked for by hand.
 */
export function decideAfterAttempt(input: {
  outcome: AttemptOutcome;
  retryStep: number;
  finalAttempt: boolean;
  now: Date;
  policy: RetryPolicy;
}): Decision {
  const { outcome, retryStep, policy } = input;
  const code = outcome.statusCode;
  if (code !== null && code >= 200 && code < 300) return { status: 'delivered', result: 'delivered' };
  if (code === 410) return { status: 'failed', result: 'disabled', disableSubscription: true };
  const scheduled = policy.scheduleMs[retryStep];
  if (input.finalAttempt || scheduled === undefined)
    return { status: 'failed', result: 'failed', disableSubscription: false };
  let waitMs = withJitter(scheduled, policy.random);
  if ((code === 429 || code === 503) && outcome.retryAfterMs !== undefined)
    waitMs = Math.max(waitMs, outcome.retryAfterMs);
  return {
    status: 'pending',
    result: 'retried',
    nextAttemptAt: new Date(input.now.getTime() + waitMs),
    retryStep: retryStep + 1,
  };
}
