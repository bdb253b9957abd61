import { page } from '../../../../shared/src/schemas/common';
import {
  DeliveryParams,
  SubscriptionParams,
  WebhookDelivery,
  WebhookDeliveryListQuery,
} from '../../../../shared/src/schemas/webhooks';
import { retryDelivery } from '../../commands/deliveryRetrier';
import { findSubscription, listDeliveries } from '../../queries/webhookRows';
import { notFound } from '../../errors/problem';
import { presentDelivery } from '../../presenters/webhook';
import { cursorScope, decodeCursor, toPage } from '../../queries/cursor';
import { defineRoute } from '../define';
import { auditParam } from '../../audit/targets';
import { deliveryExample, pageOf } from '../examples';

const tag = 'Webhooks';
const log = '/webhooks/subscriptions/:subscriptionId/deliveries';
const missing = (id: number) => notFound(`Webhook subscription ${id} does not exist.`);

export const deliveryRoutes = [
  defineRoute({
    method: 'GET',
    path: log,
    summary: "A subscription's delivery log, newest event first, each with its attempts (oldest first)",
    description:
      'The deliveries of the subscription, newest event first, optionally by status (comma-separated): `pending` (another attempt is planned at `nextAttemptAt`), `delivered` or `failed` (no more attempts).',
    examples: { query: { status: 'failed' }, response: pageOf(deliveryExample) },
    tag,
    auth: 'token',
    scope: 'webhooks:manage',
    params: SubscriptionParams,
    query: WebhookDeliveryListQuery,
    responses: { 200: page(WebhookDelivery) },
    handler: async ({ db, principal, params, query }) => {
      if (!(await findSubscription(db, principal, params.subscriptionId))) throw missing(params.subscriptionId);
      const filters = { accountId: principal.accountId, subscriptionId: params.subscriptionId, statuses: query.status };
      const scope = cursorScope('webhook_deliveries', filters);
      const rows = await listDeliveries(db, {
        ...filters,
        beforeOutboxId: query.cursor ? decodeCursor(query.cursor, scope).id : undefined,
        limit: query.limit + 1,
      });
      return {
        status: 200,
        body: toPage(rows, query.limit, presentDelivery, (row) => ({ atMicros: 0, id: row.outbox_id }), scope),
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: `${log}/:deliveryId/retry`,
    summary: 'Attempt a delivery again now (a finished one gets one attempt; a pending one is brought forward)',
    description:
      'Delivers again now: a delivered or failed delivery gets one more attempt; a pending one is brought forward. The answer is the delivery as it is after the request (the attempt runs in the background).',
    examples: { response: { ...deliveryExample, status: 'pending', nextAttemptAt: '2026-11-21T09:00:00.000Z' } },
    tag,
    auth: 'token',
    scope: 'webhooks:manage',
    params: DeliveryParams,
    responses: { 200: WebhookDelivery },
    audit: auditParam('webhook.delivery_retried', 'webhook_subscription', 'subscriptionId'),
    handler: async ({ db, principal, params, now }) => {
      if (!(await findSubscription(db, principal, params.subscriptionId))) throw missing(params.subscriptionId);
      const row = await retryDelivery(db, {
        accountId: principal.accountId,
        subscriptionId: params.subscriptionId,
        deliveryId: params.deliveryId,
        now,
      });
      if (!row)
        throw notFound(
          `Delivery ${params.deliveryId} of webhook subscription ${params.subscriptionId} does not exist.`,
        );
      return { status: 200, body: presentDelivery(row) };
    },
  }),
];
