import { isOpenVehicleStatus, normalizePlate, plateProblem, transitionVehicle } from '../../../shared/src/domain';
import type { VehicleCheckin } from '../../../shared/src/schemas/vehicles';
import type { KioskDatabase } from './database';
import { type CommandContext, type CommandResult, queued, readStamp, refused } from './command';
import type { VehicleVisit } from './types';
import { refreshVisit, vehicleVisits } from './visitKinds';
import { vehicleVisitFromServer } from './visits';

/** The visits of a plate on a site that are not over, open ones (IN, PENDING) first. */
async function unclosedVisits(db: KioskDatabase, siteId: number, plateKey: string): Promise<VehicleVisit[]> {
  const visits = await db.vehicles.where('[siteId+plateKey]').equals([siteId, plateKey]).toArray();
  return visits
    .filter((visit) => visit.status !== 'OUT')
    .sort((a, b) => Number(isOpenVehicleStatus(b.status)) - Number(isOpenVehicleStatus(a.status)));
}

/**
 * A vehicle arrives at the gate. One open visit per plate per site (the server's rule, predicted here so
 * the guard hears it at once). Until the server decides (registered → IN, unknown → PENDING, blocked →
 * STOP) the visit shows PENDING.
 */
export async function vehicleEntry(ctx: CommandContext, siteId: number, licensePlate: string): Promise<CommandResult<VehicleVisit>> {
  const { db } = ctx;
  const plate = licensePlate.trim();
  const problem = plateProblem(plate);
  if (problem) return refused('VALIDATION_FAILED', problem, [{ path: 'licensePlate', message: problem }]);
  const plateKey = normalizePlate(plate);
  const result = await db.transaction('rw', [db.outbox, db.vehicles], async (): Promise<CommandResult<VehicleVisit>> => {
    const open = (await unclosedVisits(db, siteId, plateKey)).find((visit) => isOpenVehicleStatus(visit.status));
    if (open) return refused('VEHICLE_ALREADY_ON_SITE', `${open.licensePlate} is already on site (${open.status}).`);
    const { at, deviceAt } = readStamp(ctx);
    const occurredAt = new Date(at).toISOString();
    const visitId = ctx.randomUUID();
    const visit: VehicleVisit = {
      visitId,
      siteId,
      licensePlate: plate,
      plateKey,
      status: 'PENDING',
      entryAt: occurredAt,
      exitAt: null,
      lastEventAt: occurredAt,
      predicted: 'PENDING',
      confirmed: null,
      syncedAt: 0,
    };
    await db.vehicles.add(visit);
    await db.outbox.add({ ...queued(ctx, { visitId, siteId, occurredAt, deviceAt }), kind: 'VEHICLE_ENTRY', body: { licensePlate: plate, occurredAt } });
    return { ok: true, value: visit };
  });
  if (result.ok) ctx.onEnqueued?.();
  return result;
}

/** A vehicle leaves: checks out the given visit. */
export async function vehicleExit(ctx: CommandContext, visitId: string): Promise<CommandResult<VehicleVisit>> {
  const { db } = ctx;
  const result = await db.transaction('rw', [db.outbox, db.vehicles], async (): Promise<CommandResult<VehicleVisit>> => {
    const visit = await db.vehicles.get(visitId);
    if (!visit) return refused('NOT_FOUND', 'This visit is not on this kiosk.');
    const stamp = readStamp(ctx);
    const at = new Date(stamp.at);
    const decision = transitionVehicle({ status: visit.status, lastEventAt: new Date(visit.lastEventAt) }, { type: 'CHECKOUT', occurredAt: at }, at);
    if (!decision.ok) return refused(decision.code, decision.message);
    const occurredAt = at.toISOString();
    const fields = { visitId, siteId: visit.siteId, occurredAt, deviceAt: stamp.deviceAt };
    await db.outbox.add({ ...queued(ctx, fields), kind: 'VEHICLE_EXIT', body: { occurredAt } });
    const refreshed = await refreshVisit(db, vehicleVisits, visitId);
    return refreshed ? { ok: true, value: refreshed } : refused('NOT_FOUND', 'This visit is not on this kiosk.');
  });
  if (result.ok) ctx.onEnqueued?.();
  return result;
}

/** The plate's visit the gate would close, from local data only. */
export async function findLocalVehicleVisit(db: KioskDatabase, siteId: number, licensePlate: string): Promise<VehicleVisit | undefined> {
  return (await unclosedVisits(db, siteId, normalizePlate(licensePlate)))[0];
}

/** Makes a visit found on the server (by plate search) local, so an exit can be queued for it. */
export async function adoptVehicleVisit(db: KioskDatabase, checkin: VehicleCheckin, now: number): Promise<VehicleVisit> {
  return db.transaction('rw', [db.vehicles], async () => {
    const known = await db.vehicles.where('serverId').equals(checkin.checkinId).first();
    if (known) return known;
    const visit = vehicleVisitFromServer(checkin, now);
    await db.vehicles.put(visit);
    return visit;
  });
}
