import type { KioskDatabase } from './database';
import { foldTwins } from './outcomes';
import type { OutboxAction, PersonVisit, VehicleVisit } from './types';
import type { VisitKind } from './visitKinds';
import { actionsOf } from './visits';

/**
 * An action the server acknowledged with the vehicle visit in a status newer than this kiosk (a server
 * upgraded before its kiosks; a person's newer status is kept, see sync/answers.ts): the server did it, so
 * it leaves the outbox like any acknowledged action. The kiosk
 * cannot show that status nor offer actions on it, so the visit leaves the local view, as the next pull
 * would take it out, unless more of its actions are still in the outbox: then it stays, with the
 * server's id they are sent to, showing the kiosk's own view until they are answered.
 */
export async function recordAckInNewerStatus<
  V extends PersonVisit | VehicleVisit,
  C extends { checkinId: number; updatedAt: string },
>(db: KioskDatabase, kind: VisitKind<V, C>, action: OutboxAction, checkinId: number, now: number): Promise<void> {
  const table = kind.table(db);
  await db.transaction('rw', [db.outbox, table], async () => {
    await db.outbox.delete(action.seq);
    const visit = await table.get(action.visitId);
    if (!visit) return;
    await foldTwins(db, kind, visit.visitId, checkinId);
    const pending = await actionsOf(db, visit.visitId);
    if (pending.length === 0) await table.delete(visit.visitId);
    else await table.put(kind.project({ ...visit, serverId: checkinId, syncedAt: now }, pending));
  });
}
