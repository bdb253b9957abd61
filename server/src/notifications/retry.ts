/** Waits after each failed attempt (docs/notifications.md, Delivery); the last one repeats until the day is out. */
export const NOTIFICATION_RETRY_MS = [
  10_000,
  60_000,
  5 * 60_000,
  15 * 60_000,
  30 * 60_000,
  60 * 60_000,
  2 * 3_600_000,
  3 * 3_600_000,
];

/** The wait after the `tried`-th failed attempt (1 = the first), ±10 % so the retries of one outage spread. */
export function retryDelayMs(tried: number, schedule: readonly number[], random: () => number): number {
  const base = schedule[Math.min(tried, schedule.length) - 1] ?? schedule[schedule.length - 1] ?? 60_000;
  return Math.round(base * (0.9 + 0.2 * random()));
}
