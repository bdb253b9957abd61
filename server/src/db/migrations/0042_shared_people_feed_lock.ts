import type { MigrationFn } from './types';

/**
 * Writers of one site no longer wait for each other (docs/operations.md, The write path). Migration 0030
 * made each statement that changes a site's person visits take the site's feed lock exclusively until
 * commit, so that the site's feed numbers follow commit order; every create at a site then waited for the
 * one before it to commit, its WAL flush included, and one busy site could take no more creates a second
 * than the disk takes flushes (about a fifth of what the database does without the lock, on the benchmark's
 * machine). Writers now take the lock shared: they run and commit together, and their flushes are grouped.
 * The order is kept by the reader instead (queries/peopleChanges.ts): it takes the lock exclusively for a
 * moment, which waits for every writer that has drawn a number at the site, and reads only numbers drawn
 * before that moment, all of which are committed or gone by then.
 */
const SITE_FEED_LOCK = 71_030; // LockNamespace.PEOPLE_FEED

/** As in 0030: a `checkin` event per changed visit, and an `alert` after it for each that became STOP. */
const publishVisits = (rows: string) => `
    INSERT INTO live_events (account_id, site_id, type, data)
    SELECT r.account_id, r.site_id, e.type, e.data FROM ${rows}
    CROSS JOIN LATERAL (
      SELECT 'checkin' AS type, 0 AS rank,
        jsonb_build_object('kind', 'person', 'siteId', r.site_id, 'checkinId', r.id, 'status', r.status)
          || CASE WHEN r.anonymized THEN '{"anonymized": true}'::jsonb ELSE '{}'::jsonb END AS data
      UNION ALL
      SELECT 'alert', 1, jsonb_build_object('kind', 'person', 'siteId', r.site_id, 'checkinId', r.id) WHERE r.stopped) AS e
    ORDER BY r.site_id, r.id, e.rank;`;

/** As in 0030, but the sites' feed locks taken shared (still in site order, before any number is drawn). */
const personPublish = (rows: string) => `
    PERFORM pg_advisory_xact_lock_shared(${SITE_FEED_LOCK}, s.site_id)
    FROM (SELECT DISTINCT site_id FROM ${rows} ORDER BY site_id) AS s;
    INSERT INTO person_feed (account_id, checkin_id, site_id, change_seq)
    SELECT account_id, id, site_id, nextval('person_feed_seq') FROM ${rows} ORDER BY site_id, id
    ON CONFLICT (account_id, checkin_id) DO UPDATE SET change_seq = EXCLUDED.change_seq;
${publishVisits(rows)}`;

const PERSON_CHANGED = `
  n.status IS DISTINCT FROM o.status OR n.stopped_at IS DISTINCT FROM o.stopped_at
  OR ((n.first_name, n.last_name, n.company) IS DISTINCT FROM (o.first_name, o.last_name, o.company)
      AND (n.exit_at IS NULL OR n.exit_at > now() - interval '1 day'))`;

const INSERTED = `(SELECT account_id, site_id, id, status, stopped_at IS NOT NULL AS stopped, false AS anonymized
    FROM inserted) AS r`;
const PERSON_UPDATED = `(SELECT n.account_id, n.site_id, n.id, n.status,
      n.stopped_at IS NOT NULL AND n.stopped_at IS DISTINCT FROM o.stopped_at AS stopped,
      n.anonymized_at IS NOT NULL AND o.anonymized_at IS NULL AS anonymized
    FROM new_rows n JOIN old_rows o ON o.account_id = n.account_id AND o.id = n.id
    WHERE ${PERSON_CHANGED}) AS r`;

export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    CREATE OR REPLACE FUNCTION person_checkins_inserted_live() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN${personPublish(INSERTED)}
      RETURN NULL;
    END $fn$;
    CREATE OR REPLACE FUNCTION person_checkins_updated_live() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN${personPublish(PERSON_UPDATED)}
      RETURN NULL;
    END $fn$;
  `);
};
