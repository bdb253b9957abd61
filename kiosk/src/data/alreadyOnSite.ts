import { isOpenVehicleStatus, normalizePlate } from '../../../shared/src/domain';
import type { VehicleCheckin } from '../../../shared/src/schemas/vehicles';
import type { KioskDatabase } from './database';
import { foldTwins, stillQueued } from './outcomes';
import type { ActionError, OutboxAction } from './types';
import { vehicleVisits } from './visitKinds';
import { actionsOf } from './visits';

/**
 * A queued vehicle Entry the server refused as VEHICLE_ALREADY_ON_SITE, naming the open visit of the same
 * plate at the same site (`current`): the car is on site under that visit, typically let in by another gate
 * while this one was offline and had not pulled it (the guard's Entry was a scanner's mistake, or the car
 * is leaving). The local visit becomes that visit: it takes its server id, status and entry time, and the
 * refused Entry leaves the outbox (it had no effect, and the visit it meant exists). The visit's later
 * actions (its Exit) then go to that server visit, in order, with their own keys and times. Otherwise
 * the Exit would wait behind a refusal, and a Discard would take it along: the car would stay on site.
 *
 * False, and nothing written, when the refusal is for a person to settle (Needs attention, as any other): another
 * refusal, a visit at another site or of another plate, one no longer open, or one this kiosk already
 * holds as another visit that still owes the server actions (which of the two a guard meant is unknown).
 */
export async function recordEntryOnSite(
  db: KioskDatabase,
  action: OutboxAction,
  error: ActionError,
  current: VehicleCheckin,
  now: number,
): Promise<boolean> {
  if (action.kind !== 'VEHICLE_ENTRY' || error.code !== 'VEHICLE_ALREADY_ON_SITE') return false;
  if (current.siteId !== action.siteId || !isOpenVehicleStatus(current.status)) return false;
  // Only a visit the car was already in when this gate recorded its Entry: one that began later is the car's
  // next visit, and this gate's Entry and Exit are an earlier one the server has not heard of (a person's to
  // settle; adopting it would lose that visit and check the car out of the one it is on now).
  if (Date.parse(current.entry.at) > Date.parse(action.occurredAt)) return false;
  return db.transaction('rw', [db.outbox, db.vehicles], async () => {
    const visit = await db.vehicles.get(action.visitId);
    if (!visit || visit.serverId !== undefined || visit.plateKey !== normalizePlate(current.licensePlate)) return false;
    // A twin pulled meanwhile with nothing queued is folded in below; one with queued actions is a guard's to settle.
    const twins = (await db.vehicles.where('serverId').equals(current.checkinId).toArray()).filter(
      (twin) => twin.visitId !== visit.visitId,
    );
    for (const twin of twins) if ((await actionsOf(db, twin.visitId)).length > 0) return false;
    if ((await stillQueued(db, action).delete()) === 0) return false;
    await foldTwins(db, vehicleVisits, visit.visitId, current.checkinId);
    // The server's spelling of the plate, as a pull would show the visit.
    const adopted = { ...visit, licensePlate: current.licensePlate };
    await db.vehicles.put(vehicleVisits.withServer(adopted, current, await actionsOf(db, visit.visitId), now));
    return true;
  });
}
