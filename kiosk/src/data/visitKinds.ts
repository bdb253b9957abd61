import type { InsertType, Table } from 'dexie';
import { normalizePlate } from '../../../shared/src/domain';
import type { VehicleCheckin } from '../../../shared/src/schemas/vehicles';
import type { KioskDatabase } from './database';
import { confirmPerson, confirmVehicle, isNewer, projectPerson, projectVehicle } from './projection';
import type { KeptPersonCheckin, OutboxAction, PersonVisit, VehicleVisit } from './types';
import { actionsOf, personVisitFromServer, vehicleVisitFromServer } from './visits';

/**
 * What differs between person and vehicle visits for the code that keeps the local view (commands,
 * acknowledgements, refusals with `current`, pulls): one table, one projection, one create.
 */
export interface VisitKind<V extends PersonVisit | VehicleVisit, C extends { checkinId: number; updatedAt: string }> {
  table: (db: KioskDatabase) => Table<V, string, InsertType<V, 'visitId'>>;
  /** The visit's display fields recomputed over its still-queued actions (projection.ts). */
  project: (visit: V, pending: OutboxAction[]) => V;
  /** The visit with a server answer applied (unless older than what it holds), re-projected over `pending`. */
  withServer: (visit: V, checkin: C, pending: OutboxAction[], syncedAt: number) => V;
  fromServer: (checkin: C, syncedAt: number) => V;
  /** True when `checkin` is what this queued create made (its answer may have been lost). */
  madeBy: (create: OutboxAction, checkin: C) => boolean;
}

const sameInstant = (a: string | undefined, b: string) => a !== undefined && Date.parse(a) === Date.parse(b);

export const personVisits: VisitKind<PersonVisit, KeptPersonCheckin> = {
  table: (db) => db.people,
  project: (visit, pending) => ({ ...visit, ...projectPerson(visit, pending) }),
  withServer(visit, checkin, pending, syncedAt) {
    const confirmed = isNewer(checkin, visit.confirmed) ? confirmPerson(checkin) : visit.confirmed;
    return personVisits.project({ ...visit, serverId: checkin.checkinId, confirmed, syncedAt }, pending);
  },
  fromServer: personVisitFromServer,
  madeBy: (create, checkin) =>
    create.kind === 'PERSON_CHECKIN' &&
    create.siteId === checkin.siteId &&
    sameInstant(create.body.occurredAt, checkin.entry.at) &&
    create.body.person.firstName === checkin.person.firstName &&
    create.body.person.lastName === checkin.person.lastName,
};

export const vehicleVisits: VisitKind<VehicleVisit, VehicleCheckin> = {
  table: (db) => db.vehicles,
  project: (visit, pending) => ({ ...visit, ...projectVehicle(visit, pending) }),
  withServer(visit, checkin, pending, syncedAt) {
    const newer = isNewer(checkin, visit.confirmed);
    const confirmed = newer ? confirmVehicle(checkin) : visit.confirmed;
    const driverName = newer ? checkin.driverName : (visit.driverName ?? null);
    return vehicleVisits.project({ ...visit, serverId: checkin.checkinId, confirmed, driverName, syncedAt }, pending);
  },
  fromServer: vehicleVisitFromServer,
  madeBy: (create, checkin) =>
    create.kind === 'VEHICLE_ENTRY' &&
    create.siteId === checkin.siteId &&
    sameInstant(create.body.occurredAt, checkin.entry.at) &&
    normalizePlate(create.body.licensePlate ?? '') === normalizePlate(checkin.licensePlate),
};

/** Recomputes a visit's display fields from its server state and its outbox actions (inside a transaction). */
export async function refreshVisit<
  V extends PersonVisit | VehicleVisit,
  C extends { checkinId: number; updatedAt: string },
>(db: KioskDatabase, kind: VisitKind<V, C>, visitId: string): Promise<V | undefined> {
  const table = kind.table(db);
  const visit = await table.get(visitId);
  if (!visit) return undefined;
  const next = kind.project(visit, await actionsOf(db, visitId));
  await table.put(next);
  return next;
}
