import { z } from 'zod';
import type { Scope } from '../schemas/admin';
import type { Channel } from '../schemas/common';
import type { KioskMode } from '../schemas/kiosks';
import { badgeSizes, defaultBadgeSettings } from '../domain/badge';
import { DEFAULT_LANGUAGE, languages } from '../messages/languages';
import type { Open } from './answers';

// Sites, tokens and kiosks as this client reads them (docs/api.md, Sites, API tokens, Kiosks): open enums,
// unknown fields dropped, like answers.ts, so a newer server's additions do not break the console or kiosk.

const openText = <Known extends string>() =>
  z
    .string()
    .min(1)
    .transform((value): Open<Known> => value);
const id = z.number().int();

/** A server from before archiving sends no `archivedAt`: not archived. */
export const SiteAnswer = z.object({
  siteId: id,
  name: z.string(),
  timezone: z.string(),
  archivedAt: z.string().nullable().default(null),
  // A server from before badges sends none: badges off. (Console and server are one build: a size newer
  // than this client can only come from a server newer than its kiosk, which prints whatever size it is.)
  badge: z
    .object({ enabled: z.boolean(), size: z.enum(badgeSizes).catch(defaultBadgeSettings.size) })
    .default(defaultBadgeSettings),
  // A server from before languages sends none, and a language newer than this client is one it cannot
  // speak: English either way.
  defaultLanguage: z.enum(languages).catch(DEFAULT_LANGUAGE).default(DEFAULT_LANGUAGE),
  // A server from before phone check-ins sends none: no code (''), so nothing to print.
  visit: z.object({ code: z.string(), requiresApproval: z.boolean() }).default({ code: '', requiresApproval: false }),
});
export type SiteAnswer = z.infer<typeof SiteAnswer>;

export const TokenAnswer = z.object({
  tokenId: id,
  accountId: id,
  name: z.string(),
  siteIds: z.array(id),
  allSites: z.boolean(),
  scopes: z.array(openText<Scope>()),
  channel: openText<Channel>(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type TokenAnswer = z.infer<typeof TokenAnswer>;

/** A created token: `token` is its plaintext, shown this once. */
export const CreatedTokenAnswer = TokenAnswer.extend({ token: z.string() });
export type CreatedTokenAnswer = z.infer<typeof CreatedTokenAnswer>;

export const KioskAnswer = z.object({
  kioskId: id,
  siteId: id,
  mode: openText<KioskMode>(),
  name: z.string(),
  tokenId: id,
  createdAt: z.string(),
  pairedAt: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
  pending: id.nullable(),
  attention: id.nullable(),
  appVersion: z.string().nullable(),
});
export type KioskAnswer = z.infer<typeof KioskAnswer>;

export const PairingCodeAnswer = z.object({ pairingCode: z.string(), pairingExpiresAt: z.string() });
export type PairingCodeAnswer = z.infer<typeof PairingCodeAnswer>;

export const CreatedKioskAnswer = PairingCodeAnswer.extend({ kiosk: KioskAnswer });
export type CreatedKioskAnswer = z.infer<typeof CreatedKioskAnswer>;

export const PairedKioskAnswer = z.object({
  token: z.string(),
  kioskId: id,
  siteId: id,
  mode: openText<KioskMode>(),
  name: z.string(),
});
export type PairedKioskAnswer = z.infer<typeof PairedKioskAnswer>;

const pageOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), nextCursor: z.string().nullable() });
export const SiteAnswerPage = pageOf(SiteAnswer);
export const TokenAnswerPage = pageOf(TokenAnswer);
export const KioskAnswerPage = pageOf(KioskAnswer);
export type SiteAnswerPage = z.infer<typeof SiteAnswerPage>;
export type TokenAnswerPage = z.infer<typeof TokenAnswerPage>;
export type KioskAnswerPage = z.infer<typeof KioskAnswerPage>;
