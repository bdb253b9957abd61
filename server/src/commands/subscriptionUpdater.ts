import type { UpdateWebhookSubscriptionRequest, WebhookSubscription } from '../../../shared/src/schemas/webhooks';
import type { Principal } from '../auth/principal';
import { findSubscription } from '../db/webhookRows';
import { type Executor, queryOne } from '../db/query';
import { notFound } from '../errors/problem';
import { unleasedPendingSql } from '../webhooks/deliveryQueue';
import { subscriptionSites } from '../policies/subscriptionAccess';
import { presentSubscription } from '../presenters/webhook';

const UPDATE = `
  WITH sub AS (
    UPDATE webhook_subscriptions
    SET url = COALESCE($3, url), events = COALESCE($4, events), all_sites = COALESCE($5, all_sites),
        description = CASE WHEN $6 THEN $7 ELSE description END,
        enabled = COALESCE($8, enabled),
        disabled_reason = CASE WHEN $8 IS NULL THEN disabled_reason WHEN $8 THEN NULL ELSE 'Disabled through the API.' END,
        updated_at = $9
    WHERE account_id = $1 AND id = $2 RETURNING id),
  cleared AS (
    DELETE FROM webhook_subscription_sites ws USING sub
    WHERE $10 AND ws.account_id = $1 AND ws.subscription_id = sub.id AND ws.site_id <> ALL ($11::int[])),
  added AS (
    INSERT INTO webhook_subscription_sites (account_id, subscription_id, site_id)
    SELECT $1, sub.id, site FROM sub, unnest($11::int[]) AS site WHERE $10
    ON CONFLICT DO NOTHING),
  -- A disabled subscription's pending deliveries leave the due range (next attempt at 'infinity'), so no
  -- claim reads past them however many there are; enabling makes them due at once. Deliveries leased to a
  -- dispatcher are left to it (the claim's check skips them once recorded): the two never lock the same rows.
  paused AS (
    UPDATE webhook_deliveries d
    SET next_attempt_at = CASE WHEN $8 THEN $9::timestamptz ELSE 'infinity' END, updated_at = $9
    FROM sub WHERE $8 IS NOT NULL AND d.account_id = $1 AND d.subscription_id = sub.id
      AND ${unleasedPendingSql('$9')} AND (d.next_attempt_at = 'infinity') = $8)
  SELECT id FROM sub`;

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
  const sites = request.siteIds === undefined ? undefined : await subscriptionSites(db, principal, request.siteIds ?? undefined);
  const events = request.events ? [...new Set(request.events)] : null;
  // Locked first, in a statement of its own: the update's snapshot is then taken after any other change of
  // this subscription (a PATCH, a 410 that disabled it) has committed, so it sees the deliveries that change
  // parked and an enable never leaves one parked.
  await queryOne(db, 'SELECT id FROM webhook_subscriptions WHERE account_id = $1 AND id = $2 FOR UPDATE', [principal.accountId, subscriptionId]);
  await queryOne(db, UPDATE, [
    principal.accountId, subscriptionId, request.url ?? null, events, sites?.allSites ?? null,
    request.description !== undefined, request.description || null, request.enabled ?? null, now,
    sites !== undefined, sites?.siteIds ?? [],
  ]);
  const row = await findSubscription(db, principal, subscriptionId);
  if (!row) throw missing();
  return presentSubscription(row);
}
