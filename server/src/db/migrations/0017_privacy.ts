import type { MigrationFn } from './types';

/**
 * Retention and erasure of visitors' personal data (docs/privacy.md): each account's retention, when each
 * check-in was anonymized (the job never rewrites a row twice), the index the job scans by, an index to
 * find the webhook events that copy a person check-in, and a detail for audit entries (an erasure's hash).
 */
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    ALTER TABLE accounts ADD COLUMN person_data_days integer CHECK (person_data_days BETWEEN 1 AND 3650);
    ALTER TABLE person_checkins ADD COLUMN anonymized_at timestamptz;
    -- A visit counts from when it ended, or began if it never ended.
    CREATE INDEX person_checkins_retention ON person_checkins (account_id, (coalesce(exit_at, entry_at)), id)
      WHERE anonymized_at IS NULL;
    CREATE INDEX outbox_events_person_checkin ON outbox_events (account_id, ((payload #>> '{data,checkin,checkinId}')::bigint))
      WHERE type LIKE 'PERSON_CHECKIN_%';
    ALTER TABLE audit_events ADD COLUMN detail jsonb;
  `);
};
