import { type Executor, queryOne, queryRows } from '../db/query';
import { raw, sql } from '../db/sql';

/** A vehicle profile as stored, with its label ids (ascending). Deleted vehicles are never read as profiles. */
export interface VehicleRow {
  account_id: number;
  id: number;
  license_plate: string;
  plate_norm: string;
  make: string | null;
  model: string | null;
  color: string | null;
  description: string | null;
  label_ids: number[];
  created_at: Date;
  updated_at: Date;
}

/** A vehicle label as stored. */
export interface VehicleLabelRow {
  id: number;
  name: string;
  color: string | null;
  blocks_entry: boolean;
  created_at: Date;
  updated_at: Date;
}

/** A row as read, plus the exact (microsecond) creation time that list cursors are made of. */
export type ListedVehicleRow = VehicleRow & { created_us: number };

/** The columns every read uses: the labels come along in the same statement (no N+1). */
export const VEHICLE_COLUMNS = raw(`
         v.account_id, v.id, v.license_plate, v.plate_norm, v.make, v.model, v.color, v.description,
         v.created_at, v.updated_at, (extract(epoch FROM v.created_at) * 1000000)::bigint AS created_us,
         ARRAY(SELECT a.label_id FROM vehicle_label_assignments a
               WHERE a.account_id = v.account_id AND a.vehicle_id = v.id ORDER BY a.label_id) AS label_ids`);

/** One vehicle of the account that is not deleted, or undefined. */
export async function findVehicle(
  db: Executor,
  accountId: number,
  vehicleId: number,
): Promise<ListedVehicleRow | undefined> {
  return queryOne<ListedVehicleRow>(
    db,
    sql`SELECT ${VEHICLE_COLUMNS} FROM vehicles v WHERE v.account_id = ${accountId} AND v.id = ${vehicleId} AND v.deleted_at IS NULL`,
  );
}

/** The vehicle that holds a (normalized) plate in the account, or undefined. */
export async function findVehicleByPlate(
  db: Executor,
  accountId: number,
  plateNorm: string,
): Promise<ListedVehicleRow | undefined> {
  return queryOne<ListedVehicleRow>(
    db,
    sql`SELECT ${VEHICLE_COLUMNS} FROM vehicles v
        WHERE v.account_id = ${accountId} AND v.plate_norm = ${plateNorm} AND v.deleted_at IS NULL`,
  );
}

/**
 * How many of these vehicle label ids exist in the account, each locked (KEY SHARE) until commit so a label
 * deleted meanwhile waits instead of breaking the assignment about to be written.
 */
export async function countKnownLabels(db: Executor, accountId: number, labelIds: number[]): Promise<number> {
  if (labelIds.length === 0) return 0;
  const rows = await queryRows<{ id: number }>(
    db,
    sql`SELECT id FROM vehicle_labels WHERE account_id = ${accountId} AND id = ANY(${labelIds}::bigint[]) FOR KEY SHARE`,
  );
  return rows.length;
}

/** Label ids as a set, in the order a vehicle presents them. */
export const distinctLabelIds = (labelIds: readonly number[] | null | undefined): number[] =>
  [...new Set(labelIds ?? [])].sort((a, b) => a - b);
