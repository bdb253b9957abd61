import type { Notification } from '../../../shared/src/schemas/notifications';
import type { Principal } from '../auth/principal';
import { type Executor, queryRows } from '../db/query';
import { empty, sql } from '../db/sql';
import { siteVisibleSql } from '../policies/siteVisibility';
import { cursorScope, decodeCursor, toPage } from './cursor';

interface NotificationRow {
  id: number;
  checkin_id: number;
  host_id: number;
  channel: Notification['channel'];
  event: Notification['event'];
  status: Notification['status'];
  attempts: Notification['attempts'];
  sent_at: Date | null;
}

const present = (row: NotificationRow): Notification => ({
  notificationId: row.id,
  checkinId: row.checkin_id,
  hostId: row.host_id,
  channel: row.channel,
  event: row.event,
  status: row.status,
  attempts: row.attempts,
  sentAt: row.sent_at ? row.sent_at.toISOString() : null,
});

/**
 * What hosts were told (not the visitors' invitation emails), newest first: of the given check-ins, or of every site the caller can view. A
 * check-in of a site the caller cannot view has none to show, as if it had none (no existence leak).
 */
export async function listNotifications(
  db: Executor,
  principal: Principal,
  filter: { checkinIds?: number[]; limit: number; cursor?: string },
): Promise<{ data: Notification[]; nextCursor: string | null }> {
  const scope = cursorScope('notifications', { accountId: principal.accountId, checkinIds: filter.checkinIds ?? null });
  const before = filter.cursor ? decodeCursor(filter.cursor, scope).id : null;
  const rows = await queryRows<NotificationRow>(
    db,
    sql`SELECT n.id, n.checkin_id, n.host_id, n.channel, n.event, n.status, n.attempts, n.sent_at
        FROM notifications n
        WHERE n.account_id = ${principal.accountId} AND ${siteVisibleSql(principal, sql`n.site_id`)}
          -- Hosts' messages only: a visitor's invitation email is the invitation's (its passEmail).
          AND n.checkin_id IS NOT NULL
          ${filter.checkinIds ? sql`AND n.checkin_id = ANY(${filter.checkinIds}::bigint[])` : empty}
          ${before === null ? empty : sql`AND n.id < ${before}::bigint`}
        ORDER BY n.id DESC LIMIT ${filter.limit + 1}`,
  );
  return toPage(rows, filter.limit, present, (row) => ({ atMicros: 0, id: row.id }), scope);
}
