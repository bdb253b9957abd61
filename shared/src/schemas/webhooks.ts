import { z } from 'zod';
import type { PersonWebhookEvent } from '../domain/personCheckin';
import type { VehicleWebhookEvent } from '../domain/vehicleCheckin';
import { Id, IntId, PageQuery, Timestamp, commaList } from './common';

/** Every event kind a subscription can ask for (docs/webhooks.md, Event kinds): the vehicle kinds, then the person extension. */
export const webhookEventKinds = [
  'VEHICLE_CHECKIN_ENTERED',
  'VEHICLE_CHECKIN_EXITED',
  'VEHICLE_CHECKIN_PENDING',
  'VEHICLE_CHECKIN_STOPPED',
  'PERSON_CHECKIN_ENTERED',
  'PERSON_CHECKIN_EXITED',
  'PERSON_CHECKIN_PENDING',
  'PERSON_CHECKIN_STOPPED',
  'PERSON_BREAK_STARTED',
  'PERSON_BREAK_ENDED',
] as const satisfies ReadonlyArray<PersonWebhookEvent | VehicleWebhookEvent>;
export const WebhookEventKind = z.enum(webhookEventKinds);
export type WebhookEventKind = z.infer<typeof WebhookEventKind>;

// The list above names every kind the state machines emit: adding one there without here fails to compile.
type Missing = Exclude<PersonWebhookEvent | VehicleWebhookEvent, WebhookEventKind>;
const everyKindListed: [Missing] extends [never] ? true : Missing = true;
void everyKindListed;

/** http(s) only, no credentials in the URL (receivers authenticate us by the signature). */
export const WebhookUrl = z
  .url({ protocol: /^https?$/, error: 'An http:// or https:// URL' })
  .max(2048)
  .refine((value) => {
    if (!URL.canParse(value)) return true; // reported by the url check already
    const url = new URL(value);
    return url.username === '' && url.password === '';
  }, 'The URL must not carry a user name or password; verify deliveries by their signature');

const Events = z
  .array(WebhookEventKind)
  .min(1)
  .max(webhookEventKinds.length * 2);
const SiteIds = z.array(IntId).min(1).max(500);
const Description = z.string().trim().max(500);

export const CreateWebhookSubscriptionRequest = z.strictObject({
  url: WebhookUrl,
  events: Events,
  siteIds: SiteIds.optional(),
  description: Description.optional(),
});
export type CreateWebhookSubscriptionRequest = z.infer<typeof CreateWebhookSubscriptionRequest>;

/** Partial: only the fields sent change. `siteIds: null` removes the site filter; `enabled: true` re-enables after a 410. */
export const UpdateWebhookSubscriptionRequest = z.strictObject({
  url: WebhookUrl.optional(),
  events: Events.optional(),
  siteIds: SiteIds.nullable().optional(),
  description: Description.nullable().optional(),
  enabled: z.boolean().optional(),
});
export type UpdateWebhookSubscriptionRequest = z.infer<typeof UpdateWebhookSubscriptionRequest>;

export const WebhookSubscription = z.object({
  subscriptionId: Id,
  url: z.string(),
  events: z.array(WebhookEventKind),
  /** null: every site of the account, now and future. */
  siteIds: z.array(Id).nullable(),
  description: z.string().nullable(),
  enabled: z.boolean(),
  /** Why delivery stopped (a 410 from the receiver), or null. */
  disabledReason: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type WebhookSubscription = z.infer<typeof WebhookSubscription>;

/** The create response: the only time the signing secret is shown. */
export const CreatedWebhookSubscription = WebhookSubscription.extend({
  secret: z.string().regex(/^whsec_[A-Za-z0-9+/]+=*$/),
});
export type CreatedWebhookSubscription = z.infer<typeof CreatedWebhookSubscription>;

export const deliveryStatuses = ['pending', 'delivered', 'failed'] as const;

export const WebhookAttempt = z.object({
  at: Timestamp,
  /** The receiver's HTTP status, or null when none came (timeout, refused connection, blocked address). */
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int().min(0),
});
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

export const WebhookDelivery = z.object({
  deliveryId: Id,
  eventId: z.string(),
  eventType: WebhookEventKind,
  status: z.enum(deliveryStatuses),
  /** Oldest first. */
  attempts: z.array(WebhookAttempt),
  /** null once delivered or failed. */
  nextAttemptAt: Timestamp.nullable(),
  createdAt: Timestamp,
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryListQuery = PageQuery.extend({ status: commaList(deliveryStatuses).optional() });

export const SubscriptionParams = z.object({ subscriptionId: IntId });
export const DeliveryParams = z.object({ subscriptionId: IntId, deliveryId: Id });

/** What a receiver gets: the outbox payload as written with the change (docs/webhooks.md, What a delivery looks like). */
export const WebhookPayload = z.object({
  id: z.string().regex(/^evt_/),
  type: WebhookEventKind,
  createdAt: Timestamp,
  accountId: Id,
  siteId: Id,
  data: z.object({ checkin: z.record(z.string(), z.unknown()) }),
});
export type WebhookPayload = z.infer<typeof WebhookPayload>;
