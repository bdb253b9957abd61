import { type Executor, queryOne } from '../db/query';
import { type Sql, sql } from '../db/sql';

/**
 * What an anonymized person check-in reads as in its API shape, merged over a stored copy of it: the
 * rules of docs/privacy.md (names "Deleted"; contact, host, purpose, custom fields and the deny reason gone).
 */
export const ANONYMOUS_CHECKIN = sql`jsonb_build_object(
  'person', jsonb_build_object('firstName', 'Deleted', 'lastName', 'Deleted', 'email', NULL, 'phone', NULL, 'company', NULL),
  'hostName', NULL, 'purpose', NULL, 'customFields', '{}'::jsonb, 'denyReason', NULL)`;

/** What an alert about an anonymized person check-in reads as: its subject is the name; a denial's reason goes. */
const ANONYMOUS_ALERT = sql`jsonb_build_object('subject', 'Deleted Deleted') ||
  CASE WHEN b.body ->> 'source' = 'denied' THEN jsonb_build_object('reason', NULL) ELSE '{}'::jsonb END`;

/** The input of a holder's rewrite: the account, and `ids`, the anonymized person check-ins (an SQL set). */
export interface CopiesOf {
  accountId: number;
  ids: Sql;
  now: Date;
}

/**
 * One table that holds a copy of what a person check-in says about a person (docs/privacy.md, Every copy).
 * THE place a table with person data is registered: erasure, retention and their test walk this list.
 */
export interface PersonDataHolder {
  /** The table, as the database names it. */
  table: string;
  /** What of a person it holds, in words (for docs/privacy.md and a failing test's message). */
  holds: string;
  /**
   * A data-modifying statement (run as a CTE of the anonymization) that removes the person data of the
   * check-ins in `ids` from this table, `RETURNING 1` per row changed; undefined for a table that derives
   * its person data from `person_checkins` at read time or holds none by design.
   */
  rewrite?: (input: CopiesOf) => Sql;
  /**
   * For retention, instead of `rewrite` per batch: one pass over the account after a run anonymized
   * anything (a table that is costly to search per batch, such as stored replies). Returns rows changed.
   */
  sweep?: (db: Executor, accountId: number) => Promise<number>;
}

/** What a visit as its phone sees it (`VisitCheckin`, docs/api.md) reads as once anonymized. */
const ANONYMOUS_VISIT = sql`jsonb_build_object('firstName', 'Deleted', 'lastName', 'Deleted', 'hostName', NULL)`;

/** A phone's visit (`VisitCheckin`): it has the person's names at its top level, and the site's name. */
const isVisit = (path: string) =>
  sql`(b.body #> ${`{${path}firstName}`}::text[]) IS NOT NULL AND (b.body #> ${`{${path}siteName}`}::text[]) IS NOT NULL`;

/**
 * A stored reply naming a person check-in: the check-in itself, a 409's `current`, an alert about it, or
 * the visit as a visitor's phone was answered it (itself, or as a 409's `current`).
 */
const replyCheckinId = sql`CASE
  WHEN (b.body -> 'person') IS NOT NULL THEN (b.body ->> 'checkinId')::bigint
  WHEN (b.body #> '{current,person}') IS NOT NULL THEN (b.body #>> '{current,checkinId}')::bigint
  WHEN ${isVisit('')} THEN (b.body ->> 'checkinId')::bigint
  WHEN ${isVisit('current,')} THEN (b.body #>> '{current,checkinId}')::bigint
  WHEN b.body ->> 'kind' = 'person' AND (b.body -> 'subject') IS NOT NULL THEN (b.body ->> 'checkinId')::bigint END`;

const anonymousReply = sql`CASE
  WHEN (b.body -> 'person') IS NOT NULL THEN b.body || ${ANONYMOUS_CHECKIN}
  WHEN (b.body #> '{current,person}') IS NOT NULL THEN jsonb_set(b.body, '{current}', (b.body -> 'current') || ${ANONYMOUS_CHECKIN})
  WHEN ${isVisit('')} THEN b.body || ${ANONYMOUS_VISIT}
  WHEN ${isVisit('current,')} THEN jsonb_set(b.body, '{current}', (b.body -> 'current') || ${ANONYMOUS_VISIT})
  ELSE b.body || ${ANONYMOUS_ALERT} END`;

/** The account's stored replies that are JSON objects, as `b` (body as jsonb). */
const repliesOf = (accountId: number) => sql`SELECT k.account_id, k.key, k.body::jsonb AS body FROM idempotency_keys k
  WHERE k.account_id = ${accountId} AND k.body LIKE '{%' AND k.body LIKE '%"checkinId"%'`;

function rewriteReplies(accountId: number, which: Sql): Sql {
  return sql`UPDATE idempotency_keys k SET body = (${anonymousReply})::text
    FROM (${repliesOf(accountId)}) b
    WHERE k.account_id = b.account_id AND k.key = b.key AND ${which} AND b.body <> ${anonymousReply}
    RETURNING 1`;
}

export const personDataHolders: readonly PersonDataHolder[] = [
  {
    table: 'outbox_events',
    holds:
      'every webhook event of a person check-in (entered, pending, stopped, exited, break started and ended, and any later kind) carries the check-in as it was',
    // By shape, not by type: any event whose data.checkin is a person check-in (migration 0024's index).
    rewrite: ({ accountId, ids }) => sql`UPDATE outbox_events o
      SET payload = jsonb_set(o.payload, '{data,checkin}', (o.payload #> '{data,checkin}') || ${ANONYMOUS_CHECKIN})
      WHERE o.account_id = ${accountId} AND o.payload #> '{data,checkin,person}' IS NOT NULL
        AND (o.payload #>> '{data,checkin,checkinId}')::bigint IN (${ids})
        AND o.payload #> '{data,checkin}' <> (o.payload #> '{data,checkin}') || ${ANONYMOUS_CHECKIN}
      RETURNING 1`,
  },
  {
    table: 'idempotency_keys',
    holds: "stored replies: a check-in, a 409's current check-in, an alert's subject (the person's name)",
    rewrite: ({ accountId, ids }) => rewriteReplies(accountId, sql`(${replyCheckinId}) IN (${ids})`),
    sweep: async (db, accountId) => {
      const anonymized = sql`SELECT c.id FROM person_checkins c WHERE c.account_id = ${accountId} AND c.anonymized_at IS NOT NULL`;
      const row = await queryOne<{ count: number }>(
        db,
        sql`WITH rewritten AS (${rewriteReplies(accountId, sql`(${replyCheckinId}) IN (${anonymized})`)})
            SELECT count(*)::int AS count FROM rewritten`,
      );
      return row?.count ?? 0;
    },
  },
  {
    table: 'notifications',
    holds:
      "the recipient: a host's own address for a host's message (nothing of the visitor: the message is composed when sent, from the visit), the visitor's email for an invitation's pass email",
    // A pass email of an invitation the visit came by: its address goes, and one not yet sent never is.
    rewrite: ({ accountId, ids }) => sql`UPDATE notifications n SET recipient = '',
        status = CASE WHEN n.status = 'pending' THEN 'failed' ELSE n.status END, next_attempt_at = NULL, locked_until = NULL
      FROM person_checkins c
      WHERE c.account_id = ${accountId} AND c.id IN (${ids}) AND c.invitation_id IS NOT NULL
        AND n.account_id = c.account_id AND n.invitation_id = c.invitation_id AND n.recipient <> ''
      RETURNING 1`,
  },
  {
    table: 'host_decision_links',
    holds: "nothing of the visitor: the link's hash, the visit's and host's ids; deleted once used or expired",
  },
  {
    table: 'alert_acknowledgements',
    holds: 'nothing of the visitor: who on the staff acknowledged; an alert reads its subject from the check-in',
  },
  {
    table: 'audit_events',
    holds: 'nothing of the visitor by design: the target id, never a name (an erasure keeps a hash); append-only',
  },
];
