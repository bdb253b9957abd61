import { hostNotificationFor } from '../../../shared/src/domain/hostNotifications';
import { type Sql, empty, sql } from '../db/sql';

/** How long a notification is tried before it is `failed` (docs/notifications.md, Delivery). */
export const NOTIFICATION_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * A CTE, to append to a visit's write statement, that queues what the visit's host is told of this change:
 * one row per channel the host is told on (docs/notifications.md), only when `onlyIf` holds (the change
 * applied). The unique index makes it once per visit, event and channel, however often the change is
 * written; a change that tells nobody (no host, a STOP, a break) adds nothing. Starts with its comma.
 */
export function hostNotificationsCte(
  input: {
    row: { account_id: number; site_id: number; id: number; host_id: number | null };
    /** The webhook event the change emits (PERSON_CHECKIN_ENTERED, …), which says whether the host is told. */
    webhookEvent: string | null;
    /** When the visitor arrived, or began to wait (the message says it). */
    at: Date;
    now: Date;
  },
  onlyIf: Sql,
): Sql {
  const { row, now } = input;
  const event = hostNotificationFor(input.webhookEvent);
  if (event === null || row.host_id === null) return empty;
  const giveUpAt = new Date(now.getTime() + NOTIFICATION_LIFETIME_MS);
  return sql`,
  notify AS (
    INSERT INTO notifications (account_id, site_id, checkin_id, host_id, event, channel, recipient, language,
      event_at, next_attempt_at, give_up_at, created_at)
    SELECT h.account_id, ${row.site_id}::integer, ${row.id}::bigint, h.id, ${event}, channel,
      CASE channel WHEN 'email' THEN h.email ELSE h.chat_webhook_url END, h.language,
      ${input.at}::timestamptz, ${now}::timestamptz, ${giveUpAt}::timestamptz, ${now}::timestamptz
    FROM hosts h CROSS JOIN LATERAL unnest(h.notify_by) AS channel
    WHERE h.account_id = ${row.account_id}::integer AND h.id = ${row.host_id}::integer AND ${onlyIf}
    ON CONFLICT (account_id, checkin_id, event, channel) DO NOTHING)`;
}
