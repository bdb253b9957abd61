import type { VehicleStatus } from '../../../shared/src/domain/vehicleCheckin';
import type { VehicleCheckin } from '../../../shared/src/schemas/vehicles';
import { type ListedVehicleCheckinRow, VEHICLE_CHECKIN_COLUMNS } from './vehicleCheckinRows';
import { type Executor, queryRows } from '../db/query';
import { type Sql, join, raw, sql } from '../db/sql';
import { presentVehicleCheckin } from '../presenters/vehicleCheckin';
import { type KeysetPosition, afterCursorSql, decodeCursor, toPage } from './cursor';
import {
  type VisitFilter,
  overlapBounds,
  visitListScope,
  overlapPartsSql,
  overlapSql,
  visitConditions,
} from './visitFilters';
import { vehicleVisits } from './visitKinds';

export interface VehicleCheckinFilter extends VisitFilter {
  /** Normalized plate: that plate's visits only, its open ones (IN, PENDING) first. */
  plateNorm?: string;
  status?: VehicleStatus[];
}

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
  const scope = visitListScope(vehicleVisits, filter);
  const where = visitConditions(vehicleVisits, filter);
  if (filter.plateNorm !== undefined) where.push(sql`c.plate_norm = ${filter.plateNorm}`);
  // An empty cursor is malformed (400), not absent.
  const position: KeysetPosition | undefined =
    filter.cursor === undefined ? undefined : decodeCursor(filter.cursor, scope);
  const after = position ? afterCursorSql(sql`c.entry_at`, sql`c.id`, position) : undefined;
  const limit = filter.limit + 1;
  const overlap = overlapBounds(filter);
  // By plate, the plate index narrows enough: the overlap is one more condition.
  if (overlap && filter.plateNorm !== undefined) where.push(overlapSql(overlap.start, overlap.end));
  const branch = (group: number, condition: Sql | undefined, keyset: boolean) =>
    sql`SELECT ${VEHICLE_CHECKIN_COLUMNS}, ${raw(String(group))} AS sort_group FROM vehicle_checkins c
     WHERE ${join([...where, ...(condition ? [condition] : []), ...(keyset && after ? [after] : [])], ' AND ')}
     ORDER BY c.entry_at DESC, c.id DESC LIMIT ${limit}`;
  if (filter.plateNorm === undefined && overlap) {
    // Each part of the overlap is read from its own index, then merged.
    const parts = overlapPartsSql(overlap.start, overlap.end).map((part) => sql`(${branch(REST_GROUP, part, true)})`);
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
