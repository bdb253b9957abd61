import type { Principal } from '../auth/principal';
import { subscriptionVisibleSql } from '../policies/subscriptionAccess';
import type { DeliveryRow, SubscriptionRow } from '../presenters/webhook';
import { type Executor, queryOne, queryRows } from '../db/query';
import { type Sql, raw, sql } from '../db/sql';

/** Subscription columns, with the site list in the same statement, as the principal may see them. */
const subscriptionSelect = (principal: Principal): Sql => sql`
  SELECT s.id, s.url, s.events, s.all_sites, s.description, s.enabled, s.disabled_reason, s.created_at, s.updated_at,
         ARRAY(SELECT ws.site_id FROM webhook_subscription_sites ws
               WHERE ws.account_id = s.account_id AND ws.subscription_id = s.id ORDER BY ws.site_id) AS site_ids
  FROM webhook_subscriptions s
  WHERE s.account_id = ${principal.accountId} AND ${subscriptionVisibleSql(principal)}`;

/** One subscription the token may see, or undefined. */
export async function findSubscription(
  db: Executor,
  principal: Principal,
  id: number,
): Promise<SubscriptionRow | undefined> {
  return queryOne<SubscriptionRow>(db, sql`${subscriptionSelect(principal)} AND s.id = ${id}`);
}

/** A page of the subscriptions the token may see, oldest first, after `afterId`. */
export async function listSubscriptions(
  db: Executor,
  principal: Principal,
  afterId: number,
  limit: number,
): Promise<SubscriptionRow[]> {
  return queryRows<SubscriptionRow>(
    db,
    sql`${subscriptionSelect(principal)} AND s.id > ${afterId} ORDER BY s.id LIMIT ${limit}`,
  );
}

export const DELIVERY_COLUMNS = raw(
  'd.id, d.outbox_id, d.event_id, d.event_type, d.status, d.attempts, d.next_attempt_at, d.created_at',
);

/**
 * A page of one subscription's delivery log, newest event first (one delivery per event and subscription,
 * so the outbox id orders it and is the keyset), optionally by status.
 */
export async function listDeliveries(
  db: Executor,
  input: {
    accountId: number;
    subscriptionId: number;
    statuses: string[] | undefined;
    beforeOutboxId: number | undefined;
    limit: number;
  },
): Promise<DeliveryRow[]> {
  return queryRows<DeliveryRow>(
    db,
    sql`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
        WHERE d.account_id = ${input.accountId} AND d.subscription_id = ${input.subscriptionId}
          AND (${input.statuses ?? null}::text[] IS NULL OR d.status = ANY (${input.statuses ?? null}::text[]))
          AND d.outbox_id < ${input.beforeOutboxId ?? Number.MAX_SAFE_INTEGER}
        ORDER BY d.outbox_id DESC LIMIT ${input.limit}`,
  );
}
