import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';

const BATCH = 1_000;

/**
 * Finished notifications (sent or failed) created before their account's cut-off: `days`
 * (NOTIFICATION_LOG_RETENTION_DAYS), or the account's retention of visits when that is shorter. A pass's
 * email stays while its invitation's pass is still valid (the invitation shows its state). Pending ones are
 * never taken: their sender holds a lease on them.
 */
const expiredNotifications = (now: Date, days: number, batch: number) => sql`
  SELECT n.account_id, n.id FROM notifications n JOIN accounts a ON a.id = n.account_id
  WHERE n.status <> 'pending'
    AND n.created_at < ${now}::timestamptz - make_interval(days => least(${days}::int, coalesce(a.person_data_days, ${days}::int)))
    AND NOT EXISTS (SELECT 1 FROM invitations i
                    WHERE i.account_id = n.account_id AND i.id = n.invitation_id AND i.valid_until > ${now})
  LIMIT ${batch} FOR UPDATE OF n SKIP LOCKED`;

/**
 * Approve and Deny links that can no longer decide anything: used, or expired. A link being used right now
 * is locked by its decision and skipped; it goes at the next run.
 */
const spentLinks = (now: Date, batch: number) => sql`
  SELECT token_hash FROM host_decision_links WHERE used_at IS NOT NULL OR expires_at <= ${now}
  LIMIT ${batch} FOR UPDATE SKIP LOCKED`;

export interface PurgedNotifications {
  notifications: number;
  links: number;
}

/**
 * Deletes, a bounded batch per statement, notifications past their retention and spent decision links
 * (docs/privacy.md, What is kept). Safe in every instance at once (SKIP LOCKED); `signal` stops it between
 * batches.
 */
export async function purgeNotifications(
  db: Executor,
  input: { now: Date; days: number; batch?: number; signal?: AbortSignal },
): Promise<PurgedNotifications> {
  const batch = input.batch ?? BATCH;
  const total: PurgedNotifications = { notifications: 0, links: 0 };
  while (!input.signal?.aborted) {
    const row = await queryOne<PurgedNotifications>(
      db,
      sql`WITH notifications_gone AS (
            DELETE FROM notifications d USING (${expiredNotifications(input.now, input.days, batch)}) e
            WHERE d.account_id = e.account_id AND d.id = e.id RETURNING 1),
          links_gone AS (
            DELETE FROM host_decision_links d USING (${spentLinks(input.now, batch)}) s
            WHERE d.token_hash = s.token_hash RETURNING 1)
          SELECT (SELECT count(*) FROM notifications_gone)::int AS notifications,
            (SELECT count(*) FROM links_gone)::int AS links`,
    );
    const purged = row ?? { notifications: 0, links: 0 };
    total.notifications += purged.notifications;
    total.links += purged.links;
    if (purged.notifications < batch && purged.links < batch) break;
  }
  return total;
}
