import type { UpdateWebhookSubscriptionRequest, WebhookSubscription } from '../../../shared/src/schemas/webhooks';
import type { Principal } from '../auth/principal';
import { findSubscription } from '../queries/webhookRows';
import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';
import { notFound } from '../errors/problem';
import { unleasedPendingSql } from '../webhooks/deliveryQueue';
import { subscriptionSites } from '../policies/subscriptionAccess';
import { presentSubscription } from '../presenters/webhook';

interface SubscriptionChange {
  accountId: number;
  id: number;
  url: string | null;
  events: string[] | null;
  allSites: boolean | null;
  /** Undefined: the description stays. */
  description: string | null | undefined;
  enabled: boolean | null;
  now: Date;
  /** Undefined: the sites stay. */
  siteIds: number[] | undefined;
}

const update = (change: SubscriptionChange) => {
  const account = sql`${change.accountId}::integer`;
  const enabled = sql`${change.enabled}::boolean`;
  const now = sql`${change.now}::timestamptz`;
  const setSites = sql`${change.siteIds !== undefined}::boolean`;
  const siteIds = sql`${change.siteIds ?? []}::int[]`;
  return sql`
  WITH sub AS (
    UPDATE webhook_subscriptions
    SET url = COALESCE(${change.url}, url), events = COALESCE(${change.events}::text[], events),
        all_sites = COALESCE(${change.allSites}::boolean, all_sites),
        description = CASE WHEN ${change.description !== undefined}::boolean THEN ${change.description ?? null} ELSE description END,
        enabled = COALESCE(${enabled}, enabled),
        disabled_reason = CASE WHEN ${enabled} IS NULL THEN disabled_reason WHEN ${enabled} THEN NULL ELSE 'Disabled through the API.' END,
        updated_at = ${now}
    WHERE account_id = ${account} AND id = ${change.id} RETURNING id),
  cleared AS (
    DELETE FROM webhook_subscription_sites ws USING sub
    WHERE ${setSites} AND ws.account_id = ${account} AND ws.subscription_id = sub.id AND ws.site_id <> ALL (${siteIds})),
  added AS (
    INSERT INTO webhook_subscription_sites (account_id, subscription_id, site_id)
    SELECT ${account}, sub.id, site FROM sub, unnest(${siteIds}) AS site WHERE ${setSites}
    ON CONFLICT DO NOTHING),
  -- A disabled subscription's pending deliveries leave the due range (next attempt at 'infinity'), so no
  -- claim reads past them however many there are; enabling makes them due at once. Deliveries leased to a
  -- dispatcher are left to it (the claim's check skips them once recorded): the two never lock the same rows.
  paused AS (
    UPDATE webhook_deliveries d
    SET next_attempt_at = CASE WHEN ${enabled} THEN ${now} ELSE 'infinity' END, updated_at = ${now}
    FROM sub WHERE ${enabled} IS NOT NULL AND d.account_id = ${account} AND d.subscription_id = sub.id
      AND ${unleasedPendingSql(now)} AND (d.next_attempt_at = 'infinity') = ${enabled})
  SELECT id FROM sub`;
};

/**
 * Changes the fields sent (PATCH); `siteIds` sent replaces the site filter (null: all the token may view).
 * A new URL was checked by the route before its transaction (checkSubscriptionUrl).
 */
export async function updateSubscription(
  db: Executor,
  input: { principal: Principal; subscriptionId: number; request: UpdateWebhookSubscriptionRequest; now: Date },
): Promise<WebhookSubscription> {
  const { principal, subscriptionId, request, now } = input;
  const missing = () => notFound(`Webhook subscription ${subscriptionId} does not exist.`);
  if (!(await findSubscription(db, principal, subscriptionId))) throw missing();
  const sites =
    request.siteIds === undefined ? undefined : await subscriptionSites(db, principal, request.siteIds ?? undefined);
  const events = request.events ? [...new Set(request.events)] : null;
  // Locked first, in a statement of its own: the update's snapshot is then taken after any other change of
  // this subscription (a PATCH, a 410 that disabled it) has committed, so it sees the deliveries that change
  // parked and an enable never leaves one parked.
  await queryOne(
    db,
    sql`SELECT id FROM webhook_subscriptions WHERE account_id = ${principal.accountId} AND id = ${subscriptionId} FOR UPDATE`,
  );
  await queryOne(
    db,
    update({
      accountId: principal.accountId,
      id: subscriptionId,
      url: request.url ?? null,
      events,
      allSites: sites?.allSites ?? null,
      description: request.description === undefined ? undefined : request.description || null,
      enabled: request.enabled ?? null,
      now,
      siteIds: sites?.siteIds,
    }),
  );
  const row = await findSubscription(db, principal, subscriptionId);
  if (!row) throw missing();
  return presentSubscription(row);
}
