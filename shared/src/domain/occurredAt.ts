/** How far ahead of the server clock an `occurredAt` may be (docs/api.md, Offline timing): kiosk clocks drift a little. */
export const MAX_FUTURE_MS = 5 * 60_000;
/** How far back an `occurredAt` may be (docs/api.md, Offline timing): the longest offline period a kiosk may replay. */
export const MAX_PAST_MS = 7 * 24 * 3_600_000;

/** The recorded time of an event, or why the claimed time is refused. */
export type TimeResolution = { ok: true; at: Date } | { ok: false; code: 'OCCURRED_AT_OUT_OF_RANGE'; message: string };

const outOfRange = (message: string): TimeResolution => ({ ok: false, code: 'OCCURRED_AT_OUT_OF_RANGE', message });

/** When did it happen: occurredAt if given (range checked against now), else now; clamped up to notBefore (the previous event of the same check-in) if earlier. */
export function resolveOccurredAt(occurredAt: Date | undefined, now: Date, notBefore?: Date): TimeResolution {
  const nowMs = now.getTime();
  let atMs = nowMs;
  if (occurredAt !== undefined) {
    atMs = occurredAt.getTime();
    if (Number.isNaN(atMs)) return outOfRange('The time the event occurred is not a valid date.');
    if (atMs - nowMs > MAX_FUTURE_MS) {
      return outOfRange('The time the event occurred is more than 5 minutes in the future.');
    }
    if (nowMs - atMs > MAX_PAST_MS) {
      return outOfRange('The time the event occurred is more than 7 days in the past.');
    }
  }
  // A drifting kiosk clock must not reorder a check-in's history, nor block the queue with a rejection.
  if (notBefore !== undefined && atMs < notBefore.getTime()) atMs = notBefore.getTime();
  return { ok: true, at: new Date(atMs) };
}
