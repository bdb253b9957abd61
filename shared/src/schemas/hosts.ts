import { z } from 'zod';
import { languages } from '../messages/languages';
import { LanguageCode } from './language';
import { chatFormatOf, notifyChannels } from '../domain/hostNotifications';
import { Id, IntId, PageQuery, Text, Timestamp } from './common';
import { Email } from './staff';

/** The language a host is told in (docs/languages.md): the visitors' languages. */
export const hostLanguages = languages;
export const HostLanguage = LanguageCode;
export type HostLanguage = z.infer<typeof HostLanguage>;

export const NotifyChannel = z.enum(notifyChannels);

/** A Slack incoming webhook or a Teams workflow URL (its format is told by its address). */
export const ChatWebhookUrl = z
  .string()
  .trim()
  .max(2048)
  .pipe(z.url({ protocol: /^https?$/, error: 'Must be an http:// or https:// URL' }))
  .refine((url) => !/^[a-z]+:\/\/[^/]*@/i.test(url), 'Must not carry a user name or password')
  .refine(
    (url) => chatFormatOf(url) !== undefined,
    'Must be a Slack incoming webhook (…/services/…) or a Microsoft Teams workflow URL (…/workflows/…)',
  );

const Phone = z.string().trim().min(1).max(40).regex(/\d/, 'A phone number needs digits');

/** A host: a person visitors come to see (docs/notifications.md, Hosts). */
export const Host = z.object({
  hostId: IntId,
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  /** The host's sites; `[]` with `allSites`. */
  siteIds: z.array(Id),
  allSites: z.boolean(),
  notifyBy: z.array(NotifyChannel),
  chatWebhookUrl: z.string().nullable(),
  language: HostLanguage,
  createdAt: Timestamp,
});
export type Host = z.infer<typeof Host>;

const siteChoice = (body: { siteIds?: number[]; allSites?: boolean }) => !(body.allSites === true && body.siteIds);
const channels = z
  .array(NotifyChannel)
  .max(2)
  .transform((list) => [...new Set(list)]);

/** `POST /v1/hosts`. `notifyBy` left out: email when there is an email, else nothing. */
export const CreateHostRequest = z
  .strictObject({
    name: Text(200),
    email: Email.optional(),
    phone: Phone.optional(),
    siteIds: z.array(IntId).max(1000).optional(),
    allSites: z.boolean().optional(),
    notifyBy: channels.optional(),
    chatWebhookUrl: ChatWebhookUrl.optional(),
    language: HostLanguage.optional(),
  })
  .refine(siteChoice, { message: 'Give siteIds or allSites, not both' })
  .refine((body) => body.allSites === true || body.siteIds !== undefined, {
    message: 'Give siteIds or allSites: true',
  });
export type CreateHostRequest = z.infer<typeof CreateHostRequest>;

/** `PATCH /v1/hosts/{hostId}`: the fields sent change; `null` clears email, phone or chatWebhookUrl. */
export const UpdateHostRequest = z
  .strictObject({
    name: Text(200).optional(),
    email: Email.nullable().optional(),
    phone: Phone.nullable().optional(),
    siteIds: z.array(IntId).max(1000).optional(),
    allSites: z.boolean().optional(),
    notifyBy: channels.optional(),
    chatWebhookUrl: ChatWebhookUrl.nullable().optional(),
    language: HostLanguage.optional(),
  })
  .refine(siteChoice, { message: 'Give siteIds or allSites, not both' });
export type UpdateHostRequest = z.infer<typeof UpdateHostRequest>;

export const HostIdParams = z.object({ hostId: IntId });

/** `GET /v1/hosts`: `q` is a case-insensitive prefix of the name or email; `siteId` keeps a site's hosts. */
export const HostListQuery = PageQuery.extend({
  q: z.string().trim().min(1).max(100).optional(),
  siteId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
export type HostListQuery = z.infer<typeof HostListQuery>;

/** `POST /v1/hosts/import` (text/csv, header `name,email,phone,sites`), at most 64 KiB. */
export const HostImportCsv = z.string().max(64 * 1024);

export const HostImportResult = z.object({
  created: z.number().int().min(0),
  updated: z.number().int().min(0),
  errors: z.array(z.object({ line: z.number().int().min(1), detail: z.string() })),
});
export type HostImportResult = z.infer<typeof HostImportResult>;

/** What a kiosk holds of a host: a name to pick, and the id to send. No email, phone or other data. */
export const KioskHost = z.object({ hostId: IntId, name: z.string() });
export const KioskHostList = z.object({ data: z.array(KioskHost) });
export type KioskHostList = z.infer<typeof KioskHostList>;
