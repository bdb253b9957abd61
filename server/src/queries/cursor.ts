import { problem } from '../errors/problem';

/**
 * Keyset cursors: the database's own microsecond timestamp and the id tie-breaker (a JS Date would lose
 * the microseconds and skip or repeat rows). Opaque to clients: base64url JSON.
 */
export interface KeysetPosition {
  atMicros: number;
  id: number;
  /** A sort group ahead of the time (e.g. 0 = a plate's open visits, 1 = the rest); absent for plain lists. */
  group?: number;
}

export function encodeCursor(position: KeysetPosition): string {
  const { atMicros, id, group } = position;
  return Buffer.from(JSON.stringify(group === undefined ? [atMicros, id] : [atMicros, id, group])).toString('base64url');
}

const notIssued = () => problem('INVALID_QUERY', 'The cursor is not one this API issued.');

export function decodeCursor(cursor: string): KeysetPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      (value.length === 2 || (value.length === 3 && Number.isSafeInteger(value[2]) && (value[2] as number) >= 0)) &&
      Number.isSafeInteger(value[0]) &&
      Number.isSafeInteger(value[1]) &&
      (value[1] as number) > 0
    ) {
      const position = { atMicros: value[0] as number, id: value[1] as number };
      return value.length === 3 ? { ...position, group: value[2] as number } : position;
    }
  } catch {
    // fall through to the one error below
  }
  throw notIssued();
}

/** Builds a page from `limit + 1` rows read: the extra row only says there is more. */
export function toPage<Row extends { id: number }, Item>(
  rows: Row[],
  limit: number,
  present: (row: Row) => Item,
  position: (row: Row) => KeysetPosition,
): { data: Item[]; nextCursor: string | null } {
  const visible = rows.slice(0, limit);
  const last = visible[visible.length - 1];
  return {
    data: visible.map(present),
    nextCursor: rows.length > limit && last ? encodeCursor(position(last)) : null,
  };
}

/** SQL for "after this cursor" in newest-first order, on (time, id) columns. */
export function afterCursorSql(timeColumn: string, idColumn: string, micros: number, id: number): string {
  return `(${timeColumn}, ${idColumn}) < ('epoch'::timestamptz + $${micros} * interval '1 microsecond', $${id})`;
}

/** The largest `integer` id: those small tables' ids are 32-bit, and a larger one is no cursor of theirs. */
const MAX_INTEGER_ID = 2_147_483_647;

/** For small tables listed by id ascending (32-bit ids): the id after which the page starts. */
export function afterId(cursor: string | undefined): number {
  if (!cursor) return 0;
  const { id } = decodeCursor(cursor);
  if (id > MAX_INTEGER_ID) throw notIssued();
  return id;
}

/** A page of a list ordered by id ascending, read with `limit + 1`. */
export function idPage<Row extends { id: number }, Item>(rows: Row[], limit: number, present: (row: Row) => Item) {
  return toPage(rows, limit, present, (row) => ({ atMicros: 0, id: row.id }));
}
