import type { MigrationFn } from './types';

/**
 * The outbox's queue of events still to fan out becomes a narrow table of its own. Marking an event
 * dispatched used to update its row, which copies the whole payload into a new row version (and its WAL)
 * for every event, subscriptions or not; now the write that makes the event also queues its id, and the
 * fan-out deletes it. Outbox rows are written once and never changed.
 */
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    CREATE TABLE outbox_queue (
      account_id integer NOT NULL,
      outbox_id bigint PRIMARY KEY
    );
    INSERT INTO outbox_queue (account_id, outbox_id) SELECT account_id, id FROM outbox_events WHERE dispatched_at IS NULL;
    DROP INDEX outbox_events_undispatched;
    ALTER TABLE outbox_events DROP COLUMN dispatched_at;
  `);
};
