import type { VehicleCheckin } from '../../../shared/src/schemas/vehicles';
import type { KioskDatabase } from './database';
import {
  type ActionError,
  type KeptPersonCheckin,
  type OutboxAction,
  type PersonVisit,
  type VehicleVisit,
  isCreate,
} from './types';
import { confirmVehicle } from './projection';
import { type VisitKind, personVisits, vehicleVisits } from './visitKinds';
import { actionsOf } from './visits';

// How answers to actions are written down, each write one transaction over the outbox and the visits,
// so the local view never disagrees with what is still queued.

/** An action the server acknowledged, with the visit as the server now has it. */
export type Ack =
  | { visit: 'person'; action: OutboxAction; checkin: KeptPersonCheckin }
  | { visit: 'vehicle'; action: OutboxAction; checkin: VehicleCheckin };

/**
 * A pull may have brought a check-in in under its server id before the answer that names it for `visitId`
 * came: that twin is folded into the visit (its queued actions move over, and it goes). Inside the caller's
 * transaction over the outbox and the visit's table.
 */
export async function foldTwins<
  V extends PersonVisit | VehicleVisit,
  C extends { checkinId: number; updatedAt: string },
>(db: KioskDatabase, kind: VisitKind<V, C>, visitId: string, checkinId: number): Promise<void> {
  const table = kind.table(db);
  const twins = (await table.where('serverId').equals(checkinId).toArray()).filter((twin) => twin.visitId !== visitId);
  for (const twin of twins) await db.outbox.where('visitId').equals(twin.visitId).modify({ visitId });
  await table.bulkDelete(twins.map((twin) => twin.visitId));
}

/** Applies the server's answers to one visit: it takes the server's state and id (a twin is folded in). */
async function applyToVisit<V extends PersonVisit | VehicleVisit, C extends { checkinId: number; updatedAt: string }>(
  db: KioskDatabase,
  kind: VisitKind<V, C>,
  visitId: string,
  checkins: C[],
  now: number,
): Promise<void> {
  const table = kind.table(db);
  let visit = await table.get(visitId);
  const last = checkins.at(-1);
  if (!visit || !last) return;
  if (visit.serverId !== last.checkinId) await foldTwins(db, kind, visitId, last.checkinId);
  const pending = await actionsOf(db, visitId);
  for (const checkin of checkins) visit = kind.withServer(visit, checkin, pending, now);
  await table.put(visit);
}

/** Acknowledged actions leave the outbox (only they: by seq) and their visits take the server's word. */
export async function recordAcks(db: KioskDatabase, acks: Ack[], now: number): Promise<void> {
  await db.transaction('rw', [db.outbox, db.people, db.vehicles], async () => {
    await db.outbox.bulkDelete(acks.map((ack) => ack.action.seq));
    const people = new Map<string, KeptPersonCheckin[]>();
    const vehicles = new Map<string, VehicleCheckin[]>();
    for (const ack of acks) {
      if (ack.visit === 'person')
        people.set(ack.action.visitId, [...(people.get(ack.action.visitId) ?? []), ack.checkin]);
      else vehicles.set(ack.action.visitId, [...(vehicles.get(ack.action.visitId) ?? []), ack.checkin]);
    }
    for (const [visitId, checkins] of people) await applyToVisit(db, personVisits, visitId, checkins, now);
    for (const [visitId, checkins] of vehicles) await applyToVisit(db, vehicleVisits, visitId, checkins, now);
    // How the server decided this kiosk's Entry, beside what the kiosk predicted: the gate says when they differ.
    for (const ack of acks) {
      if (ack.visit !== 'vehicle' || ack.action.kind !== 'VEHICLE_ENTRY') continue;
      const { status, stopReason } = confirmVehicle(ack.checkin);
      await db.vehicles.update(ack.action.visitId, { entryDecision: { status, stopReason: stopReason ?? null } });
    }
  });
}

/** The outbox row of `action`, only while it is still that attempt (same key, still queued). */
export const stillQueued = (db: KioskDatabase, action: OutboxAction) =>
  db.outbox
    .where(':id')
    .equals(action.seq)
    .and((row) => row.key === action.key && row.state === 'QUEUED');

/** Not now: try again at `nextAttemptAt`, keeping the key. */
export async function recordRetry(
  db: KioskDatabase,
  action: OutboxAction,
  error: ActionError,
  nextAttemptAt: number,
): Promise<void> {
  await stillQueued(db, action).modify({ attempts: action.attempts + 1, nextAttemptAt, lastError: error });
}

/**
 * Refused for good: the action waits in Needs attention (and blocks its visit's later actions). When the
 * server sent the check-in along (a 409), the visit shows the server's state from now on.
 */
export async function recordAttention<
  V extends PersonVisit | VehicleVisit,
  C extends { checkinId: number; updatedAt: string },
>(
  db: KioskDatabase,
  kind: VisitKind<V, C>,
  action: OutboxAction,
  error: ActionError,
  current: C | undefined,
  now: number,
): Promise<void> {
  const table = kind.table(db);
  await db.transaction('rw', [db.outbox, table], async () => {
    if ((await stillQueued(db, action).modify({ state: 'ATTENTION', lastError: error })) === 0) return;
    const visit = await table.get(action.visitId);
    if (!visit || !current || current.checkinId !== visit.serverId) return;
    await table.put(kind.withServer(visit, current, await actionsOf(db, visit.visitId), now));
  });
}

/**
 * Refused for a time in the future: the action takes the corrected time (in its body too) and a new key, and
 * is due at once. Safe only because the refusal, stored under the old key, proves that request had no
 * effect. The visit shows the new time. False if the row is no longer that attempt.
 */
export async function recordRestamp<
  V extends PersonVisit | VehicleVisit,
  C extends { checkinId: number; updatedAt: string },
>(
  db: KioskDatabase,
  kind: VisitKind<V, C>,
  action: OutboxAction,
  restamp: { occurredAt: string; key: string; error: ActionError },
): Promise<boolean> {
  const { occurredAt, key, error } = restamp;
  const table = kind.table(db);
  return db.transaction('rw', [db.outbox, table], async () => {
    const changed = await stillQueued(db, action).modify((row) => {
      row.occurredAt = occurredAt;
      row.body.occurredAt = occurredAt;
      row.key = key;
      row.attempts = 0;
      row.nextAttemptAt = 0;
      row.lastError = error;
    });
    if (changed === 0) return false;
    const visit = await table.get(action.visitId);
    if (!visit) return true;
    // A visit the server has not confirmed yet shows its entry at the time its create is stamped with.
    const base = isCreate(action.kind) && visit.confirmed === null ? { ...visit, entryAt: occurredAt } : visit;
    await table.put(kind.project(base, await actionsOf(db, visit.visitId)));
    return true;
  });
}
