import { PageQuery, page } from '../../../../shared/src/schemas/common';
import {
  CreateWebhookSubscriptionRequest,
  CreatedWebhookSubscription,
  SubscriptionParams,
  UpdateWebhookSubscriptionRequest,
  WebhookSubscription,
} from '../../../../shared/src/schemas/webhooks';
import { checkSubscriptionUrl, createSubscription } from '../../commands/subscriptionCreator';
import { deleteSubscription } from '../../commands/subscriptionDeleter';
import { updateSubscription } from '../../commands/subscriptionUpdater';
import { findSubscription, listSubscriptions } from '../../queries/webhookRows';
import { notFound } from '../../errors/problem';
import { presentSubscription } from '../../presenters/webhook';
import { afterId, cursorScope, idPage } from '../../queries/cursor';
import { defineRoute } from '../define';
import { pageOf, subscriptionExample } from '../examples';
import { deliveryRoutes } from './deliveries';
import { auditParam, auditReply } from '../../audit/targets';

const tag = 'Webhooks';
const collection = '/webhooks/subscriptions';
const item = `${collection}/:subscriptionId`;
const missing = (id: number) => notFound(`Webhook subscription ${id} does not exist.`);

export const webhookRoutes = [
  defineRoute({
    method: 'POST',
    path: collection,
    summary: 'Subscribe a URL to event kinds, optionally of some sites (the signing secret is shown only here)',
    description:
      'Subscribes an `https://` or `http://` URL (no user name or password in it) to event kinds, of every site of the account or of `siteIds`. The host must not resolve to a private, loopback or link-local address unless the deployment allows it (else 422; 503 when DNS cannot answer). The answer holds the signing `secret`, shown only here.',
    examples: {
      request: {
        url: 'https://hooks.example.com/gatehouse',
        events: ['VEHICLE_CHECKIN_ENTERED', 'VEHICLE_CHECKIN_EXITED'],
        siteIds: [1],
        description: 'Gate log',
      },
      response: { ...subscriptionExample, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    },
    tag,
    auth: 'token',
    scope: 'webhooks:manage',
    body: CreateWebhookSubscriptionRequest,
    responses: { 201: CreatedWebhookSubscription },
    audit: auditReply('webhook.created', 'webhook_subscription', 'subscriptionId'),
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
    description: 'The webhook subscriptions of the account, oldest first. The signing secret is never shown again.',
    examples: { response: pageOf(subscriptionExample) },
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
    description: 'One webhook subscription of the account.',
    examples: { response: subscriptionExample },
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
    description:
      'Changes only the fields sent: `siteIds: null` removes the site filter (every site), `description: null` clears it, `enabled: true` resumes a subscription a 410 disabled. A new URL is checked as on create.',
    examples: { request: { siteIds: null, enabled: true }, response: { ...subscriptionExample, siteIds: null } },
    tag,
    auth: 'token',
    scope: 'webhooks:manage',
    params: SubscriptionParams,
    body: UpdateWebhookSubscriptionRequest,
    responses: { 200: WebhookSubscription },
    audit: auditReply('webhook.updated', 'webhook_subscription', 'subscriptionId'),
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
    description: 'Deletes the subscription and its delivery log; nothing more is sent to it.',
    examples: { response: null },
    tag,
    auth: 'token',
    scope: 'webhooks:manage',
    params: SubscriptionParams,
    responses: { 204: null },
    audit: auditParam('webhook.deleted', 'webhook_subscription', 'subscriptionId'),
    handler: async ({ db, principal, params, now }) => {
      await deleteSubscription(db, { principal, subscriptionId: params.subscriptionId, now });
      return { status: 204 };
    },
  }),
  ...deliveryRoutes,
];
