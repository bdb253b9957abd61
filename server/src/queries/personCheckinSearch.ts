import type { PersonStatus } from '../../../shared/src/domain/personCheckin';
import type { Source } from '../../../shared/src/schemas/common';
import type { PersonCheckin } from '../../../shared/src/schemas/personCheckins';
import { CHECKIN_SELECT, type ListedCheckinRow, selectCheckins } from './personCheckinRows';
import type { Executor } from '../db/query';
import { type Sql, join, sql } from '../db/sql';
import { presentPersonCheckin } from '../presenters/personCheckin';
import { afterCursorSql, decodeCursor, toPage } from './cursor';
import {
  type VisitFilter,
  overlapBounds,
  visitListScope,
  overlapPartsSql,
  personTextSql,
  visitConditions,
} from './visitFilters';
import { personVisits } from './visitKinds';

export interface PersonCheckinFilter extends VisitFilter {
  status?: PersonStatus[];
  entrySource?: Source[];
  exitSource?: Source[];
  q?: string;
}

/**
 * The statement for one keyset page (limit + 1 rows), newest entry first, every filter a bind parameter,
 * each shape served by an index (migrations 0001, 0011 and 0019); with the scope its cursors belong to. Apart from
 * running it, so the benchmark can EXPLAIN exactly what runs.
 */
export function personCheckinSearchSql(filter: PersonCheckinFilter): { statement: Sql; scope: string } {
  const scope = visitListScope(personVisits, filter);
  const where = visitConditions(personVisits, filter);
  // One source is an equality, which the source indexes serve in time order (a page read, not all its rows sorted).
  const oneOf = (column: Sql, values: Source[]) =>
    values.length === 1 ? sql`${column} = ${values[0]}` : sql`${column} = ANY(${values}::text[])`;
  if (filter.entrySource?.length) where.push(oneOf(sql`c.entry_source`, filter.entrySource));
  if (filter.exitSource?.length) where.push(oneOf(sql`c.exit_source`, filter.exitSource));
  if (filter.q) where.push(personTextSql(filter.q));
  // An empty cursor is malformed (400), not absent.
  if (filter.cursor !== undefined)
    where.push(afterCursorSql(sql`c.entry_at`, sql`c.id`, decodeCursor(filter.cursor, scope)));
  const limit = filter.limit + 1;
  const page = (part: Sql[]) =>
    sql`${CHECKIN_SELECT} WHERE ${join([...where, ...part], ' AND ')} ORDER BY c.entry_at DESC, c.id DESC LIMIT ${limit}`;
  const overlap = overlapBounds(filter);
  if (!overlap) return { statement: page([]), scope };
  // Each part of the overlap is read from its own index, then merged.
  const parts = overlapPartsSql(overlap.start, overlap.end).map((part) => sql`(${page([part])})`);
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
