import { type Executor, queryRows } from '../db/query';
import { sql } from '../db/sql';

/** A notification leased for one attempt (docs/notifications.md, Delivery). */
export interface ClaimedNotification {
  account_id: number;
  id: number;
  site_id: number;
  /** The visit a host is told of; null for a visitor's invitation email. */
  checkin_id: number | null;
  host_id: number | null;
  /** The invitation whose pass a visitor's email carries; null for a host's message. */
  invitation_id: number | null;
  event: string;
  channel: 'email' | 'chat';
  recipient: string;
  language: string;
  event_at: Date;
  created_at: Date;
  give_up_at: Date;
  /** Attempts made before this one. */
  tried: number;
  /** The lease this attempt holds: its outcome is written only while it still holds. */
  locked_until: Date;
}

/**
 * Leases up to `limit` due notifications for `leaseMs`, oldest due first, skipping those another sender
 * holds (SKIP LOCKED while choosing; the lease keeps them apart afterwards, with no row lock held while a
 * message is on the wire). A sender that dies leaves its leases to expire; then another one tries.
 */
export async function claimDueNotifications(
  db: Executor,
  input: { limit: number; leaseMs: number; now: Date },
): Promise<ClaimedNotification[]> {
  const lease = new Date(input.now.getTime() + input.leaseMs);
  return queryRows<ClaimedNotification>(
    db,
    sql`WITH due AS (
          SELECT account_id, id FROM notifications
          WHERE status = 'pending' AND next_attempt_at <= ${input.now}
            AND (locked_until IS NULL OR locked_until <= ${input.now})
          ORDER BY next_attempt_at LIMIT ${input.limit} FOR UPDATE SKIP LOCKED)
        UPDATE notifications n SET locked_until = ${lease}
        FROM due WHERE n.account_id = due.account_id AND n.id = due.id
        RETURNING n.account_id, n.id, n.site_id, n.checkin_id, n.host_id, n.invitation_id, n.event, n.channel, n.recipient, n.language,
          n.event_at, n.created_at, n.give_up_at, jsonb_array_length(n.attempts) AS tried, n.locked_until`,
  );
}

/** The outcome of one attempt: sent, tried again at `nextAttemptAt`, or failed for good. */
export type AttemptOutcome =
  | { status: 'sent'; at: Date }
  | { status: 'pending'; at: Date; error: string; nextAttemptAt: Date }
  | { status: 'failed'; at: Date; error: string };

/**
 * Records an attempt, only while the lease it was claimed with holds (so a late outcome of an attempt whose
 * lease expired cannot overwrite another's). False when the lease was lost.
 */
export async function recordNotificationAttempt(
  db: Executor,
  notification: Pick<ClaimedNotification, 'account_id' | 'id' | 'locked_until'>,
  outcome: AttemptOutcome,
): Promise<boolean> {
  const attempt = { at: outcome.at.toISOString(), error: outcome.status === 'sent' ? null : outcome.error };
  const rows = await queryRows<{ id: number }>(
    db,
    sql`UPDATE notifications SET status = ${outcome.status}, attempts = attempts || ${JSON.stringify([attempt])}::jsonb,
          next_attempt_at = ${outcome.status === 'pending' ? outcome.nextAttemptAt : null}::timestamptz,
          sent_at = ${outcome.status === 'sent' ? outcome.at : null}::timestamptz, locked_until = NULL
        WHERE account_id = ${notification.account_id} AND id = ${notification.id}
          AND locked_until = ${notification.locked_until}
        RETURNING id`,
  );
  return rows.length === 1;
}
