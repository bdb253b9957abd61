import type { Vehicle } from '../../../shared/src/schemas/vehicles';
import { type Executor, queryRows } from '../db/query';
import { type Sql, join, sql } from '../db/sql';
import { type ListedVehicleRow, VEHICLE_COLUMNS } from './vehicleRows';
import { presentVehicle } from '../presenters/vehicle';
import { afterCursorSql, decodeCursor, filterScope, toPage } from './cursor';

export interface VehicleListFilter {
  accountId: number;
  /** Normalized plate: the one vehicle that holds it, if any. */
  plateNorm?: string;
  labelId?: number;
  limit: number;
  cursor?: string;
}

/** One keyset page of the account's vehicles (deleted ones never), newest first. */
export async function listVehicles(
  db: Executor,
  filter: VehicleListFilter,
): Promise<{ data: Vehicle[]; nextCursor: string | null }> {
  const where: Sql[] = [sql`v.account_id = ${filter.accountId}`, sql`v.deleted_at IS NULL`];
  if (filter.plateNorm !== undefined) where.push(sql`v.plate_norm = ${filter.plateNorm}`);
  if (filter.labelId !== undefined) {
    where.push(sql`EXISTS (SELECT 1 FROM vehicle_label_assignments a
                           WHERE a.account_id = v.account_id AND a.vehicle_id = v.id AND a.label_id = ${filter.labelId})`);
  }
  const scope = filterScope('vehicles', filter);
  if (filter.cursor) where.push(afterCursorSql(sql`v.created_at`, sql`v.id`, decodeCursor(filter.cursor, scope)));
  const rows = await queryRows<ListedVehicleRow>(
    db,
    sql`SELECT ${VEHICLE_COLUMNS} FROM vehicles v WHERE ${join(where, ' AND ')}
        ORDER BY v.created_at DESC, v.id DESC LIMIT ${filter.limit + 1}`,
  );
  return toPage<ListedVehicleRow, Vehicle>(
    rows,
    filter.limit,
    presentVehicle,
    (row) => ({ atMicros: row.created_us, id: row.id }),
    scope,
  );
}
