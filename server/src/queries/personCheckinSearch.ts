import type { PersonStatus } from '../../../shared/src/domain/personCheckin';
import type { Source } from '../../../shared/src/schemas/common';
import type { PersonCheckin } from '../../../shared/src/schemas/personCheckins';
import { CHECKIN_SELECT, type ListedCheckinRow, selectCheckins } from '../db/personCheckinRows';
import type { Executor } from '../db/query';
import { type Sql, join, sql } from '../db/sql';
import { presentPersonCheckin } from '../presenters/personCheckin';
import { afterCursorSql, decodeCursor, filterScope, toPage } from './cursor';
import { overlapPartsSql, personTextSql } from './visitFilters';
import { kioskVisibleSql } from '../policies/kioskWindow';

export interface PersonCheckinFilter {
  accountId: number;
  /** undefined: every site of the account (an all-sites token); else only these (may be empty: nothing). */
  siteIds?: number[];
  status?: PersonStatus[];
  entrySource?: Source[];
  exitSource?: Source[];
  from?: Date;
  to?: Date;
  /** Visits that overlap [overlapsFrom, overlapsTo): entered before its end, left after its start or not yet. */
  overlapsFrom?: Date;
  overlapsTo?: Date;
  q?: string;
  /** A kiosk's window: only visits on site now or whose last event is since then (policies/kioskWindow.ts). */
  kioskSince?: Date;
  limit: number;
  cursor?: string;
}

/** The list cursors of person check-ins belong to (with their filters): site lists and the search. */
const LIST = 'person_checkins';

const OPEN_STATUSES: PersonStatus[] = ['IN', 'ON_BREAK', 'PENDING', 'STOP'];

/**
 * The statement for one keyset page (limit + 1 rows), newest entry first, every filter a bind parameter,
 * each shape served by an index (migrations 0001, 0011 and 0019); with the scope its cursors belong to. Apart from
 * running it, so the benchmark can EXPLAIN exactly what runs.
 */
export function personCheckinSearchSql(filter: PersonCheckinFilter): { statement: Sql; scope: string } {
  // A kiosk's window moves with the clock: its cursors belong to "a kiosk's list", not to one instant.
  const { kioskSince, ...scoped } = filter;
  const scope = filterScope(LIST, kioskSince === undefined ? scoped : { ...scoped, kiosk: true });
  const where: Sql[] = [sql`c.account_id = ${filter.accountId}`];
  if (kioskSince) where.push(kioskVisibleSql('person', kioskSince));
  if (filter.siteIds !== undefined) {
    where.push(
      filter.siteIds.length === 1
        ? sql`c.site_id = ${filter.siteIds[0]}`
        : sql`c.site_id = ANY(${filter.siteIds}::int[])`,
    );
  }
  if (filter.status?.length) {
    where.push(sql`c.status = ANY(${filter.status}::text[])`);
    // Lets the planner use the open-only partial indexes when no closed check-in can match.
    if (filter.status.every((status) => OPEN_STATUSES.includes(status))) where.push(sql`c.status <> 'OUT'`);
  }
  // One source is an equality, which the source indexes serve in time order (a page read, not all its rows sorted).
  const oneOf = (column: Sql, values: Source[]) =>
    values.length === 1 ? sql`${column} = ${values[0]}` : sql`${column} = ANY(${values}::text[])`;
  if (filter.entrySource?.length) where.push(oneOf(sql`c.entry_source`, filter.entrySource));
  if (filter.exitSource?.length) where.push(oneOf(sql`c.exit_source`, filter.exitSource));
  if (filter.from) where.push(sql`c.entry_at >= ${filter.from}`);
  if (filter.to) where.push(sql`c.entry_at <= ${filter.to}`);
  if (filter.q) where.push(personTextSql(filter.q));
  // An empty cursor is malformed (400), not absent.
  if (filter.cursor !== undefined)
    where.push(afterCursorSql(sql`c.entry_at`, sql`c.id`, decodeCursor(filter.cursor, scope)));
  const limit = filter.limit + 1;
  const page = (part: Sql[]) =>
    sql`${CHECKIN_SELECT} WHERE ${join([...where, ...part], ' AND ')} ORDER BY c.entry_at DESC, c.id DESC LIMIT ${limit}`;
  if (filter.overlapsFrom === undefined && filter.overlapsTo === undefined) return { statement: page([]), scope };
  // An open end is the beginning or the end of time; each part is read from its own index, then merged.
  const start = filter.overlapsFrom ? sql`${filter.overlapsFrom}::timestamptz` : sql`'-infinity'::timestamptz`;
  const end = filter.overlapsTo ? sql`${filter.overlapsTo}::timestamptz` : sql`'infinity'::timestamptz`;
  const parts = overlapPartsSql(start, end).map((part) => sql`(${page([part])})`);
  const statement = sql`SELECT * FROM (${join(parts, ' UNION ALL ')}) AS c ORDER BY c.entry_at DESC, c.id DESC LIMIT ${limit}`;
  return { statement, scope };
}

/** One keyset page of check-ins, newest entry first. */
export async function searchPersonCheckins(
  db: Executor,
  filter: PersonCheckinFilter,
): Promise<{ data: PersonCheckin[]; nextCursor: string | null }> {
  const { statement, scope } = personCheckinSearchSql(filter);
  const rows = await selectCheckins(db, statement);
  return toPage<ListedCheckinRow, PersonCheckin>(
    rows,
    filter.limit,
    presentPersonCheckin,
    (row) => ({
      atMicros: row.entry_us,
      id: row.id,
    }),
    scope,
  );
}
