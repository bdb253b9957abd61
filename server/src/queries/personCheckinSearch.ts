import type { PersonStatus } from '../../../shared/src/domain/personCheckin';
import type { Source } from '../../../shared/src/schemas/common';
import type { PersonCheckin } from '../../../shared/src/schemas/personCheckins';
import { CHECKIN_SELECT, type ListedCheckinRow, selectCheckins } from '../db/personCheckinRows';
import type { Executor } from '../db/query';
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
 * The statement for one keyset page (limit + 1 rows), newest entry first. Every filter is a bind parameter;
 * the shapes are served by the indexes of the foundation migration (site or account, time, open-only
 * partials, prefix) and of migration 0011 (entry and exit source). Separate from running it so the
 * benchmark can EXPLAIN exactly what runs. With the scope its cursors belong to (read once, for the cursor
 * taken and the one given).
 */
export function personCheckinSearchSql(filter: PersonCheckinFilter): { sql: string; bind: unknown[]; scope: string } {
  const scope = filterScope(LIST, filter);
  const bind: unknown[] = [filter.accountId];
  const where = ['c.account_id = $1'];
  const param = (value: unknown) => {
    bind.push(value);
    return `$${bind.length}`;
  };
  if (filter.siteIds !== undefined) {
    where.push(filter.siteIds.length === 1 ? `c.site_id = ${param(filter.siteIds[0])}` : `c.site_id = ANY(${param(filter.siteIds)}::int[])`);
  }
  if (filter.status?.length) {
    where.push(`c.status = ANY(${param(filter.status)}::text[])`);
    // Lets the planner use the open-only partial indexes when no closed check-in can match.
    if (filter.status.every((status) => OPEN_STATUSES.includes(status))) where.push(`c.status <> 'OUT'`);
  }
  // One source is an equality, which the source indexes serve in time order (a page read, not all its rows sorted).
  const oneOf = (column: string, values: Source[]) =>
    values.length === 1 ? `${column} = ${param(values[0])}` : `${column} = ANY(${param(values)}::text[])`;
  if (filter.entrySource?.length) where.push(oneOf('c.entry_source', filter.entrySource));
  if (filter.exitSource?.length) where.push(oneOf('c.exit_source', filter.exitSource));
  if (filter.from) where.push(`c.entry_at >= ${param(filter.from)}`);
  if (filter.to) where.push(`c.entry_at <= ${param(filter.to)}`);
  if (filter.q) {
    // Lowered by PostgreSQL, like the columns (JavaScript's toLowerCase differs for some letters, such as a
    // final Greek sigma); lower() of a value is folded to a constant, so the prefix indexes still serve.
    const prefix = `lower(${param(`${escapeLike(filter.q)}%`)})`;
    where.push(
      `(lower(c.first_name) LIKE ${prefix} OR lower(c.last_name) LIKE ${prefix} OR lower(c.email) LIKE ${prefix} OR lower(c.company) LIKE ${prefix})`,
    );
  }
  // An empty cursor is malformed (400), not absent.
  if (filter.cursor !== undefined) {
    const position = decodeCursor(filter.cursor, scope);
    bind.push(position.atMicros, position.id);
    where.push(afterCursorSql('c.entry_at', 'c.id', bind.length - 1, bind.length));
  }
  const sql = `${CHECKIN_SELECT} WHERE ${where.join(' AND ')} ORDER BY c.entry_at DESC, c.id DESC LIMIT ${param(filter.limit + 1)}`;
  return { sql, bind, scope };
}

/** One keyset page of check-ins, newest entry first. */
export async function searchPersonCheckins(
  db: Executor,
  filter: PersonCheckinFilter,
): Promise<{ data: PersonCheckin[]; nextCursor: string | null }> {
  const { sql, bind, scope } = personCheckinSearchSql(filter);
  const rows = await selectCheckins(db, sql, bind);
  return toPage<ListedCheckinRow, PersonCheckin>(rows, filter.limit, presentPersonCheckin, (row) => ({
    atMicros: row.entry_us,
    id: row.id,
  }), scope);
}
