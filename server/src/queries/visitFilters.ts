import { type Sql, sql } from '../db/sql';

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
