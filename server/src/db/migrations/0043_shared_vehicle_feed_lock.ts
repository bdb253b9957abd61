import type { MigrationFn } from './types';

/**
 * An account's vehicle and label writers no longer wait for each other, as the people feed's since 0042.
 * Migration 0014 made each statement that changes an account's vehicles, their label assignments or its
 * vehicle labels take the account's feed lock exclusively until commit, so that the feed's numbers follow
 * commit order; every such write of the account then waited for the one before it to commit, its WAL flush
 * included. Writers now take the lock shared: they run and commit together. The order is kept by the reader
 * instead (queries/vehicleChanges.ts): it takes the lock exclusively for one statement, which waits for every
 * writer of the account that has drawn a number, and then reads only numbers drawn before that moment, all of
 * which are committed or gone by then. A writer arriving later draws a higher number.
 */
const FEED_LOCK = 71_005; // LockNamespace.VEHICLE_FEED

/** As in 0014, but the accounts' feed locks taken shared (still in account order, before any number is drawn). */
const feedFunction = (name: string, kind: 'vehicle' | 'label', idColumn: string) => `
  CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    PERFORM pg_advisory_xact_lock_shared(${FEED_LOCK}, accounts.account_id)
    FROM (SELECT DISTINCT account_id FROM changed ORDER BY account_id) AS accounts;
    INSERT INTO vehicle_feed (account_id, kind, entity_id, change_seq)
    SELECT rows.account_id, '${kind}', rows.entity_id, nextval('vehicle_feed_seq')
    FROM (SELECT DISTINCT account_id, ${idColumn} AS entity_id FROM changed ORDER BY 1, 2) AS rows
    ON CONFLICT (account_id, kind, entity_id) DO UPDATE SET change_seq = EXCLUDED.change_seq;
    RETURN NULL;
  END $fn$;`;

export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    ${feedFunction('vehicle_feed_vehicles', 'vehicle', 'id')}
    ${feedFunction('vehicle_feed_assignments', 'vehicle', 'vehicle_id')}
    ${feedFunction('vehicle_feed_labels', 'label', 'id')}
  `);
};
