import { type Executor, prepared, queryOne, queryRows } from '../db/query';

/**
 * One batch of the webhook log's retention, for one account: of the next `$3` events after id `$4`
 * (oldest first, by key), those older than `$2` that are fanned out and have no delivery still pending go,
 * with their finished deliveries. An event kept back (a delivery still retrying, or parked behind a disabled
 * subscription) keeps all its deliveries, so the log never shows half of one event.
 *
 * Locks, so nothing is deleted under a writer that needs it:
 * - the account's subscriptions `FOR KEY SHARE` first, as the fan-out does: a subscription `DELETE` (which
 *   takes its row `FOR UPDATE`, then deletes its deliveries) waits for this batch, or this batch for it,
 *   never each for the other's delivery rows;
 * - the events `FOR UPDATE SKIP LOCKED`: a manual retry share-locks the event of the delivery it revives
 *   (webhookRows.retryDelivery), so the batch skips an event being retried, and a retry that comes while
 *   the batch holds the event waits, then finds the delivery gone (404), never a pending delivery whose
 *   event is gone.
 * Nothing else makes a finished delivery pending again, and the fan-out only writes deliveries of events
 * still queued (excluded here).
 */
const PURGE_BATCH = prepared(`
  WITH subs AS (
    SELECT coalesce(array_agg(s.id), '{}') AS ids FROM (
      SELECT s.id FROM webhook_subscriptions s WHERE s.account_id = $1 ORDER BY s.id FOR KEY SHARE) s),
  scanned AS (
    SELECT o.id, o.created_at FROM outbox_events o
    WHERE o.account_id = $1 AND o.id > $4 ORDER BY o.id LIMIT $3),
  old AS (
    SELECT o.id FROM outbox_events o
    WHERE o.account_id = $1 AND o.id = ANY (ARRAY(SELECT id FROM scanned WHERE created_at < $2))
      AND NOT EXISTS (SELECT 1 FROM outbox_queue q WHERE q.outbox_id = o.id)
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d, subs
                      WHERE d.account_id = $1 AND d.subscription_id = ANY (subs.ids) AND d.outbox_id = o.id
                        AND d.status = 'pending')
    FOR UPDATE OF o SKIP LOCKED),
  deliveries AS (
    DELETE FROM webhook_deliveries d USING subs
    WHERE d.account_id = $1 AND d.subscription_id = ANY (subs.ids) AND d.outbox_id = ANY (ARRAY(SELECT id FROM old))
    RETURNING 1),
  events AS (
    DELETE FROM outbox_events o WHERE o.account_id = $1 AND o.id = ANY (ARRAY(SELECT id FROM old))
    RETURNING 1)
  SELECT (SELECT count(*) FROM events)::int AS events, (SELECT count(*) FROM deliveries)::int AS deliveries,
    (SELECT max(id) FROM scanned) AS "lastId",
    -- Ids follow time (each event is stamped as it is written): past the first event young enough, stop.
    (SELECT count(*) FROM scanned) < $3 OR EXISTS (SELECT 1 FROM scanned WHERE created_at >= $2) AS done`);

interface BatchResult {
  events: number;
  deliveries: number;
  lastId: number | null;
  done: boolean;
}

export interface PurgedLog {
  events: number;
  deliveries: number;
}

/**
 * Deletes the webhook log older than `before` (events and their deliveries, CONTRACT §9's delivery log), a
 * bounded batch at a time and each batch its own statement, so no transaction grows with the log. Safe in
 * every instance at once (SKIP LOCKED). The events of accounts with no subscription at all go the same way.
 * Every account, or those of `accountIds`.
 */
export async function purgeWebhookLog(
  db: Executor,
  before: Date,
  options: { batch?: number; accountIds?: number[] } = {},
): Promise<PurgedLog> {
  const batch = options.batch ?? 2_000;
  const total: PurgedLog = { events: 0, deliveries: 0 };
  const accountIds = options.accountIds ?? (await queryRows<{ id: number }>(db, 'SELECT id FROM accounts ORDER BY id')).map((row) => row.id);
  for (const accountId of accountIds) {
    for (let after = 0; ;) {
      const result = await queryOne<BatchResult>(db, PURGE_BATCH, [accountId, before, batch, after]);
      if (!result) break;
      total.events += result.events;
      total.deliveries += result.deliveries;
      if (result.done || result.lastId === null) break;
      after = result.lastId;
    }
  }
  return total;
}
