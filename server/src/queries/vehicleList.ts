import type { Vehicle } from '../../../shared/src/schemas/vehicles';
import { type Executor, queryRows } from '../db/query';
import { type ListedVehicleRow, VEHICLE_COLUMNS } from '../db/vehicleRows';
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
export async function listVehicles(db: Executor, filter: VehicleListFilter): Promise<{ data: Vehicle[]; nextCursor: string | null }> {
  const bind: unknown[] = [filter.accountId];
  const param = (value: unknown) => {
    bind.push(value);
    return `$${bind.length}`;
  };
  const where = ['v.account_id = $1', 'v.deleted_at IS NULL'];
  if (filter.plateNorm !== undefined) where.push(`v.plate_norm = ${param(filter.plateNorm)}`);
  if (filter.labelId !== undefined) {
    where.push(`EXISTS (SELECT 1 FROM vehicle_label_assignments a
                        WHERE a.account_id = v.account_id AND a.vehicle_id = v.id AND a.label_id = ${param(filter.labelId)})`);
  }
  const scope = filterScope('vehicles', filter);
  if (filter.cursor) {
    const position = decodeCursor(filter.cursor, scope);
    bind.push(position.atMicros, position.id);
    where.push(afterCursorSql('v.created_at', 'v.id', bind.length - 1, bind.length));
  }
  const rows = await queryRows<ListedVehicleRow>(
    db,
    `SELECT ${VEHICLE_COLUMNS} FROM vehicles v WHERE ${where.join(' AND ')}
     ORDER BY v.created_at DESC, v.id DESC LIMIT ${param(filter.limit + 1)}`,
    bind,
  );
  return toPage<ListedVehicleRow, Vehicle>(rows, filter.limit, presentVehicle, (row) => ({ atMicros: row.created_us, id: row.id }), scope);
}
