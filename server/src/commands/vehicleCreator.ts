import { normalizePlate } from '../../../shared/src/domain';
import type { CreateVehicleRequest, Vehicle } from '../../../shared/src/schemas/vehicles';
import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';
import { lockPlate } from './plateLock';
import { type VehicleRow, countKnownLabels, distinctLabelIds, findVehicleByPlate } from '../queries/vehicleRows';
import { conflict, validationFailed } from '../errors/problem';
import { presentVehicle } from '../presenters/vehicle';

// The vehicle and its labels in one statement. ON CONFLICT keeps the transaction usable, so the 409 can be
// stored for an Idempotency-Key; the labels are only written when the vehicle was.
const insert = (row: Omit<VehicleRow, 'id'>) => sql`
  WITH vehicle AS (
    INSERT INTO vehicles (account_id, license_plate, plate_norm, make, model, color, description, created_at, updated_at)
    VALUES (${row.account_id}, ${row.license_plate}, ${row.plate_norm}, ${row.make}, ${row.model}, ${row.color},
            ${row.description}, ${row.created_at}, ${row.updated_at})
    ON CONFLICT (account_id, plate_norm) WHERE deleted_at IS NULL DO NOTHING
    RETURNING id),
  labels AS (
    INSERT INTO vehicle_label_assignments (account_id, vehicle_id, label_id)
    SELECT ${row.account_id}, vehicle.id, label FROM vehicle, unnest(${row.label_ids}::int[]) AS label)
  SELECT id FROM vehicle`;

/** 409 LICENSE_PLATE_TAKEN with the vehicle that holds the plate. */
export const plateTaken = (holder: VehicleRow) =>
  conflict(
    'LICENSE_PLATE_TAKEN',
    `Vehicle ${holder.id} already has license plate ${holder.license_plate}.`,
    presentVehicle(holder),
  );

/** 422 naming `labelIds` when any of them is not a vehicle label of the account. */
export async function checkVehicleLabels(db: Executor, accountId: number, labelIds: number[]): Promise<void> {
  if ((await countKnownLabels(db, accountId, labelIds)) !== labelIds.length) {
    throw validationFailed([{ path: 'labelIds', message: 'Unknown vehicle label id(s)' }]);
  }
}

/** Registers a vehicle: its plate is free in the account (else 409 with the holder), its labels exist (else 422). */
export async function createVehicle(
  db: Executor,
  input: { accountId: number; request: CreateVehicleRequest; now: Date },
): Promise<Vehicle> {
  const { accountId, request, now } = input;
  const plateNorm = normalizePlate(request.licensePlate);
  const labelIds = distinctLabelIds(request.labelIds);
  await checkVehicleLabels(db, accountId, labelIds);
  await lockPlate(db, accountId, plateNorm);
  const row: Omit<VehicleRow, 'id'> = {
    account_id: accountId,
    license_plate: request.licensePlate,
    plate_norm: plateNorm,
    make: request.make || null,
    model: request.model || null,
    color: request.color || null,
    description: request.description || null,
    label_ids: labelIds,
    created_at: now,
    updated_at: now,
  };
  // A delete does not take the plate's lock (nor does a re-plate of the holder, which locks only its new
  // plate): the holder the insert ran into may be gone before it is read. The plate is free then, and the
  // insert goes again (once: no other create or re-plate can take the plate while this one holds its lock).
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const inserted = await queryOne<{ id: number }>(db, insert(row));
    if (inserted) return presentVehicle({ ...row, id: inserted.id });
    const holder = await findVehicleByPlate(db, accountId, plateNorm);
    if (holder) throw plateTaken(holder);
  }
  throw new Error('license plate conflict without a vehicle, twice');
}
