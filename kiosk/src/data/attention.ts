import { fieldPath } from '../../../shared/src/domain';
import type { KioskDatabase } from './database';
import type { ActionKind, CachedSiteConfig, OutboxAction, PersonVisit, VehicleVisit } from './types';
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
  VEHICLE_APPROVE: 'Admit',
  VEHICLE_DENY: 'Refusal',
};

/** "Ada Lovelace", "AB-123 CD": whom an action is about. */
function whoOf(visit: PersonVisit | VehicleVisit | undefined): string {
  if (visit && 'person' in visit) return `${visit.person.firstName} ${visit.person.lastName}`;
  if (visit && 'licensePlate' in visit) return visit.licensePlate;
  return 'an unknown visit';
}

/** "Check-out of Ada Lovelace", "Entry of AB-123 CD": how a person recognises an action. */
export function describeAction(action: OutboxAction, visit: PersonVisit | VehicleVisit | undefined): string {
  return `${labels[action.kind]} of ${whoOf(visit)}`;
}

/** One detail the server did not accept, named as the form names it when the kiosk knows the field. */
export interface FieldErrorLine {
  /** The field's label from the cached site configuration, else the path the server gave. */
  field: string;
  message: string;
}

/** One row of the Needs attention list. */
export interface AttentionItem {
  action: OutboxAction;
  description: string;
  /** The person's name or the plate (for the words of a Discard). */
  who: string;
  /** Later actions of the same visit, waiting behind this one. */
  waiting: number;
  /** What the server did not accept (a 422's field errors); empty when it named nothing. */
  fieldErrors: FieldErrorLine[];
}

/**
 * The server names fields by path (`customFields.badgeNumber`); a person knows them by their label. A field
 * added to the site since the kiosk last fetched its configuration has no label here and keeps its path.
 */
function fieldErrorLines(action: OutboxAction, cached: CachedSiteConfig | undefined): FieldErrorLine[] {
  const labelsByPath = new Map((cached?.config.fields ?? []).map((field) => [fieldPath(field.name), field.label]));
  return (action.lastError?.errors ?? []).map(({ path, message }) => ({
    field: labelsByPath.get(path) ?? path,
    message,
  }));
}

export async function attentionItems(db: KioskDatabase): Promise<AttentionItem[]> {
  // siteConfigs is read here so the list follows a configuration fetched later (a new field gets its label).
  return db.transaction('r', [db.outbox, db.people, db.vehicles, db.siteConfigs], async () => {
    const refused = await db.outbox.where('state').equals('ATTENTION').sortBy('seq');
    return Promise.all(
      refused.map(async (action) => {
        const visit = isVehicleAction(action.kind)
          ? await db.vehicles.get(action.visitId)
          : await db.people.get(action.visitId);
        const waiting = (await actionsOf(db, action.visitId)).filter((other) => other.seq > action.seq).length;
        const cached = action.lastError?.errors ? await db.siteConfigs.get(action.siteId) : undefined;
        return {
          action,
          description: describeAction(action, visit),
          who: whoOf(visit),
          waiting,
          fieldErrors: fieldErrorLines(action, cached),
        };
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
      const also =
        dependents.length === 0
          ? ''
          : ` and ${dependents.length} later action${dependents.length === 1 ? '' : 's'} that depended on it`;
      return { discarded: [action, ...dependents], visitRemoved: true, message: `Discarded ${description}${also}.` };
    }
    await db.outbox.delete(seq);
    await (vehicle ? refreshVisit(db, vehicleVisits, action.visitId) : refreshVisit(db, personVisits, action.visitId));
    return { discarded: [action], visitRemoved: false, message: `Discarded ${description}.` };
  });
}
