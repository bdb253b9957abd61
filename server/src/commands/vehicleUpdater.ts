import { normalizePlate } from '../../../shared/src/domain';
import type { UpdateVehicleRequest, Vehicle } from '../../../shared/src/schemas/vehicles';
import type { Principal } from '../auth/principal';
import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';
import { lockPlate } from './plateLock';
import { siteVisibleSql } from '../policies/siteVisibility';
import { VEHICLE_CHECKIN_COLUMNS, type ListedVehicleCheckinRow } from '../queries/vehicleCheckinRows';
import {
  VEHICLE_COLUMNS,
  type ListedVehicleRow,
  type VehicleRow,
  distinctLabelIds,
  findVehicle,
} from '../queries/vehicleRows';
import { conflict, notFound } from '../errors/problem';
import { presentVehicle } from '../presenters/vehicle';
import { presentVehicleCheckin } from '../presenters/vehicleCheckin';
import { checkVehicleLabels, plateTaken } from './vehicleCreator';

// The vehicle under its row lock, and whether another vehicle holds the plate it is to get.
const lock = (accountId: number, vehicleId: number, plateNorm: string | null) => sql`
  SELECT ${VEHICLE_COLUMNS},
    (SELECT o.id FROM vehicles o
     WHERE o.account_id = v.account_id AND o.plate_norm = ${plateNorm} AND o.deleted_at IS NULL AND o.id <> v.id) AS plate_holder
  FROM vehicles v WHERE v.account_id = ${accountId} AND v.id = ${vehicleId} AND v.deleted_at IS NULL FOR UPDATE OF v`;

// An open visit of the vehicle, by its id or under its plate, at any site; one the token can view first.
// Run after the lock, in a snapshot of its own: a visit whose insert held the vehicle row (FOR SHARE)
// until it committed is seen here.
const openVisit = (vehicle: ListedVehicleRow, principal: Principal) => sql`
  SELECT ${VEHICLE_CHECKIN_COLUMNS}, ${siteVisibleSql(principal, sql`c.site_id`)} AS visible
  FROM vehicle_checkins c
  WHERE c.account_id = ${vehicle.account_id} AND (c.vehicle_id = ${vehicle.id} OR c.plate_norm = ${vehicle.plate_norm})
    AND c.status IN ('IN', 'PENDING')
  ORDER BY visible DESC, c.entry_at DESC, c.id DESC LIMIT 1`;

// The profile and (when the labels were sent) its label set in one statement.
const persist = (next: VehicleRow, labelsSent: boolean) => {
  const account = sql`${next.account_id}::integer`;
  const id = sql`${next.id}::bigint`;
  const labels = sql`${next.label_ids}::int[]`;
  return sql`
  WITH vehicle AS (
    UPDATE vehicles SET license_plate = ${next.license_plate}, plate_norm = ${next.plate_norm}, make = ${next.make},
      model = ${next.model}, color = ${next.color}, description = ${next.description}, updated_at = ${next.updated_at}
    WHERE account_id = ${account} AND id = ${id}),
  dropped AS (
    DELETE FROM vehicle_label_assignments
    WHERE ${labelsSent}::boolean AND account_id = ${account} AND vehicle_id = ${id} AND NOT (label_id = ANY(${labels}))),
  added AS (
    INSERT INTO vehicle_label_assignments (account_id, vehicle_id, label_id)
    SELECT ${account}, ${id}, label FROM unnest(${labels}) AS label WHERE ${labelsSent}::boolean
    ON CONFLICT DO NOTHING)
  SELECT 1 AS ok`;
};

/** `undefined`: leave as is; `null` or empty: clear; else the new value. */
const patched = (sent: string | null | undefined, current: string | null) =>
  sent === undefined ? current : sent || null;

/**
 * A vehicle on site keeps its plate: its open visit holds the plate it arrived under, so a new plate would
 * let the same vehicle in a second time. 409 VEHICLE_ALREADY_ON_SITE, with the visit as `current` when the
 * token may view its site. A respelling (same normalized plate) is not a change.
 */
async function refuseIfOnSite(db: Executor, vehicle: ListedVehicleRow, principal: Principal): Promise<void> {
  const open = await queryOne<ListedVehicleCheckinRow & { visible: boolean }>(db, openVisit(vehicle, principal));
  if (!open) return;
  const { visible, ...visit } = open;
  const where = visible ? `on site ${visit.site_id} (check-in ${visit.id})` : 'on a site';
  throw conflict(
    'VEHICLE_ALREADY_ON_SITE',
    `Vehicle ${vehicle.id} is ${where} under plate ${visit.license_plate}; check it out before changing its plate.`,
    visible ? presentVehicleCheckin(visit) : undefined,
  );
}

/**
 * Changes only the fields sent (`null` clears an optional one): a new plate must be free in the account
 * (409 with its holder) and the vehicle not on site (409 with its visit); new labels must exist (422).
 * 404 for an unknown or deleted vehicle.
 */
export async function updateVehicle(
  db: Executor,
  input: { principal: Principal; vehicleId: number; request: UpdateVehicleRequest; now: Date },
): Promise<Vehicle> {
  const { principal, vehicleId, request, now } = input;
  const { accountId } = principal;
  const plateNorm = request.licensePlate === undefined ? undefined : normalizePlate(request.licensePlate);
  const labelIds = request.labelIds === undefined ? undefined : distinctLabelIds(request.labelIds);
  if (plateNorm !== undefined) await lockPlate(db, accountId, plateNorm);
  const locked = await queryOne<ListedVehicleRow & { plate_holder: number | null }>(
    db,
    lock(accountId, vehicleId, plateNorm ?? null),
  );
  if (!locked) throw notFound(`Vehicle ${vehicleId} does not exist.`);
  // After the 404: the labels of a vehicle that does not exist are not the request's problem.
  if (labelIds) await checkVehicleLabels(db, accountId, labelIds);
  if (locked.plate_holder !== null) {
    const holder = await findVehicle(db, accountId, locked.plate_holder);
    if (holder) throw plateTaken(holder);
  }
  if (plateNorm !== undefined && plateNorm !== locked.plate_norm) await refuseIfOnSite(db, locked, principal);
  const next: VehicleRow = {
    ...locked,
    license_plate: request.licensePlate ?? locked.license_plate,
    plate_norm: plateNorm ?? locked.plate_norm,
    make: patched(request.make, locked.make),
    model: patched(request.model, locked.model),
    color: patched(request.color, locked.color),
    description: patched(request.description, locked.description),
    label_ids: labelIds ?? locked.label_ids,
    updated_at: now,
  };
  await queryOne(db, persist(next, labelIds !== undefined));
  return presentVehicle(next);
}

/** Deletes a vehicle: the row stays (past visits point at it and keep their own plate) and frees its plate. */
export async function deleteVehicle(
  db: Executor,
  input: { accountId: number; vehicleId: number; now: Date },
): Promise<void> {
  const { accountId, vehicleId, now } = input;
  const row = await queryOne<{ id: number }>(
    db,
    sql`WITH gone AS (
          UPDATE vehicles SET deleted_at = ${now}, updated_at = ${now}
          WHERE account_id = ${accountId} AND id = ${vehicleId} AND deleted_at IS NULL RETURNING id),
        unlabeled AS (
          DELETE FROM vehicle_label_assignments WHERE account_id = ${accountId} AND vehicle_id IN (SELECT id FROM gone))
        SELECT id FROM gone`,
  );
  if (!row) throw notFound(`Vehicle ${vehicleId} does not exist.`);
}
