import Dexie from 'dexie';
import type { VehicleCheckin } from '../../../shared/src/schemas/vehicles';
import { normalizePlate } from '../../../shared/src/domain';
import type { KioskDatabase } from './database';
import { confirmPerson, confirmVehicle, projectPerson, projectVehicle } from './projection';
import type { KeptPersonCheckin, OutboxAction, PersonVisit, VehicleVisit } from './types';

// Helpers for use inside a caller's Dexie transaction (over outbox, people and vehicles as needed).

/** The visit's actions not yet acknowledged, oldest first. */
export function actionsOf(db: KioskDatabase, visitId: string): Promise<OutboxAction[]> {
  return db.outbox.where('[visitId+seq]').between([visitId, Dexie.minKey], [visitId, Dexie.maxKey]).toArray();
}

/** The first action of every visit among `actions` (in seq order): only these can be sent now. */
export function headsOf(actions: readonly OutboxAction[]): OutboxAction[] {
  const heads = new Map<string, OutboxAction>();
  for (const action of actions) {
    if (!heads.has(action.visitId)) heads.set(action.visitId, action);
  }
  return [...heads.values()];
}

/** The first unacknowledged action of every visit, in seq order. */
export async function visitHeads(db: KioskDatabase): Promise<OutboxAction[]> {
  // Primary-key order is seq order: the first action met for a visit is its head. (toArray, not each():
  // one getAll is several times faster than a cursor.)
  return headsOf(await db.outbox.toArray());
}

/** The id a visit learnt from the server gets (stable, so two pulls cannot make two records). */
export const serverVisitId = (kind: 'person' | 'vehicle', checkinId: number) => `server:${kind}:${checkinId}`;

/** A person visit as the server has it, for one the kiosk did not create. */
export function personVisitFromServer(checkin: KeptPersonCheckin, syncedAt: number): PersonVisit {
  const confirmed = confirmPerson(checkin);
  const visit = {
    visitId: serverVisitId('person', checkin.checkinId),
    siteId: checkin.siteId,
    serverId: checkin.checkinId,
    person: { ...checkin.person },
    hostName: checkin.hostName,
    purpose: checkin.purpose,
    predicted: checkin.status,
    confirmed,
    entryAt: confirmed.entryAt,
    syncedAt,
  };
  return { ...visit, ...projectPerson(visit, []) };
}

export function vehicleVisitFromServer(checkin: VehicleCheckin, syncedAt: number): VehicleVisit {
  const confirmed = confirmVehicle(checkin);
  const visit = {
    visitId: serverVisitId('vehicle', checkin.checkinId),
    siteId: checkin.siteId,
    serverId: checkin.checkinId,
    licensePlate: checkin.licensePlate,
    plateKey: normalizePlate(checkin.licensePlate),
    driverName: checkin.driverName,
    predicted: checkin.status,
    confirmed,
    entryAt: confirmed.entryAt,
    syncedAt,
  };
  return { ...visit, ...projectVehicle(visit, []) };
}
