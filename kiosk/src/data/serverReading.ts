import type { KioskDatabase } from './database';
import { type Pairing, stillPaired } from './settings';
import type { PersonVisit, VehicleVisit } from './types';
import type { VisitKind } from './visitKinds';
import { actionsOf } from './visits';

/** One visit as the server answered a read of it, and when that read was asked for (the device clock). */
export interface ServerReading<C> {
  siteId: number;
  checkin: C;
  startedAt: number;
  now: number;
}

/**
 * What became of a reading: `applied`, or why not: `owed` (this kiosk still owes the server an action of the
 * visit), `older` (an answer written since the read was asked for is at least as new), `ours` (the answer to a
 * create still queued here), `gone` (it left and the kiosk does not hold it), `moved` (paired elsewhere since).
 */
export type ReadingResult = 'applied' | 'owed' | 'older' | 'ours' | 'gone' | 'moved';

/**
 * Puts the server's answer to a read of one visit (an event named it) into the local view, under the same
 * rules as a pull (snapshot.ts): **the outbox wins until it is synced**. A visit with actions still queued
 * keeps what its actions show (their acknowledgements bring the server's word, in order); a visit written
 * since the read was asked for (an acknowledgement, a pull) keeps that newer word; a check-in that is the
 * answer to one of this kiosk's queued creates is not added twice. A visit that left stays, as `OUT`, so a
 * result card that follows it says so; one the kiosk does not hold is added unless it left.
 */
export async function applyServerReading<
  V extends PersonVisit | VehicleVisit,
  C extends { checkinId: number; updatedAt: string; status: string },
>(db: KioskDatabase, kind: VisitKind<V, C>, reading: ServerReading<C>, pairing?: Pairing): Promise<ReadingResult> {
  const table = kind.table(db);
  const { checkin } = reading;
  return db.transaction('rw', [db.outbox, table, db.meta], async (): Promise<ReadingResult> => {
    if (pairing && !(await stillPaired(db, pairing))) return 'moved';
    const held = await table.where('serverId').equals(checkin.checkinId).first();
    if (held) {
      if ((await actionsOf(db, held.visitId)).length > 0) return 'owed';
      if (held.syncedAt > reading.startedAt) return 'older';
      await table.put(kind.withServer(held, checkin, [], reading.now));
      return 'applied';
    }
    if (checkin.status === 'OUT') return 'gone';
    const queued = await db.outbox.toArray();
    if (queued.some((action) => action.siteId === reading.siteId && kind.madeBy(action, checkin))) return 'ours';
    await table.put(kind.fromServer(checkin, reading.now));
    return 'applied';
  });
}
