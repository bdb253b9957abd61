import type {
  CreateWebhookSubscriptionRequest,
  CreatedWebhookSubscription,
} from '../../../shared/src/schemas/webhooks';
import type { Principal } from '../auth/principal';
import { type Executor, queryOne } from '../db/query';
import { sql } from '../db/sql';
import { problem, validationFailed } from '../errors/problem';
import { subscriptionSites } from '../policies/subscriptionAccess';
import { type SubscriptionRow, presentSubscription } from '../presenters/webhook';
import { urlRefusal } from '../webhooks/addressPolicy';
import { newWebhookSecret } from '../webhooks/signature';

const insert = (input: {
  accountId: number;
  url: string;
  events: string[];
  allSites: boolean;
  description: string | null;
  secret: string;
  now: Date;
  siteIds: number[];
}) => sql`
  WITH sub AS (
    INSERT INTO webhook_subscriptions (account_id, url, events, all_sites, description, secret, created_at, updated_at)
    VALUES (${input.accountId}, ${input.url}, ${input.events}, ${input.allSites}, ${input.description}, ${input.secret},
            ${input.now}, ${input.now})
    RETURNING id, url, events, all_sites, description, enabled, disabled_reason, created_at, updated_at),
  sites AS (
    INSERT INTO webhook_subscription_sites (account_id, subscription_id, site_id)
    SELECT ${input.accountId}, sub.id, site FROM sub, unnest(${input.siteIds}::int[]) AS site)
  SELECT sub.*, ${input.siteIds}::int[] AS site_ids FROM sub`;

/**
 * Refuses (422) a URL whose host does not resolve or resolves to an address that is not global unicast (unless allowed); when
 * DNS cannot answer just now, 503 (not kept under an Idempotency-Key: the same request may pass in a
 * moment). No database.
 */
export async function checkSubscriptionUrl(url: string, allowPrivate: boolean): Promise<void> {
  const refusal = await urlRefusal(url, allowPrivate);
  if (refusal?.kind === 'unchecked') throw problem('UNAVAILABLE', refusal.message, { headers: { 'Retry-After': '5' } });
  if (refusal) throw validationFailed([{ path: 'url', message: refusal.message }], 'The webhook URL cannot be used.');
}

/**
 * Creates a subscription: sites resolved with the token, a new secret shown this once. The URL was checked
 * by the route before its transaction (checkSubscriptionUrl: a DNS lookup must not hold a connection).
 */
export async function createSubscription(
  db: Executor,
  input: { principal: Principal; request: CreateWebhookSubscriptionRequest; now: Date },
): Promise<CreatedWebhookSubscription> {
  const { principal, request, now } = input;
  const sites = await subscriptionSites(db, principal, request.siteIds);
  const secret = newWebhookSecret();
  const row = await queryOne<SubscriptionRow>(
    db,
    insert({
      accountId: principal.accountId,
      url: request.url,
      events: [...new Set(request.events)],
      allSites: sites.allSites,
      description: request.description || null,
      secret,
      now,
      siteIds: sites.siteIds,
    }),
  );
  if (!row) throw new Error('subscription insert returned nothing');
  return { ...presentSubscription(row), secret };
}
