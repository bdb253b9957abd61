import { z } from 'zod';
import { hostNotificationEvents } from '../domain/hostNotifications';
import { Id, IntId, PageQuery, Text, Timestamp } from './common';
import { NotifyChannel } from './hosts';
import { LanguageCode } from './language';

export const notificationStatuses = ['pending', 'sent', 'failed'] as const;

/** One message to a host about one visit, on one channel (docs/notifications.md, Delivery). */
export const Notification = z.object({
  notificationId: Id,
  checkinId: Id,
  hostId: IntId,
  channel: NotifyChannel,
  event: z.enum(hostNotificationEvents),
  status: z.enum(notificationStatuses),
  /** Oldest first; `error` null for the attempt that sent it. */
  attempts: z.array(z.object({ at: Timestamp, error: z.string().nullable() })),
  sentAt: Timestamp.nullable(),
});
export type Notification = z.infer<typeof Notification>;

/** Check-in ids as a comma-separated list (`checkinId=42` or `checkinId=42,43`), at most 100. */
const checkinIdList = z
  .string()
  .transform((raw) =>
    raw
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== ''),
  )
  .pipe(
    z
      .array(
        z
          .string()
          .regex(/^[1-9][0-9]{0,15}$/, 'Check-in ids are positive integers')
          .transform(Number)
          .pipe(Id),
      )
      .min(1)
      .max(100),
  );

/** `GET /v1/notifications`: those of the given check-ins, or all the caller's sites' newest first. */
export const NotificationListQuery = PageQuery.extend({ checkinId: checkinIdList.optional() });
export type NotificationListQuery = z.infer<typeof NotificationListQuery>;

/** `GET /v1/notifications/channels`: whether each channel can send from this server. */
export const NotificationChannels = z.object({
  email: z.object({
    enabled: z.boolean(),
    /** The sender (`MAIL_FROM`) when enabled; why not, in words, when not. */
    detail: z.string(),
  }),
  chat: z.object({ enabled: z.boolean(), detail: z.string() }),
});
export type NotificationChannels = z.infer<typeof NotificationChannels>;

/** The secret of an Approve or Deny link: 256 random bits, base64url (only its SHA-256 is stored). */
export const HostDecisionToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Not a decision link');

export const HostDecisionPreviewRequest = z.strictObject({ token: HostDecisionToken });

/** What the link's page shows before the host confirms: nothing beyond what the message said. */
export const HostDecisionPreview = z.object({
  action: z.enum(['approve', 'deny']),
  hostName: z.string(),
  visitor: z.object({ firstName: z.string(), lastName: z.string(), company: z.string().nullable() }),
  siteName: z.string(),
  timezone: z.string(),
  arrivedAt: Timestamp,
  expiresAt: Timestamp,
  /** The host's language (docs/languages.md, Hosts): the page speaks it, like the message did. */
  language: LanguageCode,
});
export type HostDecisionPreview = z.infer<typeof HostDecisionPreview>;

export const HostDecisionRequest = z.strictObject({
  token: HostDecisionToken,
  /** For a deny: why (shown to staff, as a deny's reason). */
  reason: Text(500).optional(),
});
export type HostDecisionRequest = z.infer<typeof HostDecisionRequest>;

export const HostDecisionResult = z.object({
  checkinId: Id,
  status: z.enum(['IN', 'STOP']),
  decidedAt: Timestamp,
});
export type HostDecisionResult = z.infer<typeof HostDecisionResult>;
