import { type Sql, sql } from '../db/sql';
import { type ON_SITE, kioskVisibleSql } from '../policies/kioskWindow';
import { filterScope } from './cursor';

/** The filters every search of visits has, person or vehicle: the account, its sites, statuses, an entry range. */
export interface VisitFilter {
  accountId: number;
  /** undefined: every site of the account (an all-sites token); else only these (may be empty: nothing). */
  siteIds?: number[];
  status?: readonly string[];
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

/** The kind of visit a search reads: its table (the name of its lists), its name, and its not-OUT statuses. */
interface SearchedKind {
  table: string;
  name: keyof typeof ON_SITE;
  notOut: readonly string[];
}

/** The scope a search's cursors belong to: its list and its filters (queries/cursor.ts). */
export function visitListScope(kind: SearchedKind, filter: VisitFilter): string {
  // A kiosk's window moves with the clock: its cursors belong to "a kiosk's list", not to one instant.
  const { kioskSince, ...scoped } = filter;
  return filterScope(kind.table, kioskSince === undefined ? scoped : { ...scoped, kiosk: true });
}

/**
 * The conditions (alias `c`) of those filters, each a bind parameter. Statuses that are all `notOut` (the
 * kind's statuses of a visit still at the site) also say `status <> 'OUT'`, which lets the planner use the
 * open-only partial indexes.
 */
export function visitConditions(kind: SearchedKind, filter: VisitFilter): Sql[] {
  const where: Sql[] = [sql`c.account_id = ${filter.accountId}`];
  if (filter.kioskSince) where.push(kioskVisibleSql(kind.name, filter.kioskSince));
  if (filter.siteIds !== undefined) {
    where.push(
      filter.siteIds.length === 1
        ? sql`c.site_id = ${filter.siteIds[0]}`
        : sql`c.site_id = ANY(${filter.siteIds}::int[])`,
    );
  }
  if (filter.status?.length) {
    where.push(sql`c.status = ANY(${filter.status}::text[])`);
    if (filter.status.every((status) => kind.notOut.includes(status))) where.push(sql`c.status <> 'OUT'`);
  }
  if (filter.from) where.push(sql`c.entry_at >= ${filter.from}`);
  if (filter.to) where.push(sql`c.entry_at <= ${filter.to}`);
  return where;
}

/** The ends of an overlap filter, if it has one: an open end is the beginning or the end of time. */
export function overlapBounds(filter: VisitFilter): { start: Sql; end: Sql } | undefined {
  if (filter.overlapsFrom === undefined && filter.overlapsTo === undefined) return undefined;
  return {
    start: filter.overlapsFrom ? sql`${filter.overlapsFrom}::timestamptz` : sql`'-infinity'::timestamptz`,
    end: filter.overlapsTo ? sql`${filter.overlapsTo}::timestamptz` : sql`'infinity'::timestamptz`,
  };
}

/**
 * The visits (alias `c`) that overlap [start, end): entered before its end, and left after its start or not
 * yet left (docs/api.md, Export and Search). One rule for the export and the search.
 */
export const overlapSql = (start: Sql, end: Sql): Sql =>
  sql`c.entry_at < ${end} AND (c.exit_at IS NULL OR c.exit_at > ${start})`;

/**
 * The same visits as three disjoint parts, each read from an index rather than by walking the whole history
 * back from `end`: entered inside the range (the time indexes, in entry order); entered before it and still
 * there (the open partial indexes, in entry order: a table constraint makes "no exit" the same as "not OUT");
 * entered before it and left after its start (the stay indexes of migration 0019: those on site at `start`).
 */
export const overlapPartsSql = (start: Sql, end: Sql): Sql[] => [
  sql`c.entry_at >= ${start} AND c.entry_at < ${end}`,
  sql`c.entry_at < ${start} AND c.entry_at < ${end} AND c.status <> 'OUT'`,
  sql`c.entry_at < ${start} AND c.entry_at < ${end} AND c.exit_at IS NOT NULL AND tstzrange(c.entry_at, GREATEST(c.exit_at, c.entry_at)) @> ${start} AND c.exit_at > ${start}`,
];

/** `%` and `_` in a user's text are literal characters, not patterns. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * `q` of the people search and export: a case-insensitive prefix of first name, last name, email or company.
 * Lowered by PostgreSQL, like the columns (JavaScript's toLowerCase differs for some letters, such as a
 * final Greek sigma); lower() of a value is folded to a constant, so the prefix indexes still serve.
 */
export function personTextSql(q: string): Sql {
  const prefix = sql`lower(${`${escapeLike(q)}%`})`;
  return sql`(lower(c.first_name) LIKE ${prefix} OR lower(c.last_name) LIKE ${prefix} OR lower(c.email) LIKE ${prefix} OR lower(c.company) LIKE ${prefix})`;
}
