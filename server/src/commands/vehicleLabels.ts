import type {
  CreateVehicleLabelRequest,
  UpdateVehicleLabelRequest,
  VehicleLabel,
} from '../../../shared/src/schemas/vehicles';
import { LockNamespace } from '../db/advisoryLocks';
import { type Executor, queryOne } from '../db/query';
import { raw, sql } from '../db/sql';
import type { VehicleLabelRow } from '../queries/vehicleRows';
import { notFound } from '../errors/problem';
import { presentVehicleLabel as present } from '../presenters/vehicle';
import { type LabelKind, claimLabelName } from './labelNames';

const COLUMNS = 'id, name, color, blocks_entry, created_at, updated_at';

/** The account's vehicle labels, for the list and read routes. */
export const vehicleLabels: LabelKind<VehicleLabelRow> = {
  table: 'vehicle_labels',
  columns: COLUMNS,
  lock: LockNamespace.VEHICLE_LABEL_NAME,
  noun: 'vehicle label',
  present,
};

const missing = (labelId: number) => notFound(`Vehicle label ${labelId} does not exist.`);

/** A new label, its name unique in the account whatever its case (409 LABEL_NAME_TAKEN). */
export async function createVehicleLabel(
  db: Executor,
  input: { accountId: number; request: CreateVehicleLabelRequest; now: Date },
): Promise<VehicleLabel> {
  const { accountId, request, now } = input;
  await claimLabelName(db, vehicleLabels, accountId, request.name);
  const row = await queryOne<VehicleLabelRow>(
    db,
    sql`INSERT INTO vehicle_labels (account_id, name, color, blocks_entry, created_at, updated_at)
        VALUES (${accountId}, ${request.name}, ${request.color ?? null}, ${request.blocksEntry ?? false}, ${now}, ${now})
        RETURNING ${raw(COLUMNS)}`,
  );
  if (!row) throw new Error('label insert returned nothing');
  return present(row);
}

/** Changes the fields sent (`color: null` clears it). */
export async function updateVehicleLabel(
  db: Executor,
  input: { accountId: number; labelId: number; request: UpdateVehicleLabelRequest; now: Date },
): Promise<VehicleLabel> {
  const { accountId, labelId, request, now } = input;
  if (request.name !== undefined) await claimLabelName(db, vehicleLabels, accountId, request.name, labelId);
  const row = await queryOne<VehicleLabelRow>(
    db,
    sql`UPDATE vehicle_labels
        SET name = COALESCE(${request.name ?? null}, name),
            color = CASE WHEN ${request.color !== undefined}::boolean THEN ${request.color ?? null} ELSE color END,
            blocks_entry = COALESCE(${request.blocksEntry ?? null}::boolean, blocks_entry), updated_at = ${now}
        WHERE account_id = ${accountId} AND id = ${labelId} RETURNING ${raw(COLUMNS)}`,
  );
  if (!row) throw missing(labelId);
  return present(row);
}

/** Deletes a label; its assignments go with it (ON DELETE CASCADE). */
export async function deleteVehicleLabel(db: Executor, input: { accountId: number; labelId: number }): Promise<void> {
  const row = await queryOne<{ id: number }>(
    db,
    sql`DELETE FROM vehicle_labels WHERE account_id = ${input.accountId} AND id = ${input.labelId} RETURNING id`,
  );
  if (!row) throw missing(input.labelId);
}
