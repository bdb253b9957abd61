import { standardFieldNames } from '../../../shared/src/schemas/sites';
import { type Executor, queryRows } from '../db/query';
import { type Sql, empty, join, sql } from '../db/sql';
import { overlapSql, personTextSql } from './visitFilters';

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

/** Every row in id order, one keyset page at a time. */
async function* pages<T extends { id: number }>(db: Executor, page: (after: number) => Sql): AsyncGenerator<T> {
  let after = 0;
  for (;;) {
    const rows = await queryRows<T>(db, page(after));
    yield* rows;
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
  entry_at: Date;
  exit_source: string | null;
  exit_at: Date | null;
  breaks: number;
  break_minutes: number;
  decided_by: string | null;
}

export function personExportRows(db: Executor, filter: ExportFilter): AsyncGenerator<PersonExportRow> {
  return pages<PersonExportRow>(db, (after) => sql`
    SELECT c.id, s.name AS site_name, s.timezone, c.status, c.first_name, c.last_name, c.email, c.phone, c.company,
           c.host_name, c.purpose, c.custom_fields, c.entry_source, c.entry_at, c.exit_source, c.exit_at,
           b.breaks, b.break_minutes, c.decided_by->>'name' AS decided_by
      FROM person_checkins c
      JOIN sites s ON s.account_id = c.account_id AND s.id = c.site_id
      CROSS JOIN LATERAL (
        SELECT count(*)::int AS breaks,
               coalesce(round(sum(extract(epoch FROM coalesce(pb.ended_at, c.exit_at, ${filter.now}::timestamptz) - pb.started_at)) / 60), 0)::int AS break_minutes
          FROM person_breaks pb WHERE pb.account_id = c.account_id AND pb.checkin_id = c.id) b
     WHERE ${overlapOf(filter)} ${filter.q ? sql`AND ${personTextSql(filter.q)}` : empty} AND c.id > ${after}
     ORDER BY c.id LIMIT ${PAGE}`);
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
  entry_at: Date;
  exit_source: string | null;
  exit_at: Date | null;
  stop_reason: string | null;
  decided_by: string | null;
}

export function vehicleExportRows(db: Executor, filter: ExportFilter): AsyncGenerator<VehicleExportRow> {
  return pages<VehicleExportRow>(db, (after) => sql`
    SELECT c.id, s.name AS site_name, s.timezone, c.status, c.license_plate, c.driver_name, c.notes, c.entry_source,
           c.entry_at, c.exit_source, c.exit_at, c.stop_reason, c.decided_by->>'name' AS decided_by
      FROM vehicle_checkins c
      JOIN sites s ON s.account_id = c.account_id AND s.id = c.site_id
     WHERE ${overlapOf(filter)} ${filter.plateNorm === undefined ? empty : sql`AND c.plate_norm = ${filter.plateNorm}`} AND c.id > ${after}
     ORDER BY c.id LIMIT ${PAGE}`);
}

/** A custom-field column: its label, and the field names it stands for on the sites that ask it. */
export interface CustomColumn {
  label: string;
  names: string[];
}

/** The custom fields the sites ask for, one column per label, in the order the sites list them. */
export async function customColumns(db: Executor, accountId: number, siteIds: number[] | undefined): Promise<CustomColumn[]> {
  const rows = await queryRows<{ name: string; label: string }>(db, sql`
    SELECT f.field->>'name' AS name, f.field->>'label' AS label
      FROM sites s, jsonb_array_elements(s.checkin_config->'fields') WITH ORDINALITY AS f(field, position)
     WHERE s.account_id = ${accountId} ${siteIds === undefined ? empty : sql`AND s.id = ANY(${siteIds}::int[])`}
       AND jsonb_typeof(s.checkin_config->'fields') = 'array'
       AND NOT (f.field->>'name' = ANY(${[...standardFieldNames]}::text[]))
     ORDER BY s.id, f.position`);
  const columns = new Map<string, CustomColumn>();
  for (const row of rows) {
    const column = columns.get(row.label) ?? { label: row.label, names: [] };
    if (!column.names.includes(row.name)) column.names.push(row.name);
    columns.set(row.label, column);
  }
  return [...columns.values()];
}
