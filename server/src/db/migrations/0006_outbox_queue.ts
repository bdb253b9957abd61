import type { MigrationFn } from './types';

/**
 * The outbox's queue of events still to fan out becomes a narrow table of its own. Marking an event
 * dispatched used to update its row, which copies the whole payload into a new row version (and its WAL)
 * for every event, subscriptions or not; now a trigger queues each new event's id as it is inserted, and
 * the fan-out deletes it. Outbox rows are written once and never changed.
 *
 * A trigger rather than the application's insert, so that instances still running the previous version
 * during a rolling deploy (which know nothing of the queue) have their events queued too; the table lock
 * keeps any event from being written between the copy below and the column's removal.
 */
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    LOCK TABLE outbox_events IN EXCLUSIVE MODE;
    CREATE TABLE outbox_queue (
      account_id integer NOT NULL,
      outbox_id bigint PRIMARY KEY
    );
    CREATE FUNCTION outbox_events_queue() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO outbox_queue (account_id, outbox_id) VALUES (NEW.account_id, NEW.id);
      RETURN NULL;
    END $$;
    CREATE TRIGGER outbox_events_queue AFTER INSERT ON outbox_events
      FOR EACH ROW EXECUTE FUNCTION outbox_events_queue();
    INSERT INTO outbox_queue (account_id, outbox_id) SELECT account_id, id FROM outbox_events WHERE dispatched_at IS NULL;
    DROP INDEX outbox_events_undispatched;
    ALTER TABLE outbox_events DROP COLUMN dispatched_at;
  `);
};
