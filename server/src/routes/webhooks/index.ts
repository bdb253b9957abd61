import { PageQuery, page } from '../../../../shared/src/schemas/common';
import {
  CreateWebhookSubscriptionRequest,
  CreatedWebhookSubscription,
  SubscriptionParams,
  UpdateWebhookSubscriptionRequest,
  WebhookSubscription,
} from '../../../../shared/src/schemas/webhooks';
import { checkSubscriptionUrl, createSubscription } from '../../commands/subscriptionCreator';
import { updateSubscription } from '../../commands/subscriptionUpdater';
import { findSubscription, listSubscriptions } from '../../db/webhookRows';
import { queryOne } from '../../db/query';
import { notFound } from '../../errors/problem';
import { subscriptionVisibleSql } from '../../policies/subscriptionAccess';
import { presentSubscription } from '../../presenters/webhook';
import { afterId, cursorScope, idPage } from '../../queries/cursor';
import { unleasedPendingSql } from '../../webhooks/deliveryQueue';
import { defineRoute } from '../define';
import { deliveryRoutes } from './deliveries';

const tag = 'Webhooks';
const collection = '/webhooks/subscriptions';
const item = `${collection}/:subscriptionId`;
const missing = (id: number) => notFound(`Webhook subscription ${id} does not exist.`);

export const webhookRoutes = [
  defineRoute({
    method: 'POST',
    path: collection,
    summary: 'Subscribe a URL to event kinds, optionally of some sites (the signing secret is shown only here)',
    tag,
    auth: 'token',
    scope: 'webhooks:manage',
    body: CreateWebhookSubscriptionRequest,
    responses: { 201: CreatedWebhookSubscription },
    // The URL's host is looked up before the transaction: a slow DNS answer holds no database connection.
    precheck: async ({ body, deps }) => checkSubscriptionUrl(body.url, deps.env.WEBHOOK_ALLOW_PRIVATE_URLS),
    handler: async ({ db, principal, body, now }) => ({
      status: 201,
      body: await createSubscription(db, { principal, request: body, now }),
    }),
  }),
  defineRoute({
    method: 'GET',
    path: collection,
    summary: 'List webhook subscriptions (oldest first)',
    tag,
    auth: 'token',
    scope: 'webhooks:manage',
    query: PageQuery,
    responses: { 200: page(WebhookSubscription) },
    handler: async ({ db, principal, query }) => {
      const scope = cursorScope('webhook_subscriptions', { accountId: principal.accountId });
      const rows = await listSubscriptions(db, principal, afterId(query.cursor, scope), query.limit + 1);
      return { status: 200, body: idPage(rows, query.limit, presentSubscription, scope) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: item,
    summary: 'Read a webhook subscription',
    tag,
    auth: 'token',
    scope: 'webhooks:manage',
    params: SubscriptionParams,
    responses: { 200: WebhookSubscription },
    handler: async ({ db, principal, params }) => {
      const row = await findSubscription(db, principal, params.subscriptionId);
      if (!row) throw missing(params.subscriptionId);
      return { status: 200, body: presentSubscription(row) };
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: item,
    summary: 'Change a webhook subscription (only the fields sent; enabled: true resumes one a 410 disabled)',
    tag,
    auth: 'token',
    scope: 'webhooks:manage',
    params: SubscriptionParams,
    body: UpdateWebhookSubscriptionRequest,
    responses: { 200: WebhookSubscription },
    // A new URL's host is looked up before the transaction (a missing subscription is still a 404 first).
    precheck: async ({ db, principal, params, body, deps }) => {
      if (body.url === undefined) return;
      if (!(await findSubscription(db, principal, params.subscriptionId))) throw missing(params.subscriptionId);
      await checkSubscriptionUrl(body.url, deps.env.WEBHOOK_ALLOW_PRIVATE_URLS);
    },
    handler: async ({ db, principal, params, body, now }) => ({
      status: 200,
      body: await updateSubscription(db, { principal, subscriptionId: params.subscriptionId, request: body, now }),
    }),
  }),
  defineRoute({
    method: 'DELETE',
    path: item,
    summary: 'Delete a webhook subscription and its delivery log (nothing more is sent to it)',
    tag,
    auth: 'token',
    scope: 'webhooks:manage',
    params: SubscriptionParams,
    responses: { 204: null },
    handler: async ({ db, principal, params, now }) => {
      // First the row lock, which waits for a fan-out that share-locked it to commit (and makes later ones
      // skip it), so no delivery of it is written after the tombstone. The delivery log (no foreign key to
      // cascade from: migration 0005) is left to the retention job, which deletes it in batches behind the
      // tombstone (migration 0008): nothing claims or shows a delivery of a subscription that is gone. Its
      // pending deliveries are parked out of the due range first, as a disable does, so no claim reads past
      // them meanwhile (those leased to a dispatcher are left to it: the claim's check skips them after).
      const row = await queryOne<{ id: number }>(
        db,
        `SELECT s.id FROM webhook_subscriptions s
         WHERE s.account_id = $1 AND s.id = $4 AND ${subscriptionVisibleSql({ allSites: 2, tokenId: 3 })} FOR UPDATE`,
        [principal.accountId, principal.allSites, principal.tokenId, params.subscriptionId],
      );
      if (!row) throw missing(params.subscriptionId);
      await queryOne(db,
        `WITH gone AS (DELETE FROM webhook_subscriptions WHERE account_id = $1 AND id = $2 RETURNING account_id, id),
         tombstone AS (
           INSERT INTO webhook_subscription_tombstones (account_id, subscription_id, deleted_at) SELECT account_id, id, $3 FROM gone)
         UPDATE webhook_deliveries d SET next_attempt_at = 'infinity', updated_at = $3
         FROM gone WHERE d.account_id = gone.account_id AND d.subscription_id = gone.id
           AND ${unleasedPendingSql('$3')} AND d.next_attempt_at < 'infinity'`,
        [principal.accountId, row.id, now]);
      return { status: 204 };
    },
  }),
  ...deliveryRoutes,
];
