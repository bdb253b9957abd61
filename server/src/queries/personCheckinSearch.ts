import type { PersonStatus } from '../../../shared/src/domain/personCheckin';
import type { Source } from '../../../shared/src/schemas/common';
import type { PersonCheckin } from '../../../shared/src/schemas/personCheckins';
import { CHECKIN_SELECT, type ListedCheckinRow, selectCheckins } from '../db/personCheckinRows';
import type { Executor } from '../db/query';
import { type Sql, join, sql } from '../db/sql';
import { presentPersonCheckin } from '../presenters/personCheckin';
import { afterCursorSql, decodeCursor, filterScope, toPage } from './cursor';

export interface PersonCheckinFilter {
  accountId: number;
  /** undefined: every site of the account (an all-sites token); else only these (may be empty: nothing). */
  siteIds?: number[];
  status?: PersonStatus[];
  entrySource?: Source[];
  exitSource?: Source[];
  from?: Date;
  to?: Date;
  q?: string;
  limit: number;
  cursor?: string;
}

/** The list cursors of person check-ins belong to (with their filters): site lists and the search. */
const LIST = 'person_checkins';

const OPEN_STATUSES: PersonStatus[] = ['IN', 'ON_BREAK', 'PENDING', 'STOP'];

/** `%` and `_` in a user's text are literal characters, not patterns. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * The statement for one keyset page (limit + 1 rows), newest entry first, every filter a bind parameter,
 * each shape served by an index (migrations 0001 and 0011); with the scope its cursors belong to. Apart from
 * running it, so the benchmark can EXPLAIN exactly what runs.
 */
export function personCheckinSearchSql(filter: PersonCheckinFilter): { statement: Sql; scope: string } {
  const scope = filterScope(LIST, filter);
  const where: Sql[] = [sql`c.account_id = ${filter.accountId}`];
  if (filter.siteIds !== undefined) {
    where.push(filter.siteIds.length === 1 ? sql`c.site_id = ${filter.siteIds[0]}` : sql`c.site_id = ANY(${filter.siteIds}::int[])`);
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
  if (filter.q) {
    // Lowered by PostgreSQL, like the columns (JavaScript's toLowerCase differs for some letters, such as a
    // final Greek sigma); lower() of a value is folded to a constant, so the prefix indexes still serve.
    const prefix = sql`lower(${`${escapeLike(filter.q)}%`})`;
    where.push(
      sql`(lower(c.first_name) LIKE ${prefix} OR lower(c.last_name) LIKE ${prefix} OR lower(c.email) LIKE ${prefix} OR lower(c.company) LIKE ${prefix})`,
    );
  }
  // An empty cursor is malformed (400), not absent.
  if (filter.cursor !== undefined) where.push(afterCursorSql(sql`c.entry_at`, sql`c.id`, decodeCursor(filter.cursor, scope)));
  const statement = sql`${CHECKIN_SELECT} WHERE ${join(where, ' AND ')} ORDER BY c.entry_at DESC, c.id DESC LIMIT ${filter.limit + 1}`;
  return { statement, scope };
}

/** One keyset page of check-ins, newest entry first. */
export async function searchPersonCheckins(
  db: Executor,
  filter: PersonCheckinFilter,
): Promise<{ data: PersonCheckin[]; nextCursor: string | null }> {
  const { statement, scope } = personCheckinSearchSql(filter);
  const rows = await selectCheckins(db, statement);
  return toPage<ListedCheckinRow, PersonCheckin>(rows, filter.limit, presentPersonCheckin, (row) => ({
    atMicros: row.entry_us,
    id: row.id,
  }), scope);
}
