/**
 * Wrong PINs in a row, how many pauses so far, and until when the prompt is paused: kept above the prompt
 * (by the app), so leaving it, unpairing or re-pairing resets none of it.
 */
export interface PinTries {
  wrong: number;
  pauses: number;
  pausedUntil: number;
}

export const NO_TRIES: PinTries = { wrong: 0, pauses: 0, pausedUntil: 0 };

// One rule for every prompt of the Settings PIN (Settings itself, and Discard): the same count and pauses.

/** Wrong PINs in a row before a pause; the pause is a minute, doubling each time, up to an hour. */
const TRIES = 5;
const PAUSE_MS = 60_000;
const LONGEST_PAUSE_MS = 60 * 60_000;

/** The tries after one entry: all forgiven when right, a pause after too many wrong. */
export function afterEntry(tries: PinTries, right: boolean, now: number): PinTries {
  if (right) return NO_TRIES;
  if (tries.wrong + 1 < TRIES) return { ...tries, wrong: tries.wrong + 1 };
  return {
    wrong: 0,
    pauses: tries.pauses + 1,
    pausedUntil: now + Math.min(LONGEST_PAUSE_MS, PAUSE_MS * 2 ** tries.pauses),
  };
}

/** How many minutes (at least one) a paused prompt still waits. */
export const pauseMinutes = (pausedUntil: number, now: number): number =>
  Math.max(1, Math.round((pausedUntil - now) / 60_000));

/** "Too many wrong PINs. Try again in 2 minutes.": the staff screens' words (Discard). */
export function pausedText(pausedUntil: number, now: number): string {
  const minutes = pauseMinutes(pausedUntil, now);
  return `Too many wrong PINs. Try again in ${minutes === 1 ? 'a minute' : `${minutes} minutes`}.`;
}
