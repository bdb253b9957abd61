import { type Sql, empty, join, sql } from '../db/sql';
import { overlapSql, personTextSql } from './visitFilters';

/**
 * How an export reads a page: it runs in a thread of its own (exports/exportThreads.ts) on a plain `pg`
 * connection, so this module imports nothing it does not need (the thread's heap is small).
 */
export type ReadRows = <T extends object>(statement: Sql) => Promise<T[]>;

/** What to export (docs/api.md, Export); `siteIds` undefined: every site of the account. */
export interface ExportFilter {
  accountId: number;
  siteIds?: number[];
  /** A day (`2026-11-25`, in each site's zone) or an RFC 3339 instant. */
  from: string;
  to: string;
  /** People only: the search's `q` (a prefix of first name, last name, email or company). */
  q?: string;
  /** Vehicles only: the normalized plate of the search's `licensePlate`. */
  plateNorm?: string;
  now: Date;
}

/** Rows read per statement: memory stays the same however many rows the export has. */
const PAGE = 500;

const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The start of `from`, the end of `to`: a day is taken in the time zone of the row's site (`s`). */
const startOf = (value: string): Sql =>
  isDay(value) ? sql`((${value}::date)::timestamp AT TIME ZONE s.timezone)` : sql`${value}::timestamptz`;
const endOf = (value: string): Sql =>
  isDay(value) ? sql`((${value}::date + 1)::timestamp AT TIME ZONE s.timezone)` : sql`${value}::timestamptz`;

/** The visits of `table` (alias c, joined to its site s) that overlap the range: entered before its end, not left before its start. */
function overlapOf(filter: ExportFilter): Sql {
  const where: Sql[] = [sql`c.account_id = ${filter.accountId}`];
  if (filter.siteIds !== undefined) where.push(sql`c.site_id = ANY(${filter.siteIds}::int[])`);
  where.push(overlapSql(startOf(filter.from), endOf(filter.to)));
  return join(where, ' AND ');
}

/**
 * A time as epoch milliseconds (a float8, read as a number). pg's own timestamptz parsing made a million-row
 * export's heap grow by about 80 MB (bench/README.md, Export); a number costs nothing to read.
 */
const MILLIS = (column: Sql) => sql`floor(extract(epoch FROM ${column}) * 1000)::float8`;

/**
 * Every row in id order, one keyset page at a time, yielded whole: a page is turned into text at once, so its
 * rows die young instead of waiting, row by row, on the client's socket into the old generation.
 */
async function* pages<T extends { id: number }>(read: ReadRows, page: (after: number) => Sql): AsyncGenerator<T[]> {
  let after = 0;
  for (;;) {
    const rows = await read<T>(page(after));
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (rows.length < PAGE || !last) return;
    after = last.id;
  }
}

export interface PersonExportRow {
  id: number;
  site_name: string;
  timezone: string;
  status: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  host_name: string | null;
  purpose: string | null;
  custom_fields: Record<string, unknown>;
  entry_source: string;
  /** Milliseconds since the epoch (see `MILLIS`). */
  entry_ms: number;
  exit_source: string | null;
  exit_ms: number | null;
  breaks: number;
  break_minutes: number;
  decided_by: string | null;
}

export function personExportPages(read: ReadRows, filter: ExportFilter): AsyncGenerator<PersonExportRow[]> {
  return pages<PersonExportRow>(
    read,
    (after) => sql`
    SELECT c.id, s.name AS site_name, s.timezone, c.status, c.first_name, c.last_name, c.email, c.phone, c.company,
           c.host_name, c.purpose, c.custom_fields, c.entry_source, ${MILLIS(sql`c.entry_at`)} AS entry_ms, c.exit_source, ${MILLIS(sql`c.exit_at`)} AS exit_ms,
           b.breaks, b.break_minutes, c.decided_by->>'name' AS decided_by
      FROM person_checkins c
      JOIN sites s ON s.account_id = c.account_id AND s.id = c.site_id
      CROSS JOIN LATERAL (
        SELECT count(*)::int AS breaks,
               coalesce(round(sum(extract(epoch FROM coalesce(pb.ended_at, c.exit_at, ${filter.now}::timestamptz) - pb.started_at)) / 60), 0)::int AS break_minutes
          FROM person_breaks pb WHERE pb.account_id = c.account_id AND pb.checkin_id = c.id) b
     WHERE ${overlapOf(filter)} ${filter.q ? sql`AND ${personTextSql(filter.q)}` : empty} AND c.id > ${after}
     ORDER BY c.id LIMIT ${PAGE}`,
  );
}

export interface VehicleExportRow {
  id: number;
  site_name: string;
  timezone: string;
  status: string;
  license_plate: string;
  driver_name: string | null;
  notes: string | null;
  entry_source: string;
  /** Milliseconds since the epoch (see `MILLIS`). */
  entry_ms: number;
  exit_source: string | null;
  exit_ms: number | null;
  stop_reason: string | null;
  decided_by: string | null;
}

export function vehicleExportPages(read: ReadRows, filter: ExportFilter): AsyncGenerator<VehicleExportRow[]> {
  return pages<VehicleExportRow>(
    read,
    (after) => sql`
    SELECT c.id, s.name AS site_name, s.timezone, c.status, c.license_plate, c.driver_name, c.notes, c.entry_source,
           ${MILLIS(sql`c.entry_at`)} AS entry_ms, c.exit_source, ${MILLIS(sql`c.exit_at`)} AS exit_ms, c.stop_reason, c.decided_by->>'name' AS decided_by
      FROM vehicle_checkins c
      JOIN sites s ON s.account_id = c.account_id AND s.id = c.site_id
     WHERE ${overlapOf(filter)} ${filter.plateNorm === undefined ? empty : sql`AND c.plate_norm = ${filter.plateNorm}`} AND c.id > ${after}
     ORDER BY c.id LIMIT ${PAGE}`,
  );
}
