import { z } from 'zod';

// Hosts, what they were told, and their decision links, as this client reads them (docs/notifications.md):
// enums open, unknown fields dropped, like answers.ts.

const openText = z.string().min(1);

export const HostAnswer = z.object({
  hostId: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  siteIds: z.array(z.number().int()),
  allSites: z.boolean(),
  notifyBy: z.array(openText),
  chatWebhookUrl: z.string().nullable(),
  language: openText,
  createdAt: z.string(),
});
export type HostAnswer = z.infer<typeof HostAnswer>;

export const HostImportAnswer = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), detail: z.string() })),
});
export type HostImportAnswer = z.infer<typeof HostImportAnswer>;

export const KioskHostsAnswer = z.object({ data: z.array(z.object({ hostId: z.number().int(), name: z.string() })) });
export type KioskHostsAnswer = z.infer<typeof KioskHostsAnswer>;
export type KioskHostAnswer = KioskHostsAnswer['data'][number];

export const NotificationAnswer = z.object({
  notificationId: z.number().int(),
  checkinId: z.number().int(),
  hostId: z.number().int(),
  channel: openText,
  event: openText,
  status: openText,
  attempts: z.array(z.object({ at: z.string(), error: z.string().nullable() })),
  sentAt: z.string().nullable(),
});
export type NotificationAnswer = z.infer<typeof NotificationAnswer>;

export const ChannelsAnswer = z.object({
  email: z.object({ enabled: z.boolean(), detail: z.string() }),
  chat: z.object({ enabled: z.boolean(), detail: z.string() }),
});
export type ChannelsAnswer = z.infer<typeof ChannelsAnswer>;

export const HostDecisionPreviewAnswer = z.object({
  action: openText,
  hostName: z.string(),
  visitor: z.object({ firstName: z.string(), lastName: z.string(), company: z.string().nullable() }),
  siteName: z.string(),
  timezone: z.string(),
  arrivedAt: z.string(),
  expiresAt: z.string(),
  language: openText,
});
export type HostDecisionPreviewAnswer = z.infer<typeof HostDecisionPreviewAnswer>;

export const HostDecisionAnswer = z.object({ checkinId: z.number().int(), status: openText, decidedAt: z.string() });
