import type {
  WebhookAttempt,
  WebhookDelivery,
  WebhookEventKind,
  WebhookSubscription,
} from '../../../shared/src/schemas/webhooks';

/** A subscription as stored, with its site list (empty for all sites). */
export interface SubscriptionRow {
  id: number;
  url: string;
  events: WebhookEventKind[];
  all_sites: boolean;
  site_ids: number[];
  description: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

export function presentSubscription(row: SubscriptionRow): WebhookSubscription {
  return {
    subscriptionId: row.id,
    url: row.url,
    events: row.events,
    siteIds: row.all_sites ? null : row.site_ids,
    description: row.description,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** A delivery as stored; `outbox_id` (its event's) is the delivery log's keyset. */
export interface DeliveryRow {
  id: number;
  outbox_id: number;
  event_id: string;
  event_type: WebhookEventKind;
  status: WebhookDelivery['status'];
  attempts: WebhookAttempt[];
  /** pg reads 'infinity' (pending while the subscription is disabled) as the number Infinity. */
  next_attempt_at: Date | number | null;
  created_at: Date;
}

export function presentDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    deliveryId: row.id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts.map((attempt) => ({
      at: attempt.at,
      statusCode: attempt.statusCode,
      error: attempt.error,
      durationMs: attempt.durationMs,
    })),
    // 'infinity': pending while the subscription is disabled, with no attempt scheduled.
    nextAttemptAt: row.next_attempt_at instanceof Date ? row.next_attempt_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
  };
}
