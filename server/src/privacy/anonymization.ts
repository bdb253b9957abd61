import { type Executor, queryOne } from '../db/query';
import { type Sql, sql } from '../db/sql';

/** What an anonymized person check-in reads as in its API shape, merged over a stored copy of it. */
const ANONYMOUS = sql`jsonb_build_object(
  'person', jsonb_build_object('firstName', 'Deleted', 'lastName', 'Deleted', 'email', NULL, 'phone', NULL, 'company', NULL),
  'hostName', NULL, 'purpose', NULL, 'customFields', '{}'::jsonb)`;

export interface Anonymized {
  checkins: number;
  /** Webhook events (and so their deliveries, which read them) whose copy of a check-in was rewritten. */
  events: number;
  /** Stored Idempotency-Key replies of those check-ins that were rewritten. */
  replies: number;
}

/** The check-in id of a stored reply that is a person check-in (not a vehicle's: another sequence), else null. */
const personReplyId = sql`CASE WHEN k.body LIKE '{"checkinId":%' AND k.body LIKE '%"person":{%'
  THEN ((k.body::jsonb) ->> 'checkinId')::bigint END`;

/**
 * Anonymizes the person check-ins of one account that `chosen` selects (a `SELECT c.id FROM
 * person_checkins c …`, which locks them), once each, with the copies of them in webhook events and, when
 * `withReplies`, in stored replies; one statement. Names become "Deleted"; times, site, status, sources,
 * breaks and labels stay (docs/privacy.md).
 */
export async function anonymizeCheckins(
  db: Executor,
  input: { accountId: number; chosen: Sql; now: Date; withReplies: boolean },
): Promise<Anonymized> {
  const { accountId } = input;
  const replies = input.withReplies
    ? sql`UPDATE idempotency_keys k SET body = ((k.body::jsonb) || ${ANONYMOUS})::text
          WHERE k.account_id = ${accountId} AND ${personReplyId} = ANY (ARRAY(SELECT id FROM checkins))
          RETURNING 1`
    : sql`SELECT 1 WHERE false`;
  const row = await queryOne<Anonymized>(
    db,
    sql`WITH chosen AS (${input.chosen}),
      checkins AS (
        UPDATE person_checkins c SET first_name = 'Deleted', last_name = 'Deleted', email = NULL, phone = NULL,
          company = NULL, host_name = NULL, purpose = NULL, custom_fields = '{}', anonymized_at = ${input.now},
          updated_at = ${input.now}
        WHERE c.account_id = ${accountId} AND c.id IN (SELECT id FROM chosen) AND c.anonymized_at IS NULL
        RETURNING c.id),
      events AS (
        UPDATE outbox_events o SET payload = jsonb_set(o.payload, '{data,checkin}', (o.payload #> '{data,checkin}') || ${ANONYMOUS})
        WHERE o.account_id = ${accountId} AND o.type LIKE 'PERSON_CHECKIN_%'
          AND (o.payload #>> '{data,checkin,checkinId}')::bigint = ANY (ARRAY(SELECT id FROM checkins))
        RETURNING 1),
      replies AS (${replies})
      SELECT (SELECT count(*) FROM checkins)::int AS checkins, (SELECT count(*) FROM events)::int AS events,
        (SELECT count(*) FROM replies)::int AS replies`,
  );
  if (!row) throw new Error('the anonymization returned nothing');
  return row;
}

/**
 * Rewrites the account's stored replies that still hold the person data of a check-in anonymized since:
 * one scan of the account's replies (kept IDEMPOTENCY_TTL_HOURS), after a retention run changed anything.
 */
export async function anonymizeStoredReplies(db: Executor, accountId: number): Promise<number> {
  const row = await queryOne<{ count: number }>(
    db,
    sql`WITH rewritten AS (
          UPDATE idempotency_keys k SET body = ((k.body::jsonb) || ${ANONYMOUS})::text
          FROM person_checkins c
          WHERE k.account_id = ${accountId} AND c.account_id = ${accountId}
            AND c.id = ${personReplyId} AND c.anonymized_at IS NOT NULL
            AND CASE WHEN ${personReplyId} IS NULL THEN false ELSE (k.body::jsonb) <> ((k.body::jsonb) || ${ANONYMOUS}) END
          RETURNING 1)
        SELECT count(*)::int AS count FROM rewritten`,
  );
  return row?.count ?? 0;
}
