import {
  decideVehicleEntry,
  isOpenVehicleStatus,
  normalizePlate,
  plateProblem,
  transitionVehicle,
} from '../../../shared/src/domain';
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

/** What the kiosk's copy of the account's vehicles says about a plate: the input of the shared Entry rule. */
export interface PlateStanding {
  registered: boolean;
  blockingLabelNames: readonly string[];
}

/** Where the kiosk finds a plate's standing (its copy of the account's vehicles), by normalized plate. */
export type PlateLookup = (plateKey: string) => Promise<PlateStanding>;

/** The server's limits on a visit's driver name and a refusal's reason (the shared request schemas). */
const DRIVER_NAME_MAX = 200;
const REASON_MAX = 500;

/**
 * A vehicle arrives at the gate. One open visit per plate per site (the server's rule, predicted here so
 * the guard hears it at once). The status shown until the server decides is the shared rule's prediction
 * from the kiosk's copy of the vehicles: registered → IN, blocked by a label → STOP with its reason,
 * unknown → PENDING (a guard admits or refuses it).
 */
export async function vehicleEntry(
  ctx: CommandContext,
  siteId: number,
  licensePlate: string,
  details: { driverName?: string; lookup?: PlateLookup } = {},
): Promise<CommandResult<VehicleVisit>> {
  const { db } = ctx;
  const plate = licensePlate.trim();
  const problem = plateProblem(plate);
  if (problem) return refused('VALIDATION_FAILED', problem, [{ path: 'licensePlate', message: problem }]);
  const driverName = details.driverName?.trim() ?? '';
  if (driverName.length > DRIVER_NAME_MAX) {
    const message = `A driver name has at most ${DRIVER_NAME_MAX} characters.`;
    return refused('VALIDATION_FAILED', message, [{ path: 'driverName', message }]);
  }
  const plateKey = normalizePlate(plate);
  // Read before the transaction: the copy of the vehicles is a table of its own, and a guess needs no lock.
  const prediction = decideVehicleEntry(
    (await details.lookup?.(plateKey)) ?? { registered: false, blockingLabelNames: [] },
  );
  const result = await db.transaction(
    'rw',
    [db.outbox, db.vehicles],
    async (): Promise<CommandResult<VehicleVisit>> => {
      const open = (await unclosedVisits(db, siteId, plateKey)).find((visit) => isOpenVehicleStatus(visit.status));
      if (open) return refused('VEHICLE_ALREADY_ON_SITE', `${open.plateKey} is already on site (${open.status}).`);
      const { at, deviceAt } = readStamp(ctx);
      const occurredAt = new Date(at).toISOString();
      const visitId = ctx.randomUUID();
      const visit: VehicleVisit = {
        visitId,
        siteId,
        licensePlate: plate,
        plateKey,
        status: prediction.status,
        stopReason: prediction.stopReason,
        driverName: driverName === '' ? null : driverName,
        entryAt: occurredAt,
        exitAt: null,
        lastEventAt: occurredAt,
        predicted: prediction.status,
        predictedStopReason: prediction.stopReason,
        confirmed: null,
        syncedAt: 0,
      };
      await db.vehicles.add(visit);
      const body = { licensePlate: plate, ...(driverName === '' ? {} : { driverName }), occurredAt };
      await db.outbox.add({ ...queued(ctx, { visitId, siteId, occurredAt, deviceAt }), kind: 'VEHICLE_ENTRY', body });
      return { ok: true, value: visit };
    },
  );
  if (result.ok) ctx.onEnqueued?.();
  return result;
}

/** A guard's decision on a PENDING vehicle: Admit (→ IN), or Refuse (→ STOP) with an optional reason. */
export type GateDecision = { type: 'APPROVE' } | { type: 'DENY'; reason?: string };

/**
 * Admit or Refuse, queued like any action of the visit: after its Entry (also one made offline, whose
 * server id is not known yet), with its own key and time. Refused at once unless the visit is PENDING as
 * the kiosk shows it.
 */
export async function vehicleDecide(
  ctx: CommandContext,
  visitId: string,
  decision: GateDecision,
): Promise<CommandResult<VehicleVisit>> {
  const { db } = ctx;
  const reason = decision.type === 'DENY' ? (decision.reason?.trim() ?? '') : '';
  if (reason.length > REASON_MAX) {
    const message = `A reason has at most ${REASON_MAX} characters.`;
    return refused('VALIDATION_FAILED', message, [{ path: 'reason', message }]);
  }
  const result = await db.transaction(
    'rw',
    [db.outbox, db.vehicles],
    async (): Promise<CommandResult<VehicleVisit>> => {
      const visit = await db.vehicles.get(visitId);
      if (!visit) return refused('NOT_FOUND', 'This visit is not on this kiosk.');
      const stamp = readStamp(ctx);
      const at = new Date(stamp.at);
      const check = transitionVehicle(
        { status: visit.status, lastEventAt: new Date(visit.lastEventAt) },
        { type: decision.type, occurredAt: at },
        at,
      );
      if (!check.ok) return refused(check.code, `${visit.plateKey} is not waiting for a decision (${visit.status}).`);
      const occurredAt = at.toISOString();
      const fields = queued(ctx, { visitId, siteId: visit.siteId, occurredAt, deviceAt: stamp.deviceAt });
      if (decision.type === 'APPROVE')
        await db.outbox.add({ ...fields, kind: 'VEHICLE_APPROVE', body: { occurredAt } });
      else
        await db.outbox.add({
          ...fields,
          kind: 'VEHICLE_DENY',
          body: { ...(reason === '' ? {} : { reason }), occurredAt },
        });
      const refreshed = await refreshVisit(db, vehicleVisits, visitId);
      return refreshed ? { ok: true, value: refreshed } : refused('NOT_FOUND', 'This visit is not on this kiosk.');
    },
  );
  if (result.ok) ctx.onEnqueued?.();
  return result;
}

/** A vehicle leaves: checks out the given visit. */
export async function vehicleExit(ctx: CommandContext, visitId: string): Promise<CommandResult<VehicleVisit>> {
  const { db } = ctx;
  const result = await db.transaction(
    'rw',
    [db.outbox, db.vehicles],
    async (): Promise<CommandResult<VehicleVisit>> => {
      const visit = await db.vehicles.get(visitId);
      if (!visit) return refused('NOT_FOUND', 'This visit is not on this kiosk.');
      const stamp = readStamp(ctx);
      const at = new Date(stamp.at);
      const decision = transitionVehicle(
        { status: visit.status, lastEventAt: new Date(visit.lastEventAt) },
        { type: 'CHECKOUT', occurredAt: at },
        at,
      );
      if (!decision.ok) return refused(decision.code, decision.message);
      const occurredAt = at.toISOString();
      const fields = { visitId, siteId: visit.siteId, occurredAt, deviceAt: stamp.deviceAt };
      await db.outbox.add({ ...queued(ctx, fields), kind: 'VEHICLE_EXIT', body: { occurredAt } });
      const refreshed = await refreshVisit(db, vehicleVisits, visitId);
      return refreshed ? { ok: true, value: refreshed } : refused('NOT_FOUND', 'This visit is not on this kiosk.');
    },
  );
  if (result.ok) ctx.onEnqueued?.();
  return result;
}

/** The plate's visit the gate would close, from local data only. */
export async function findLocalVehicleVisit(
  db: KioskDatabase,
  siteId: number,
  licensePlate: string,
): Promise<VehicleVisit | undefined> {
  return (await unclosedVisits(db, siteId, normalizePlate(licensePlate)))[0];
}

/** Makes a visit found on the server (by plate search) local, so an exit can be queued for it. */
export async function adoptVehicleVisit(
  db: KioskDatabase,
  checkin: VehicleCheckin,
  now: number,
): Promise<VehicleVisit> {
  return db.transaction('rw', [db.vehicles], async () => {
    const known = await db.vehicles.where('serverId').equals(checkin.checkinId).first();
    if (known) return known;
    const visit = vehicleVisitFromServer(checkin, now);
    await db.vehicles.put(visit);
    return visit;
  });
}
