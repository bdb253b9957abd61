import type { MigrationFn } from './types';

/**
 * Indexes for the search's two source filters (`entrySource`, `exitSource`), the last person search filters
 * without one. Without them a filter on a source that few check-ins have walks the account's time index
 * until it has found a page: a rare source (an old import's `WORKFORCE`, a `MANUAL` checkout now and then)
 * costs a read of most of the table, and more as the table grows. Each leads with the source and keeps the
 * time order, so a one-source filter reads one page of its own rows. The exit index skips check-ins still
 * open (no exit yet): it costs nothing at create.
 *
 * Built CONCURRENTLY, one statement each (not in a transaction), so a deploy on a large table does not stop
 * check-ins while they build (migrate.ts runs migrations with no statement timeout, and lets a waiting
 * instance poll for its lock, for these builds); an index a failed build left invalid is dropped and built
 * again.
 */
const INDEXES = [
  {
    name: 'person_checkins_entry_source',
    definition: 'person_checkins (account_id, entry_source, entry_at DESC, id DESC)',
  },
  {
    name: 'person_checkins_exit_source',
    definition: 'person_checkins (account_id, exit_source, entry_at DESC, id DESC) WHERE exit_source IS NOT NULL',
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
