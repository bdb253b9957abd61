import type { VehicleStatus } from '../../../shared/src/domain/vehicleCheckin';
import { kioskVisibleSql } from '../policies/kioskWindow';
import type { VehicleCheckin } from '../../../shared/src/schemas/vehicles';
import { type ListedVehicleCheckinRow, VEHICLE_CHECKIN_COLUMNS } from '../db/vehicleCheckinRows';
import { type Executor, queryRows } from '../db/query';
import { type Sql, join, raw, sql } from '../db/sql';
import { presentVehicleCheckin } from '../presenters/vehicleCheckin';
import { type KeysetPosition, afterCursorSql, decodeCursor, filterScope, toPage } from './cursor';
import { overlapPartsSql, overlapSql } from './visitFilters';

export interface VehicleCheckinFilter {
  accountId: number;
  /** undefined: every site of the account (an all-sites token); else only these (may be empty: nothing). */
  siteIds?: number[];
  /** Normalized plate: that plate's visits only, its open ones (IN, PENDING) first. */
  plateNorm?: string;
  status?: VehicleStatus[];
  from?: Date;
  to?: Date;
  /** Visits that overlap [overlapsFrom, overlapsTo): entered before its end, left after its start or not yet. */
  overlapsFrom?: Date;
  overlapsTo?: Date;
  /** A kiosk's window: only visits on site now or whose last event is since then (policies/kioskWindow.ts). */
  kioskSince?: Date;
  limit: number;
  cursor?: string;
}

/** The list cursors of vehicle check-ins belong to (with their filters): site lists and the search. */
const LIST = 'vehicle_checkins';

const NOT_OUT: VehicleStatus[] = ['IN', 'PENDING', 'STOP'];
const OPEN = sql`c.status IN ('IN', 'PENDING')`;
/** Sort groups of a plate search: its open visits, then the rest (each newest entry first). */
const OPEN_GROUP = 0;
const REST_GROUP = 1;

type Row = ListedVehicleCheckinRow & { sort_group: number };

/**
 * The statement for one keyset page (limit + 1 rows), newest entry first. By plate, the page is two index
 * range reads on (account, plate, entry time) glued together, open visits first, with the group in the
 * cursor. Every filter is a bind parameter. Separate from running it so the benchmark can EXPLAIN it. With
 * the scope its cursors belong to (read once, for the cursor taken and the one given).
 */
export function vehicleCheckinSearchSql(filter: VehicleCheckinFilter): { statement: Sql; scope: string } {
  // A kiosk's window moves with the clock: its cursors belong to "a kiosk's list", not to one instant.
  const { kioskSince, ...scoped } = filter;
  const scope = filterScope(LIST, kioskSince === undefined ? scoped : { ...scoped, kiosk: true });
  const where: Sql[] = [sql`c.account_id = ${filter.accountId}`];
  if (filter.siteIds !== undefined) {
    where.push(
      filter.siteIds.length === 1
        ? sql`c.site_id = ${filter.siteIds[0]}`
        : sql`c.site_id = ANY(${filter.siteIds}::int[])`,
    );
  }
  if (filter.plateNorm !== undefined) where.push(sql`c.plate_norm = ${filter.plateNorm}`);
  if (filter.status?.length) {
    where.push(sql`c.status = ANY(${filter.status}::text[])`);
    // Lets the planner use the not-OUT partial indexes when no closed visit can match.
    if (filter.status.every((status) => NOT_OUT.includes(status))) where.push(sql`c.status <> 'OUT'`);
  }
  if (filter.kioskSince) where.push(kioskVisibleSql('vehicle', filter.kioskSince));
  if (filter.from) where.push(sql`c.entry_at >= ${filter.from}`);
  if (filter.to) where.push(sql`c.entry_at <= ${filter.to}`);
  // An empty cursor is malformed (400), not absent.
  const position: KeysetPosition | undefined =
    filter.cursor === undefined ? undefined : decodeCursor(filter.cursor, scope);
  const after = position ? afterCursorSql(sql`c.entry_at`, sql`c.id`, position) : undefined;
  const limit = filter.limit + 1;
  const overlaps = filter.overlapsFrom !== undefined || filter.overlapsTo !== undefined;
  // An open end is the beginning or the end of time.
  const start = filter.overlapsFrom ? sql`${filter.overlapsFrom}::timestamptz` : sql`'-infinity'::timestamptz`;
  const end = filter.overlapsTo ? sql`${filter.overlapsTo}::timestamptz` : sql`'infinity'::timestamptz`;
  // By plate, the plate index narrows enough: the overlap is one more condition.
  if (overlaps && filter.plateNorm !== undefined) where.push(overlapSql(start, end));
  const branch = (group: number, condition: Sql | undefined, keyset: boolean) =>
    sql`SELECT ${VEHICLE_CHECKIN_COLUMNS}, ${raw(String(group))} AS sort_group FROM vehicle_checkins c
     WHERE ${join([...where, ...(condition ? [condition] : []), ...(keyset && after ? [after] : [])], ' AND ')}
     ORDER BY c.entry_at DESC, c.id DESC LIMIT ${limit}`;
  if (filter.plateNorm === undefined && overlaps) {
    // Each part of the overlap is read from its own index, then merged.
    const parts = overlapPartsSql(start, end).map((part) => sql`(${branch(REST_GROUP, part, true)})`);
    const statement = sql`SELECT * FROM (${join(parts, ' UNION ALL ')}) AS page ORDER BY entry_at DESC, id DESC LIMIT ${limit}`;
    return { statement, scope };
  }
  if (filter.plateNorm === undefined) return { statement: branch(REST_GROUP, undefined, true), scope };
  // A cursor in the second group (or one from a list without plate) has left the open visits behind.
  const inRest = position !== undefined && (position.group ?? REST_GROUP) !== OPEN_GROUP;
  const rest = sql`(${branch(REST_GROUP, sql`NOT (${OPEN})`, inRest)})`;
  const statement = inRest
    ? rest
    : sql`SELECT * FROM ((${branch(OPEN_GROUP, OPEN, true)}) UNION ALL ${rest}) AS page
       ORDER BY sort_group, entry_at DESC, id DESC LIMIT ${limit}`;
  return { statement, scope };
}

/** One keyset page of vehicle check-ins: newest entry first, and by plate its open visits first. */
export async function searchVehicleCheckins(
  db: Executor,
  filter: VehicleCheckinFilter,
): Promise<{ data: VehicleCheckin[]; nextCursor: string | null }> {
  const { statement, scope } = vehicleCheckinSearchSql(filter);
  const rows = await queryRows<Row>(db, statement);
  const byPlate = filter.plateNorm !== undefined;
  return toPage<Row, VehicleCheckin>(
    rows,
    filter.limit,
    presentVehicleCheckin,
    (row) => ({
      atMicros: row.entry_us,
      id: row.id,
      ...(byPlate ? { group: row.sort_group } : {}),
    }),
    scope,
  );
}
