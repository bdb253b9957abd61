import type { KioskDatabase } from '../data/database';

/** A device clock this far from the server's is corrected; closer, it is left alone (Date has 1 s steps). */
export const SKEW_THRESHOLD_MS = 60_000;
/** A new measurement moves the correction only by more than the `Date` header's precision. */
const PRECISION_MS = 2_000;
const KEY = 'serverClockOffsetMs';

export interface ServerClock {
  /** The device clock, corrected by the server's when it is off by a minute or more. */
  now(): number;
  /** The server's time from an answer of the API (its `Date` header). */
  observe(serverMs: number): void;
  /** Resolves once the correction learnt before (kept in the database) is in use. */
  ready: Promise<void>;
}

/**
 * The time the kiosk stamps its actions with (`occurredAt`). The server refuses a time more than 5 minutes
 * ahead of its own or more than 7 days old (CONTRACT §6), so a device whose clock is wrong (no NTP on an
 * isolated network, a reset real-time clock) would send every action to Needs attention. Every answer of
 * the API carries the server's time; a device more than a minute off takes the server's, and keeps the
 * correction in its database so it also holds while offline, after a restart.
 */
export function serverClock(db: KioskDatabase, deviceNow: () => number, options: { enabled: boolean }): ServerClock {
  let offsetMs = 0;
  if (!options.enabled) return { now: deviceNow, observe: () => undefined, ready: Promise.resolve() };
  const ready = db.meta
    .get(KEY)
    .then((row) => {
      if (typeof row?.value === 'number' && Number.isFinite(row.value)) offsetMs = row.value;
    })
    .catch(() => undefined);
  return {
    now: () => deviceNow() + offsetMs,
    observe(serverMs) {
      // `Date` is cut to the second: the server's time is within the second after it.
      const measured = serverMs + 500 - deviceNow();
      const next = Math.abs(measured) >= SKEW_THRESHOLD_MS ? measured : 0;
      if (Math.abs(next - offsetMs) < PRECISION_MS) return;
      offsetMs = next;
      void db.meta.put({ key: KEY, value: offsetMs }).catch(() => undefined);
    },
    ready,
  };
}
