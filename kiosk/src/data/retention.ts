import type { Clock } from '../platform/platform';
import type { KioskDatabase } from './database';
import type { PersonVisit, VehicleVisit } from './types';

/** How long a kiosk keeps a visit after it left (docs/kiosk-sync.md, What the kiosk keeps). */
export const KEEP_LEFT_VISITS_MS = 24 * 60 * 60 * 1000;

/** How often the kiosk looks for visits to drop while it runs. */
export const PRUNE_INTERVAL_MS = 15 * 60 * 1000;

// A refused visit (STOP) never leaves: it goes a day after its last event, as the server's kiosk lists drop it.
const leftBefore = (visit: PersonVisit | VehicleVisit, cutoff: number) =>
  visit.exitAt !== null
    ? Date.parse(visit.exitAt) < cutoff
    : visit.status === 'STOP' && Date.parse(visit.lastEventAt) < cutoff;

/**
 * Drops the visits (people and vehicles, names and plates with them) that left more than 24 h ago and owe
 * the server nothing: a visit with any action still in the outbox (queued or in Needs attention) stays,
 * whatever its age, so nothing unsynced is ever lost. Answers how many were dropped.
 */
export async function pruneLeftVisits(db: KioskDatabase, now: number, keepMs = KEEP_LEFT_VISITS_MS): Promise<number> {
  const cutoff = now - keepMs;
  return db.transaction('rw', [db.outbox, db.people, db.vehicles], async () => {
    const owing = new Set((await db.outbox.toArray()).map((action) => action.visitId));
    const drop = (visit: PersonVisit | VehicleVisit) => leftBefore(visit, cutoff) && !owing.has(visit.visitId);
    const people = (await db.people.toArray()).filter(drop).map((visit) => visit.visitId);
    const vehicles = (await db.vehicles.toArray()).filter(drop).map((visit) => visit.visitId);
    await db.people.bulkDelete(people);
    await db.vehicles.bulkDelete(vehicles);
    return people.length + vehicles.length;
  });
}

/**
 * Prunes at once and then every `intervalMs` until stopped, offline too (the pull, which also drops who
 * left, needs the server). A failed prune is reported and tried again at the next interval.
 */
export function schedulePruning(
  db: KioskDatabase,
  clock: Pick<Clock, 'setTimer'>,
  now: () => number,
  options: { intervalMs?: number; keepMs?: number; onError?: (error: unknown) => void } = {},
): () => void {
  const intervalMs = options.intervalMs ?? PRUNE_INTERVAL_MS;
  let cancel: (() => void) | undefined;
  let stopped = false;
  const run = () => {
    cancel = undefined;
    void pruneLeftVisits(db, now(), options.keepMs)
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        if (!stopped) cancel = clock.setTimer(intervalMs, run);
      });
  };
  run();
  return () => {
    stopped = true;
    cancel?.();
  };
}
