import type { Stamp } from '../data/command';
import type { KioskDatabase } from '../data/database';
import type { Clock } from '../platform/platform';

/** A device clock this far from the server's is corrected; closer, it is left alone (Date has 1 s steps). */
export const SKEW_THRESHOLD_MS = 60_000;
/** A new measurement moves the correction only by more than the `Date` header's precision. */
const PRECISION_MS = 2_000;
/** The wall clock moving back this far against the monotonic clock is someone setting it, not jitter. */
export const SET_BACK_THRESHOLD_MS = 5_000;
const KEY = 'serverClockOffsetMs';

export interface ServerClock {
  /** The device clock, corrected by the server's when it is off by a minute or more. */
  now: () => number;
  /** The time to stamp an action with, and the device clock's own reading it was made from (one reading). */
  stamp: () => Stamp;
  /** The server's time from an answer of the API (its `Date` header). */
  observe: (serverMs: number) => void;
  /** The server's time now, as its last answer showed it; undefined before any answer. */
  serverNow: () => number | undefined;
  /** What is added to the device clock to stamp actions now (0 while it is within a minute of the server's). */
  correctionMs: () => number;
  /** Resolves once the correction learnt before (kept in the database) is in use. */
  ready: Promise<void>;
}

/**
 * The time actions are stamped with (docs/kiosk-sync.md, The time actions are stamped with): the server
 * refuses an `occurredAt` far off its clock, so a device a minute or more off takes the server's, kept offline.
 * A clock set forward looks like a device that slept, so it is left to the server to refuse (decide.ts).
 */
export function serverClock(
  db: KioskDatabase,
  device: Pick<Clock, 'now' | 'elapsed'>,
  options: { enabled: boolean },
): ServerClock {
  let offsetMs = 0;
  /** Server time minus device time at the last answer (not rounded to a correction). */
  let measuredMs: number | undefined;
  let observed = false;
  let last: { wall: number; elapsed: number } | undefined;
  const persist = () => void db.meta.put({ key: KEY, value: offsetMs }).catch(() => undefined);

  /** The device clock; a wall clock set back since the last reading moves the correction by as much. */
  const read = (): number => {
    const wall = device.now();
    if (!options.enabled) return wall;
    const elapsed = device.elapsed();
    const moved = last === undefined ? 0 : wall - last.wall - (elapsed - last.elapsed);
    last = { wall, elapsed };
    if (moved <= -SET_BACK_THRESHOLD_MS) {
      // As `observe` does: within a minute of the server's, the device clock is used as it is (a device 50 s
      // fast, with no correction, set back 50 s is right now, not 50 s slow).
      const shifted = offsetMs - moved;
      offsetMs = Math.abs(shifted) >= SKEW_THRESHOLD_MS ? shifted : 0;
      if (measuredMs !== undefined) measuredMs -= moved;
      persist();
    }
    return wall;
  };

  const ready = !options.enabled
    ? Promise.resolve()
    : db.meta
        .get(KEY)
        .then((row) => {
          // An answer since the start is fresher than what was kept; a set-back since is added to it.
          if (observed || typeof row?.value !== 'number' || !Number.isFinite(row.value)) return;
          offsetMs += row.value;
          if (offsetMs !== row.value) persist();
        })
        .catch(() => undefined);

  return {
    now: () => read() + offsetMs,
    stamp() {
      const deviceAt = read();
      return { at: deviceAt + offsetMs, deviceAt };
    },
    observe(serverMs) {
      // `Date` is cut to the second: the server's time is within the second after it.
      measuredMs = serverMs + 500 - read();
      if (!options.enabled) return;
      observed = true;
      const next = Math.abs(measuredMs) >= SKEW_THRESHOLD_MS ? measuredMs : 0;
      if (Math.abs(next - offsetMs) < PRECISION_MS) return;
      offsetMs = next;
      persist();
    },
    serverNow() {
      const wall = read();
      return measuredMs === undefined ? undefined : wall + measuredMs;
    },
    correctionMs() {
      read();
      return offsetMs;
    },
    ready,
  };
}
