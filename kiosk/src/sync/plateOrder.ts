import type { KioskDatabase } from '../data/database';
import { type ActionError, type OutboxAction, isVehicleAction } from '../data/types';
import { headsOf } from '../data/visits';

/**
 * Refusals a Retry of the very same action is meant to overcome (the kiosk's token or site access fixed, a
 * device clock or storage put right): the plate's later entries keep waiting behind them, so everything goes
 * in order once someone acts. Any other refusal is final for that action, and releases them.
 */
const RETRYABLE_STATUSES = new Set([401, 403, 404]);
const RETRYABLE_CODES = new Set(['NOT_CREATED', 'NOT_SAVED', 'OCCURRED_AT_IN_FUTURE']);
const stillHoldsPlate = (error: ActionError | null) =>
  error !== null &&
  ((error.status !== null && RETRYABLE_STATUSES.has(error.status)) || RETRYABLE_CODES.has(error.code));

/**
 * The visit heads that may be sent now, in seq order. The server keeps one open visit per plate per site,
 * and visits otherwise sync independently (several at once): a vehicle's new entry must not reach it
 * before the exit (or any other action) of the plate's earlier visit, or it is refused with
 * VEHICLE_ALREADY_ON_SITE although the vehicle left. So an entry waits while an earlier action of another
 * visit of the same plate and site is still on its way (queued, not refused nor behind a refusal); that
 * action's own schedule decides when both go.
 * `acknowledged` says which actions are answered but not written down yet (they count as sent).
 */
export async function sendableHeads(
  db: KioskDatabase,
  acknowledged: (seq: number) => boolean = () => false,
): Promise<OutboxAction[]> {
  const actions = await db.outbox.toArray();
  const heads = headsOf(actions);
  if (!heads.some((head) => head.kind === 'VEHICLE_ENTRY')) return heads;
  // Only actions still on their way hold an entry back: one refused for good (Needs attention), or one
  // queued behind it in its own visit (an exit behind its refused entry), would hold it with no end and no
  // sign; sent anyway, the entry is decided by the server and shows if refused. A refusal a Retry is meant
  // to overcome (stillHoldsPlate) keeps holding it, so the visits go in order after that Retry; a Retry of
  // any refused action puts it back on its way, and the entry waits for it again.
  const refusedVisits = new Set<string>();
  const vehicleActions: OutboxAction[] = [];
  for (const action of actions) {
    if (action.state === 'ATTENTION' && !stillHoldsPlate(action.lastError)) refusedVisits.add(action.visitId);
    else if (action.state === 'ATTENTION') {
      if (isVehicleAction(action.kind)) vehicleActions.push(action);
    } else if (isVehicleAction(action.kind) && !refusedVisits.has(action.visitId) && !acknowledged(action.seq))
      vehicleActions.push(action);
  }
  const visitIds = [...new Set(vehicleActions.map((action) => action.visitId))];
  const visits = await db.vehicles.bulkGet(visitIds);
  const plateOf = new Map(visitIds.map((visitId, index) => [visitId, visits[index]?.plateKey]));
  const waits = (head: OutboxAction) => {
    const plate = head.kind === 'VEHICLE_ENTRY' ? plateOf.get(head.visitId) : undefined;
    return (
      plate !== undefined &&
      vehicleActions.some(
        (earlier) =>
          earlier.seq < head.seq &&
          earlier.visitId !== head.visitId &&
          earlier.siteId === head.siteId &&
          plateOf.get(earlier.visitId) === plate,
      )
    );
  };
  return heads.filter((head) => !waits(head));
}
