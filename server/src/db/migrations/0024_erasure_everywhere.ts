import type { MigrationFn } from './types';

/**
 * Erasure and retention reach every copy of a person check-in (docs/privacy.md, Every copy). Earlier runs
 * rewrote only the `PERSON_CHECKIN_*` webhook events and stored replies that were the check-in itself: the
 * break events, a 409's `current` and an alert's subject kept the person. This cleans what they missed,
 * for every check-in already anonymized, with the rules of that time and of now (a deny reason goes too),
 * and indexes the events by the shape the anonymization now finds them by (any event carrying a person
 * check-in, whatever its type). Written out here, not taken from the code, so it stays what it was.
 */
const ANONYMOUS = `jsonb_build_object(
  'person', jsonb_build_object('firstName', 'Deleted', 'lastName', 'Deleted', 'email', NULL, 'phone', NULL, 'company', NULL),
  'hostName', NULL, 'purpose', NULL, 'customFields', '{}'::jsonb, 'denyReason', NULL)`;

export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    CREATE INDEX IF NOT EXISTS outbox_events_person ON outbox_events (account_id, ((payload #>> '{data,checkin,checkinId}')::bigint))
      WHERE payload #> '{data,checkin,person}' IS NOT NULL;
    DROP INDEX IF EXISTS outbox_events_person_checkin;

    UPDATE person_checkins SET deny_reason = NULL,
      stop_reason = CASE WHEN stop_source = 'denied' THEN NULL ELSE stop_reason END
    WHERE anonymized_at IS NOT NULL AND (deny_reason IS NOT NULL OR (stop_source = 'denied' AND stop_reason IS NOT NULL));

    WITH anonymous_checkin AS (SELECT ${ANONYMOUS} AS value)
    UPDATE outbox_events o
    SET payload = jsonb_set(o.payload, '{data,checkin}', (o.payload #> '{data,checkin}') || a.value)
    FROM anonymous_checkin a, person_checkins c
    WHERE o.payload #> '{data,checkin,person}' IS NOT NULL
      AND c.account_id = o.account_id AND c.id = (o.payload #>> '{data,checkin,checkinId}')::bigint
      AND c.anonymized_at IS NOT NULL
      AND o.payload #> '{data,checkin}' <> (o.payload #> '{data,checkin}') || a.value;

    WITH anonymous_checkin AS (SELECT ${ANONYMOUS} AS value)
    UPDATE idempotency_keys k
    SET body = (CASE
      WHEN (b.body -> 'person') IS NOT NULL THEN b.body || a.value
      WHEN (b.body #> '{current,person}') IS NOT NULL THEN jsonb_set(b.body, '{current}', (b.body -> 'current') || a.value)
      ELSE b.body || jsonb_build_object('subject', 'Deleted Deleted') ||
        CASE WHEN b.body ->> 'source' = 'denied' THEN jsonb_build_object('reason', NULL) ELSE '{}'::jsonb END END)::text
    FROM anonymous_checkin a,
      (SELECT account_id, key, body::jsonb AS body FROM idempotency_keys
       WHERE body LIKE '{%' AND body LIKE '%"checkinId"%') b,
      person_checkins c
    WHERE k.account_id = b.account_id AND k.key = b.key
      AND c.account_id = b.account_id AND c.anonymized_at IS NOT NULL
      AND c.id = (CASE
        WHEN (b.body -> 'person') IS NOT NULL THEN (b.body ->> 'checkinId')::bigint
        WHEN (b.body #> '{current,person}') IS NOT NULL THEN (b.body #>> '{current,checkinId}')::bigint
        WHEN b.body ->> 'kind' = 'person' AND (b.body -> 'subject') IS NOT NULL THEN (b.body ->> 'checkinId')::bigint END);
  `);
};
