import { normalizePlate } from '../../../shared/src/domain';
import type { UpdateVehicleRequest, Vehicle } from '../../../shared/src/schemas/vehicles';
import { type Executor, queryOne } from '../db/query';
import { VEHICLE_COLUMNS, type ListedVehicleRow, type VehicleRow, distinctLabelIds, findVehicle, lockPlate } from '../db/vehicleRows';
import { notFound } from '../errors/problem';
import { presentVehicle } from '../presenters/vehicle';
import { checkVehicleLabels, plateTaken } from './vehicleCreator';

// The vehicle under its row lock, and whether another vehicle holds the plate it is to get.
const LOCK = `
  SELECT ${VEHICLE_COLUMNS},
    (SELECT o.id FROM vehicles o
     WHERE o.account_id = v.account_id AND o.plate_norm = $3 AND o.deleted_at IS NULL AND o.id <> v.id) AS plate_holder
  FROM vehicles v WHERE v.account_id = $1 AND v.id = $2 AND v.deleted_at IS NULL FOR UPDATE OF v`;

// The profile and (when $10 says so) its label set in one statement.
const PERSIST = `
  WITH vehicle AS (
    UPDATE vehicles SET license_plate = $3, plate_norm = $4, make = $5, model = $6, color = $7, description = $8,
      updated_at = $9
    WHERE account_id = $1 AND id = $2),
  dropped AS (
    DELETE FROM vehicle_label_assignments
    WHERE $10 AND account_id = $1 AND vehicle_id = $2 AND NOT (label_id = ANY($11::int[]))),
  added AS (
    INSERT INTO vehicle_label_assignments (account_id, vehicle_id, label_id)
    SELECT $1, $2, label FROM unnest($11::int[]) AS label WHERE $10
    ON CONFLICT DO NOTHING)
  SELECT 1 AS ok`;

/** `undefined`: leave as is; `null` or empty: clear; else the new value. */
const patched = (sent: string | null | undefined, current: string | null) => (sent === undefined ? current : sent || null);

/**
 * Changes only the fields sent (`null` clears an optional one): a new plate must be free in the account
 * (409 with its holder), new labels must exist (422). 404 for an unknown or deleted vehicle.
 */
export async function updateVehicle(
  db: Executor,
  input: { accountId: number; vehicleId: number; request: UpdateVehicleRequest; now: Date },
): Promise<Vehicle> {
  const { accountId, vehicleId, request, now } = input;
  const plateNorm = request.licensePlate === undefined ? undefined : normalizePlate(request.licensePlate);
  const labelIds = request.labelIds === undefined ? undefined : distinctLabelIds(request.labelIds);
  if (labelIds) await checkVehicleLabels(db, accountId, labelIds);
  if (plateNorm !== undefined) await lockPlate(db, accountId, plateNorm);
  const locked = await queryOne<ListedVehicleRow & { plate_holder: number | null }>(db, LOCK, [accountId, vehicleId, plateNorm ?? null]);
  if (!locked) throw notFound(`Vehicle ${vehicleId} does not exist.`);
  if (locked.plate_holder !== null) {
    const holder = await findVehicle(db, accountId, locked.plate_holder);
    if (holder) throw plateTaken(holder);
  }
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
  await queryOne(db, PERSIST, [
    accountId, vehicleId, next.license_plate, next.plate_norm, next.make, next.model, next.color, next.description, now,
    labelIds !== undefined, next.label_ids,
  ]);
  return presentVehicle(next);
}
