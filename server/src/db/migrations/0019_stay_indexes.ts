import type { MigrationFn } from './types';

/**
 * The stays of visits that have left, for the overlap filter of the search (docs/api.md, Search): the visits
 * that entered before a range and left inside or after it are those whose stay contains the range's start,
 * which a GiST index on the stay finds directly (as many as were on site at that instant), where a time index
 * would walk the whole history back from the start, or every exit up to now. GREATEST: no constraint keeps
 * an exit after its entry, and a range whose end comes before its start is an error, not an empty range.
 *
 * Built CONCURRENTLY, one statement each (not in a transaction), like migration 0011, so a deploy on a large
 * table does not stop check-ins; an index a failed build left invalid is dropped and built again.
 */
const INDEXES = [
  {
    name: 'person_checkins_stay',
    definition:
      'person_checkins USING gist (tstzrange(entry_at, GREATEST(exit_at, entry_at))) WHERE exit_at IS NOT NULL',
  },
  {
    name: 'vehicle_checkins_stay',
    definition:
      'vehicle_checkins USING gist (tstzrange(entry_at, GREATEST(exit_at, entry_at))) WHERE exit_at IS NOT NULL',
  },
];

export const up: MigrationFn = async ({ context: sql }) => {
  for (const { name, definition } of INDEXES) {
    const [rows] = (await sql(
      `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
      [name],
    )) as [Array<{ valid: boolean }>];
    if (rows[0]?.valid === false) await sql(`DROP INDEX CONCURRENTLY ${name}`);
    await sql(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ON ${definition}`);
  }
};
