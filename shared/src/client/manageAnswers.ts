import { z } from 'zod';
import { AuditEvent } from '../schemas/audit';
import { Vehicle, VehicleLabel } from '../schemas/vehicles';
import { WatchlistEntry } from '../schemas/watchlist';
import {
  WebhookDelivery,
  type WebhookEventKind,
  WebhookSubscription,
  type deliveryStatuses,
} from '../schemas/webhooks';
import type { Open } from './answers';
import { Actor, StaffUserAnswer } from './staffAnswers';

// The administration answers as this client reads them: enums open (a newer server may add values), unknown
// fields dropped, like answers.ts.

const openText = <Known extends string>() =>
  z
    .string()
    .min(1)
    .transform((value): Open<Known> => value);

export const CreatedUserAnswer = z.object({ user: StaffUserAnswer, invitationUrl: z.string() });
export const PasswordResetAnswer = z.object({ resetUrl: z.string() });

export const WatchlistEntryAnswer = WatchlistEntry;
export type WatchlistEntryAnswer = z.infer<typeof WatchlistEntryAnswer>;

export const VehicleAnswer = Vehicle;
export type VehicleAnswer = z.infer<typeof VehicleAnswer>;
export const VehicleLabelAnswer = VehicleLabel;
export type VehicleLabelAnswer = z.infer<typeof VehicleLabelAnswer>;

export const WebhookSubscriptionAnswer = WebhookSubscription.extend({ events: z.array(openText<WebhookEventKind>()) });
export type WebhookSubscriptionAnswer = z.infer<typeof WebhookSubscriptionAnswer>;
/** The create answer: the only time the signing secret is shown. */
export const CreatedWebhookAnswer = WebhookSubscriptionAnswer.extend({ secret: z.string() });
export type CreatedWebhookAnswer = z.infer<typeof CreatedWebhookAnswer>;

export const WebhookDeliveryAnswer = WebhookDelivery.extend({
  eventType: openText<WebhookEventKind>(),
  status: openText<(typeof deliveryStatuses)[number]>(),
});
export type WebhookDeliveryAnswer = z.infer<typeof WebhookDeliveryAnswer>;

export const AuditEventAnswer = AuditEvent.extend({ actor: Actor });
export type AuditEventAnswer = z.infer<typeof AuditEventAnswer>;
