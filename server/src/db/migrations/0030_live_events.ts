import type { MigrationFn } from './types';

/**
 * Live by push (docs/api.md, Event stream): the changes a client may follow, and the kiosks' people feed.
 *
 * `live_events`: one row per change a client may see, written in the change's own transaction. Its
 * position is (`tx_id`, `seq`): the writing transaction's id, then the order within it. A reader takes only
 * rows of transactions older than every transaction still running (`tx_id < pg_snapshot_xmin(…)`), so what
 * it has read is a prefix that never grows behind it: no row can commit later with a smaller position.
 * Every instance's reader polls it (an index probe, ten times a second): no NOTIFY, because PostgreSQL
 * commits notifying transactions one at a time, WAL flush included, which would cap the writes that publish
 * at one per flush. `live_event_horizon`: every position at or below it may have been pruned; a client
 * resuming from below it is told to read afresh.
 *
 * `person_feed`: one row per person visit ever changed, holding the sequence number of its latest change
 * that a kiosk shows (status, name, company; names only while the visit is on site or left within a day,
 * so that retention's rewriting of old visits is not news). Each statement's trigger takes the advisory
 * lock of each site it changed (until commit, in site order) before drawing numbers, so within a site the
 * numbers follow commit order: a reader that has seen number n has seen every change of the site below n.
 * It runs after its statement, its row locks held, as the vehicle feed's does (migration 0014).
 *
 * Triggers rather than calls in each command, so that no write path (the API, the console, later ones such
 * as passes and visit links) can forget to publish: person and vehicle visits (`checkin`, and `alert` when
 * one becomes STOP), a site's form (`config`), and the vehicle feed (`vehicles`).
 */
const SITE_FEED_LOCK = 71_030; // LockNamespace.PEOPLE_FEED

/** A `checkin` event per changed visit, and an `alert` after it for each that became STOP: one statement. */
const publishVisits = (kind: 'person' | 'vehicle', rows: string) => `
    INSERT INTO live_events (account_id, site_id, type, data)
    SELECT r.account_id, r.site_id, e.type, e.data FROM ${rows}
    CROSS JOIN LATERAL (
      SELECT 'checkin' AS type, 0 AS rank,
        jsonb_build_object('kind', '${kind}', 'siteId', r.site_id, 'checkinId', r.id, 'status', r.status)
          || CASE WHEN r.anonymized THEN '{"anonymized": true}'::jsonb ELSE '{}'::jsonb END AS data
      UNION ALL
      SELECT 'alert', 1, jsonb_build_object('kind', '${kind}', 'siteId', r.site_id, 'checkinId', r.id) WHERE r.stopped) AS e
    ORDER BY r.site_id, r.id, e.rank;`;

/**
 * What each changed person visit publishes, `rows` naming the changed rows as (account_id, site_id, id,
 * status, stopped, anonymized): `anonymized` tells clients that keep names to read the visit again, its
 * status being the same.
 */
const personPublish = (rows: string) => `
    PERFORM pg_advisory_xact_lock(${SITE_FEED_LOCK}, s.site_id)
    FROM (SELECT DISTINCT site_id FROM ${rows} ORDER BY site_id) AS s;
    INSERT INTO person_feed (account_id, checkin_id, site_id, change_seq)
    SELECT account_id, id, site_id, nextval('person_feed_seq') FROM ${rows} ORDER BY site_id, id
    ON CONFLICT (account_id, checkin_id) DO UPDATE SET change_seq = EXCLUDED.change_seq;
${publishVisits('person', rows)}`;

/** A person visit's change worth telling: its status, a new STOP, or (while it matters) the name shown. */
const PERSON_CHANGED = `
  n.status IS DISTINCT FROM o.status OR n.stopped_at IS DISTINCT FROM o.stopped_at
  OR ((n.first_name, n.last_name, n.company) IS DISTINCT FROM (o.first_name, o.last_name, o.company)
      AND (n.exit_at IS NULL OR n.exit_at > now() - interval '1 day'))`;

/** The rows of an insert, and of an update (only those whose change is worth telling), as the publishers take them. */
const INSERTED = `(SELECT account_id, site_id, id, status, stopped_at IS NOT NULL AS stopped, false AS anonymized
    FROM inserted) AS r`;
const PERSON_UPDATED = `(SELECT n.account_id, n.site_id, n.id, n.status,
      n.stopped_at IS NOT NULL AND n.stopped_at IS DISTINCT FROM o.stopped_at AS stopped,
      n.anonymized_at IS NOT NULL AND o.anonymized_at IS NULL AS anonymized
    FROM new_rows n JOIN old_rows o ON o.account_id = n.account_id AND o.id = n.id
    WHERE ${PERSON_CHANGED}) AS r`;

const VEHICLE_UPDATED = `(SELECT n.account_id, n.site_id, n.id, n.status,
      n.stopped_at IS NOT NULL AND n.stopped_at IS DISTINCT FROM o.stopped_at AS stopped, false AS anonymized
    FROM new_rows n JOIN old_rows o ON o.account_id = n.account_id AND o.id = n.id
    WHERE n.status IS DISTINCT FROM o.status OR n.stopped_at IS DISTINCT FROM o.stopped_at) AS r`;

export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    CREATE SEQUENCE live_event_seq;
    CREATE TABLE live_events (
      account_id integer NOT NULL,
      tx_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
      seq bigint NOT NULL DEFAULT nextval('live_event_seq'),
      -- Null: about the whole account (its vehicles).
      site_id integer,
      type text NOT NULL,
      -- Ids and states only, never a name (docs/api.md, Event stream).
      data jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, tx_id, seq)
    );
    -- Every instance's reader follows all accounts in position order; a resuming client, its account's.
    CREATE INDEX live_events_order ON live_events (tx_id, seq);

    CREATE TABLE live_event_horizon (
      only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
      tx_id xid8 NOT NULL,
      seq bigint NOT NULL
    );
    INSERT INTO live_event_horizon (tx_id, seq) VALUES ('0', 0);

    CREATE SEQUENCE person_feed_seq;
    CREATE TABLE person_feed (
      account_id integer NOT NULL,
      checkin_id bigint NOT NULL,
      site_id integer NOT NULL,
      change_seq bigint NOT NULL,
      PRIMARY KEY (account_id, checkin_id)
    );
    CREATE INDEX person_feed_order ON person_feed (account_id, site_id, change_seq);

    CREATE FUNCTION person_checkins_inserted_live() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN${personPublish(INSERTED)}
      RETURN NULL;
    END $fn$;
    CREATE FUNCTION person_checkins_updated_live() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN${personPublish(PERSON_UPDATED)}
      RETURN NULL;
    END $fn$;
    CREATE TRIGGER person_checkins_live_insert AFTER INSERT ON person_checkins
      REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION person_checkins_inserted_live();
    CREATE TRIGGER person_checkins_live_update AFTER UPDATE ON person_checkins
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION person_checkins_updated_live();

    CREATE FUNCTION vehicle_checkins_inserted_live() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN${publishVisits('vehicle', INSERTED)}
      RETURN NULL;
    END $fn$;
    CREATE FUNCTION vehicle_checkins_updated_live() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN${publishVisits('vehicle', VEHICLE_UPDATED)}
      RETURN NULL;
    END $fn$;
    CREATE TRIGGER vehicle_checkins_live_insert AFTER INSERT ON vehicle_checkins
      REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION vehicle_checkins_inserted_live();
    CREATE TRIGGER vehicle_checkins_live_update AFTER UPDATE ON vehicle_checkins
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION vehicle_checkins_updated_live();

    -- A new form: every PUT moves config_version on (the kiosks fetch the form again).
    CREATE FUNCTION sites_config_live() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      INSERT INTO live_events (account_id, site_id, type, data)
      VALUES (NEW.account_id, NEW.id, 'config', jsonb_build_object('siteId', NEW.id, 'version', NEW.config_version));
      RETURN NULL;
    END $fn$;
    CREATE TRIGGER sites_config_live AFTER UPDATE ON sites
      FOR EACH ROW WHEN (OLD.config_version IS DISTINCT FROM NEW.config_version)
      EXECUTE FUNCTION sites_config_live();

    -- The vehicle feed moved on: one event per account and statement, with the feed's newest number.
    CREATE FUNCTION vehicle_feed_live() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      INSERT INTO live_events (account_id, site_id, type, data)
      SELECT account_id, NULL, 'vehicles', jsonb_build_object('changeSeq', max(change_seq))
      FROM feed_rows GROUP BY account_id ORDER BY account_id;
      RETURN NULL;
    END $fn$;
    CREATE TRIGGER vehicle_feed_live_insert AFTER INSERT ON vehicle_feed
      REFERENCING NEW TABLE AS feed_rows FOR EACH STATEMENT EXECUTE FUNCTION vehicle_feed_live();
    CREATE TRIGGER vehicle_feed_live_update AFTER UPDATE ON vehicle_feed
      REFERENCING NEW TABLE AS feed_rows FOR EACH STATEMENT EXECUTE FUNCTION vehicle_feed_live();
  `);
};
