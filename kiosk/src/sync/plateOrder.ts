import type { KioskDatabase } from '../data/database';
import { type OutboxAction, isVehicleAction } from '../data/types';
import { headsOf } from '../data/visits';

/**
 * The visit heads that may be sent now, in seq order. The server keeps one open visit per plate per site,
 * and visits otherwise sync independently (several at once): a vehicle's new entry must not reach it
 * before the exit (or any other action) of the plate's earlier visit, or it is refused with
 * VEHICLE_ALREADY_ON_SITE although the vehicle left. So an entry waits while an earlier action of another
 * visit of the same plate and site is still on its way (queued, not refused nor behind a refusal); that
 * action's own schedule decides when both go.
 * `acknowledged` says which actions are answered but not written down yet (they count as sent).
 */
export async function sendableHeads(db: KioskDatabase, acknowledged: (seq: number) => boolean = () => false): Promise<OutboxAction[]> {
  const actions = await db.outbox.toArray();
  const heads = headsOf(actions);
  if (!heads.some((head) => head.kind === 'VEHICLE_ENTRY')) return heads;
  // Only actions still on their way hold an entry back: one a person must look at (Needs attention), or one
  // queued behind it in its own visit (an exit behind its refused entry), would hold it with no end and no
  // sign; sent anyway, the entry is decided by the server and shows if refused. A Retry puts them back on
  // their way, and the entry waits for them again.
  const refusedVisits = new Set<string>();
  const vehicleActions: OutboxAction[] = [];
  for (const action of actions) {
    if (action.state === 'ATTENTION') refusedVisits.add(action.visitId);
    else if (isVehicleAction(action.kind) && !refusedVisits.has(action.visitId) && !acknowledged(action.seq)) vehicleActions.push(action);
  }
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
