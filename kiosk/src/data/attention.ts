import type { KioskDatabase } from './database';
import type { ActionKind, OutboxAction, PersonVisit, VehicleVisit } from './types';
import { isCreate, isVehicleAction } from './types';
import { personVisits, refreshVisit, vehicleVisits } from './visitKinds';
import { actionsOf } from './visits';

const labels: Record<ActionKind, string> = {
  PERSON_CHECKIN: 'Check-in',
  PERSON_BREAK_START: 'Break start',
  PERSON_BREAK_END: 'Break end',
  PERSON_CHECKOUT: 'Check-out',
  VEHICLE_ENTRY: 'Entry',
  VEHICLE_EXIT: 'Exit',
};

/** "Check-out of Ada Lovelace", "Entry of AB-123 CD": how a person recognises an action. */
export function describeAction(action: OutboxAction, visit: PersonVisit | VehicleVisit | undefined): string {
  let who = 'an unknown visit';
  if (visit && 'person' in visit) who = `${visit.person.firstName} ${visit.person.lastName}`;
  if (visit && 'licensePlate' in visit) who = visit.licensePlate;
  return `${labels[action.kind]} of ${who}`;
}

/** One row of the Needs attention list. */
export interface AttentionItem {
  action: OutboxAction;
  description: string;
  /** Later actions of the same visit, waiting behind this one. */
  waiting: number;
}

export async function attentionItems(db: KioskDatabase): Promise<AttentionItem[]> {
  return db.transaction('r', [db.outbox, db.people, db.vehicles], async () => {
    const refused = await db.outbox.where('state').equals('ATTENTION').sortBy('seq');
    return Promise.all(
      refused.map(async (action) => {
        const visit = isVehicleAction(action.kind) ? await db.vehicles.get(action.visitId) : await db.people.get(action.visitId);
        const waiting = (await actionsOf(db, action.visitId)).filter((other) => other.seq > action.seq).length;
        return { action, description: describeAction(action, visit), waiting };
      }),
    );
  });
}

/**
 * A stored 409/422 is the server's final word on that key (it would replay the refusal forever), and it
 * means the request had no effect: a retry may safely go out under a new key. Any other refusal was not
 * stored (or is a key mismatch), so the retry keeps the key and still counts at most once.
 */
function needsNewKey(action: OutboxAction): boolean {
  const status = action.lastError?.status;
  return (status === 409 || status === 422) && action.lastError?.code !== 'IDEMPOTENCY_KEY_REUSED';
}

/** Puts a refused action back in the queue (the person pressed Retry). */
export async function retryAction(db: KioskDatabase, seq: number, newKey: () => string): Promise<boolean> {
  return db.transaction('rw', [db.outbox], async () => {
    const action = await db.outbox.get(seq);
    if (!action || action.state !== 'ATTENTION') return false;
    await db.outbox.update(seq, {
      state: 'QUEUED',
      attempts: 0,
      nextAttemptAt: 0,
      key: needsNewKey(action) ? newKey() : action.key,
    });
    return true;
  });
}

export interface DiscardReport {
  /** The action discarded first, then those that depended on it. */
  discarded: OutboxAction[];
  /** True when a create was discarded: the visit is gone from this kiosk with all its actions. */
  visitRemoved: boolean;
  message: string;
}

/**
 * Drops a refused action (the person pressed Discard). A discarded create takes the visit's later
 * actions with it (they cannot be sent without it) and says so; otherwise the visit is recomputed
 * without the action. Only refused actions can be discarded: a queued one may be on the wire.
 */
export async function discardAction(db: KioskDatabase, seq: number): Promise<DiscardReport | undefined> {
  return db.transaction('rw', [db.outbox, db.people, db.vehicles], async () => {
    const action = await db.outbox.get(seq);
    if (!action || action.state !== 'ATTENTION') return undefined;
    const vehicle = isVehicleAction(action.kind);
    const visit = vehicle ? await db.vehicles.get(action.visitId) : await db.people.get(action.visitId);
    const description = describeAction(action, visit);
    if (isCreate(action.kind)) {
      const all = await actionsOf(db, action.visitId);
      const dependents = all.filter((other) => other.seq !== seq);
      await db.outbox.bulkDelete(all.map((other) => other.seq));
      await (vehicle ? db.vehicles.delete(action.visitId) : db.people.delete(action.visitId));
      const also = dependents.length === 0 ? '' : ` and ${dependents.length} later action${dependents.length === 1 ? '' : 's'} that depended on it`;
      return { discarded: [action, ...dependents], visitRemoved: true, message: `Discarded ${description}${also}.` };
    }
    await db.outbox.delete(seq);
    await (vehicle ? refreshVisit(db, vehicleVisits, action.visitId) : refreshVisit(db, personVisits, action.visitId));
    return { discarded: [action], visitRemoved: false, message: `Discarded ${description}.` };
  });
}
