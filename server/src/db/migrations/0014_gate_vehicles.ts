import type { MigrationFn } from './types';

/**
 * The gate decides (docs/api.md): why a vehicle's STOP stops, and a change feed of the account's registered
 * vehicles and vehicle labels that kiosks keep a local copy of.
 *
 * `stop_reason`: the blocking labels' names, or the deny's reason. STOPs from before keep null (the reason
 * they had was not recorded).
 *
 * `vehicle_feed`: one row per vehicle or label ever written, holding the sequence number of its latest
 * change; a row whose vehicle is deleted (or gone) is its tombstone. Triggers keep it, so no write path can
 * forget it: a vehicle's own row, its label assignments (a label added or taken off, or deleted with its
 * label) and a label (renamed, blocksEntry toggled, deleted). Each trigger first takes the account's
 * advisory lock (until commit), then draws the numbers: within an account, numbers are drawn in commit
 * order, so a reader that has seen number n has seen every change numbered below n, and one committing
 * later is numbered above. The triggers run after their statement (row locks already held), which keeps
 * them from waiting on a row lock while holding the account's lock.
 */
const FEED_LOCK = 71_005; // LockNamespace.VEHICLE_FEED

/** A statement trigger function that marks the `kind` rows named by `idColumn` of the transition table as changed. */
const feedFunction = (name: string, kind: 'vehicle' | 'label', idColumn: string) => `
  CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    PERFORM pg_advisory_xact_lock(${FEED_LOCK}, accounts.account_id)
    FROM (SELECT DISTINCT account_id FROM changed ORDER BY account_id) AS accounts;
    INSERT INTO vehicle_feed (account_id, kind, entity_id, change_seq)
    SELECT rows.account_id, '${kind}', rows.entity_id, nextval('vehicle_feed_seq')
    FROM (SELECT DISTINCT account_id, ${idColumn} AS entity_id FROM changed ORDER BY 1, 2) AS rows
    ON CONFLICT (account_id, kind, entity_id) DO UPDATE SET change_seq = EXCLUDED.change_seq;
    RETURN NULL;
  END $fn$;`;

/** Statement triggers for each kind of write (a trigger with a transition table serves one event). */
const feedTriggers = (table: string, fn: string, events: Array<'INSERT' | 'UPDATE' | 'DELETE'>) =>
  events
    .map(
      (event) => `
      CREATE TRIGGER ${table}_feed_${event.toLowerCase()} AFTER ${event} ON ${table}
      REFERENCING ${event === 'DELETE' ? 'OLD' : 'NEW'} TABLE AS changed
      FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();`,
    )
    .join('\n');

export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    ALTER TABLE vehicle_checkins ADD COLUMN stop_reason text;

    CREATE SEQUENCE vehicle_feed_seq;
    CREATE TABLE vehicle_feed (
      account_id integer NOT NULL,
      kind text NOT NULL CHECK (kind IN ('vehicle', 'label')),
      entity_id bigint NOT NULL,
      change_seq bigint NOT NULL,
      PRIMARY KEY (account_id, kind, entity_id)
    );
    CREATE INDEX vehicle_feed_order ON vehicle_feed (account_id, change_seq);

    ${feedFunction('vehicle_feed_vehicles', 'vehicle', 'id')}
    ${feedFunction('vehicle_feed_assignments', 'vehicle', 'vehicle_id')}
    ${feedFunction('vehicle_feed_labels', 'label', 'id')}
    ${feedTriggers('vehicles', 'vehicle_feed_vehicles', ['INSERT', 'UPDATE', 'DELETE'])}
    ${feedTriggers('vehicle_label_assignments', 'vehicle_feed_assignments', ['INSERT', 'UPDATE', 'DELETE'])}
    ${feedTriggers('vehicle_labels', 'vehicle_feed_labels', ['INSERT', 'UPDATE', 'DELETE'])}

    -- The vehicles and labels already registered, as if each had just been written.
    INSERT INTO vehicle_feed (account_id, kind, entity_id, change_seq)
    SELECT account_id, 'label', id, nextval('vehicle_feed_seq') FROM vehicle_labels ORDER BY account_id, id;
    INSERT INTO vehicle_feed (account_id, kind, entity_id, change_seq)
    SELECT account_id, 'vehicle', id, nextval('vehicle_feed_seq') FROM vehicles WHERE deleted_at IS NULL ORDER BY account_id, id;
  `);
};
