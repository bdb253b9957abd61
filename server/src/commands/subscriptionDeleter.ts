import type { Principal } from '../auth/principal';
import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';
import { notFound } from '../errors/problem';
import { subscriptionVisibleSql } from '../policies/subscriptionAccess';
import { unleasedPendingSql } from '../webhooks/deliveryQueue';

/**
 * Deletes a subscription the principal can see (404 otherwise). The row lock first waits for any fan-out
 * holding it, so no delivery is written after the tombstone; the retention job deletes the log behind it.
 * Pending deliveries leave the due range, as a disable does; those leased to a dispatcher are left to it.
 */
export async function deleteSubscription(
  db: Executor,
  input: { principal: Principal; subscriptionId: number; now: Date },
): Promise<void> {
  const { principal, subscriptionId, now } = input;
  const row = await queryOne<{ id: number }>(
    db,
    sql`SELECT s.id FROM webhook_subscriptions s
        WHERE s.account_id = ${principal.accountId} AND s.id = ${subscriptionId} AND ${subscriptionVisibleSql(principal)} FOR UPDATE`,
  );
  if (!row) throw notFound(`Webhook subscription ${subscriptionId} does not exist.`);
  await queryOne(
    db,
    sql`WITH gone AS (
          DELETE FROM webhook_subscriptions WHERE account_id = ${principal.accountId} AND id = ${row.id} RETURNING account_id, id),
        tombstone AS (
          INSERT INTO webhook_subscription_tombstones (account_id, subscription_id, deleted_at)
          SELECT account_id, id, ${now}::timestamptz FROM gone)
        UPDATE webhook_deliveries d SET next_attempt_at = 'infinity', updated_at = ${now}
        FROM gone WHERE d.account_id = gone.account_id AND d.subscription_id = gone.id
          AND ${unleasedPendingSql(sql`${now}::timestamptz`)} AND d.next_attempt_at < 'infinity'`,
  );
}
