import type { KioskDatabase } from '../data/database';
import { type OutboxAction, isVehicleAction } from '../data/types';
import { headsOf } from '../data/visits';

/**
 * The visit heads that may be sent now, in seq order. The server keeps one open visit per plate per site,
 * and visits otherwise sync independently (several at once): a vehicle's new entry must not reach it
 * before the exit (or any other action) of the plate's earlier visit, or it is refused with
 * VEHICLE_ALREADY_ON_SITE although the vehicle left. So an entry waits while an earlier action of another
 * visit of the same plate and site is still queued; that action's own schedule decides when both go.
 * `acknowledged` says which actions are answered but not written down yet (they count as sent).
 */
export async function sendableHeads(db: KioskDatabase, acknowledged: (seq: number) => boolean = () => false): Promise<OutboxAction[]> {
  const actions = await db.outbox.toArray();
  const heads = headsOf(actions);
  if (!heads.some((head) => head.kind === 'VEHICLE_ENTRY')) return heads;
  // Only actions still on their way hold an entry back: one a person must look at (Needs attention) would
  // hold it with no end and no sign; sent anyway, the entry is decided by the server and shows if refused.
  const vehicleActions = actions.filter((action) => isVehicleAction(action.kind) && action.state === 'QUEUED' && !acknowledged(action.seq));
  const visitIds = [...new Set(vehicleActions.map((action) => action.visitId))];
  const visits = await db.vehicles.bulkGet(visitIds);
  const plateOf = new Map(visitIds.map((visitId, index) => [visitId, visits[index]?.plateKey]));
  const waits = (head: OutboxAction) => {
    const plate = head.kind === 'VEHICLE_ENTRY' ? plateOf.get(head.visitId) : undefined;
    return plate !== undefined && vehicleActions.some((earlier) =>
      earlier.seq < head.seq && earlier.visitId !== head.visitId && earlier.siteId === head.siteId && plateOf.get(earlier.visitId) === plate);
  };
  return heads.filter((head) => !waits(head));
}
