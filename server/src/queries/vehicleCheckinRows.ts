import type { VehicleStatus } from '../../../shared/src/domain/vehicleCheckin';
import { type Executor, queryOne } from '../db/query';
import { raw, sql } from '../db/sql';
import type { VisitRow } from './visitRows';

/** A vehicle check-in (a visit) as stored. `license_plate` is as sent; `plate_norm` is what is compared. */
export interface VehicleCheckinRow extends VisitRow {
  vehicle_id: number | null;
  license_plate: string;
  plate_norm: string;
  status: VehicleStatus;
  driver_name: string | null;
  notes: string | null;
  /** Why a STOP stops (the blocking labels, or the deny's reason); null for other statuses and older STOPs. */
  stop_reason: string | null;
}

/** A row as read, plus the exact (microsecond) entry time that cursors are made of. */
export type ListedVehicleCheckinRow = VehicleCheckinRow & { entry_us: number };

export const VEHICLE_CHECKIN_COLUMNS = raw(`
         c.account_id, c.id, c.site_id, c.vehicle_id, c.license_plate, c.plate_norm, c.status, c.driver_name,
         c.notes, c.entry_source, c.entry_at, c.exit_source, c.exit_at, c.last_event_at, c.deny_reason,
         c.decided_by, c.decided_at, c.stop_source, c.stopped_at,
         c.stop_reason, c.created_at, c.updated_at, (extract(epoch FROM c.entry_at) * 1000000)::bigint AS entry_us`);

export interface VehicleCheckinKey {
  accountId: number;
  siteId: number;
  checkinId: number;
}

/** One vehicle check-in of one site, or undefined. */
export async function findVehicleCheckin(
  db: Executor,
  key: VehicleCheckinKey,
): Promise<ListedVehicleCheckinRow | undefined> {
  return queryOne<ListedVehicleCheckinRow>(
    db,
    sql`SELECT ${VEHICLE_CHECKIN_COLUMNS} FROM vehicle_checkins c
        WHERE c.account_id = ${key.accountId} AND c.site_id = ${key.siteId} AND c.id = ${key.checkinId}`,
    { prepare: true },
  );
}

/** A vehicle check-in as a transition starts from, with its row version (`xmin`): the write applies only to it. */
export async function readVehicleCheckinForChange(
  db: Executor,
  key: VehicleCheckinKey,
): Promise<{ row: ListedVehicleCheckinRow; version: string } | undefined> {
  const found = await queryOne<ListedVehicleCheckinRow & { version: string }>(
    db,
    sql`SELECT ${VEHICLE_CHECKIN_COLUMNS}, c.xmin::text AS version FROM vehicle_checkins c
        WHERE c.account_id = ${key.accountId} AND c.site_id = ${key.siteId} AND c.id = ${key.checkinId}`,
    { prepare: true },
  );
  if (!found) return undefined;
  const { version, ...row } = found;
  return { row, version };
}

/** The open visit (IN or PENDING) of a plate at a site: there is at most one (a unique index says so). */
export async function findOpenVehicleCheckin(
  db: Executor,
  input: { accountId: number; siteId: number; plateNorm: string },
): Promise<ListedVehicleCheckinRow | undefined> {
  return queryOne<ListedVehicleCheckinRow>(
    db,
    sql`SELECT ${VEHICLE_CHECKIN_COLUMNS} FROM vehicle_checkins c
        WHERE c.account_id = ${input.accountId} AND c.site_id = ${input.siteId} AND c.plate_norm = ${input.plateNorm}
          AND c.status IN ('IN', 'PENDING')`,
    { prepare: true },
  );
}
