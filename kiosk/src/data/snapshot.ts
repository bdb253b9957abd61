import type { KioskDatabase } from './database';
import { type Pairing, stillPaired } from './settings';
import type { OutboxAction, PersonVisit, VehicleVisit } from './types';
import type { VisitKind } from './visitKinds';

/**
 * Merges the server's list of what is on a site into the local view without losing unsynced local
 * changes: a visit with actions still in the outbox is left alone (its acknowledgements will bring
 * the server's word), as is one updated after the pull started (its data is newer than the list).
 * A visit the list no longer has is gone from site and leaves the local view, unless it still owes
 * the server something. A check-in the server has that is the answer to one of our queued creates
 * (the answer was lost) is not added twice: the create's own acknowledgement will bring it.
 * False when nothing was written because the device is paired elsewhere now.
 */
export async function applySnapshot<
  V extends PersonVisit | VehicleVisit,
  C extends { checkinId: number; updatedAt: string },
>(
  db: KioskDatabase,
  kind: VisitKind<V, C>,
  snapshot: { siteId: number; items: C[]; startedAt: number; now: number },
  /** The pairing the list was read for: nothing is written once the device is paired elsewhere. */
  pairing?: Pairing,
): Promise<boolean> {
  const table = kind.table(db);
  return db.transaction('rw', [db.outbox, table, db.meta], async () => {
    if (pairing && !(await stillPaired(db, pairing))) return false;
    const owing = new Set<string>();
    const siteActions: OutboxAction[] = [];
    for (const action of await db.outbox.toArray()) {
      owing.add(action.visitId);
      if (action.siteId === snapshot.siteId) siteActions.push(action);
    }
    const local = await table.where('siteId').equals(snapshot.siteId).toArray();
    const byServerId = new Map(
      local.flatMap((visit) => (visit.serverId === undefined ? [] : [[visit.serverId, visit] as const])),
    );
    const untouchable = (visit: V) => owing.has(visit.visitId) || visit.syncedAt > snapshot.startedAt;
    const listed = new Set<number>();
    const writes: V[] = [];
    for (const checkin of snapshot.items) {
      listed.add(checkin.checkinId);
      const visit = byServerId.get(checkin.checkinId);
      if (visit) {
        if (!untouchable(visit)) writes.push(kind.withServer(visit, checkin, [], snapshot.now));
      } else if (!siteActions.some((action) => kind.madeBy(action, checkin))) {
        writes.push(kind.fromServer(checkin, snapshot.now));
      }
    }
    await table.bulkPut(writes);
    const gone = local.filter(
      (visit) => visit.serverId !== undefined && !listed.has(visit.serverId) && !untouchable(visit),
    );
    await table.bulkDelete(gone.map((visit) => visit.visitId));
    return true;
  });
}
