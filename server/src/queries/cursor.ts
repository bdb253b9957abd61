import { createHash } from 'node:crypto';
import { problem } from '../errors/problem';
import { type Sql, sql } from '../db/sql';

/**
 * Keyset cursors: the database's own microsecond timestamp and the id tie-breaker (a JS Date would lose
 * the microseconds and skip or repeat rows), and the scope they were issued for. Opaque to clients:
 * base64url JSON.
 */
export interface KeysetPosition {
  atMicros: number;
  id: number;
  /** A sort group ahead of the time (e.g. 0 = a plate's open visits, 1 = the rest); absent for plain lists. */
  group?: number;
}

/**
 * What a cursor belongs to: one list and its filters (the account, the sites, every filter but `limit`).
 * A cursor is refused on any other list, or with other filters, rather than starting that list's page at
 * a position of another. Eight base64url characters of a SHA-256: a tag against mistakes, not a secret.
 */
export function cursorScope(list: string, filters: object): string {
  return createHash('sha256').update(list).update('\0').update(JSON.stringify(filters)).digest('base64url').slice(0, 8);
}

/** The scope of a list from its filter object: every field but the page's own `limit` and `cursor`. */
export function filterScope<Filter extends { limit: number; cursor?: string }>(list: string, filter: Filter): string {
  const { limit: _limit, cursor: _cursor, ...filters } = filter;
  return cursorScope(list, filters);
}

export function encodeCursor(position: KeysetPosition, scope: string): string {
  const { atMicros, id, group } = position;
  return Buffer.from(JSON.stringify([atMicros, id, group ?? null, scope])).toString('base64url');
}

const notIssued = () => problem('INVALID_QUERY', 'The cursor is not one this API issued.');
const otherScope = () =>
  problem(
    'INVALID_QUERY',
    'The cursor belongs to another list, or to other filters: send the same filters as for the page it came with, or start again without it.',
  );

const isGroup = (value: unknown) =>
  value === null || value === undefined || (Number.isSafeInteger(value) && (value as number) >= 0);

/**
 * [time, id, group | null, scope], or as issued before cursors had a scope: [time, id] or [time, id, group]
 * (still taken, unchecked, so a client paging through a deploy, or between instances of two versions,
 * is not refused).
 */
const isPosition = (value: unknown): value is [number, number, number | null | undefined, string | undefined] =>
  Array.isArray(value) &&
  value.length >= 2 &&
  value.length <= 4 &&
  Number.isSafeInteger(value[0]) &&
  Number.isSafeInteger(value[1]) &&
  (value[1] as number) > 0 &&
  isGroup(value[2]) &&
  (value.length < 4 ? value[2] !== null : typeof value[3] === 'string');

/** The position of a cursor issued for `scope`; 400 INVALID_QUERY for anything else. */
export function decodeCursor(cursor: string, scope: string): KeysetPosition {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw notIssued();
  }
  if (!isPosition(value)) throw notIssued();
  const [atMicros, id, group, issuedFor] = value;
  if (issuedFor !== undefined && issuedFor !== scope) throw otherScope();
  return group === null || group === undefined ? { atMicros, id } : { atMicros, id, group };
}

/** Builds a page from `limit + 1` rows read: the extra row only says there is more. */
export function toPage<Row extends { id: number }, Item>(
  rows: Row[],
  limit: number,
  present: (row: Row) => Item,
  position: (row: Row) => KeysetPosition,
  scope: string,
): { data: Item[]; nextCursor: string | null } {
  const visible = rows.slice(0, limit);
  const last = visible[visible.length - 1];
  return {
    data: visible.map(present),
    nextCursor: rows.length > limit && last ? encodeCursor(position(last), scope) : null,
  };
}

/** SQL for "after this cursor" in newest-first order, on (time, id) columns. */
export function afterCursorSql(timeColumn: Sql, idColumn: Sql, position: KeysetPosition): Sql {
  return sql`(${timeColumn}, ${idColumn}) < ('epoch'::timestamptz + ${position.atMicros}::bigint * interval '1 microsecond', ${position.id}::bigint)`;
}

/** The largest `integer` id: those small tables' ids are 32-bit, and a larger one is no cursor of theirs. */
const MAX_INTEGER_ID = 2_147_483_647;

/** For small tables listed by id ascending (32-bit ids): the id after which the page starts. */
export function afterId(cursor: string | undefined, scope: string): number {
  if (!cursor) return 0;
  const { id } = decodeCursor(cursor, scope);
  if (id > MAX_INTEGER_ID) throw notIssued();
  return id;
}

/** A page of a list ordered by id ascending, read with `limit + 1`. */
export function idPage<Row extends { id: number }, Item>(
  rows: Row[],
  limit: number,
  present: (row: Row) => Item,
  scope: string,
) {
  return toPage(rows, limit, present, (row) => ({ atMicros: 0, id: row.id }), scope);
}

/** For small tables listed newest first by id (32-bit ids): the id before which the page starts, or none. */
export function beforeId(cursor: string | undefined, scope: string): number | null {
  return cursor ? afterId(cursor, scope) : null;
}
