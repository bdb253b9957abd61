import { z } from 'zod';
import { Channel, Id, Text, Timestamp, page } from './common';

export const scopes = [
  'checkins:read',
  'checkins:write',
  'checkins:approve',
  'vehicles:read',
  'vehicles:write',
  'labels:write',
  'sites:configure',
  'webhooks:manage',
  'watchlist:manage',
  'alerts:manage',
  'users:manage',
  'audit:read',
  'exports:read',
  'kiosks:manage',
  'tokens:manage',
  'privacy:manage',
  'hosts:manage',
  'invitations:read',
  'invitations:write',
  'kiosk:visitor',
  'kiosk:gate',
] as const;
export const Scope = z.enum(scopes);
export type Scope = z.infer<typeof Scope>;

/**
 * What a kiosk's token carries, by its mode, and nothing else (docs/api.md, Scopes): a lobby tablet checks
 * people in and out and reads who is on site now; a gate lets vehicles in and out. Only `KIOSK`-channel
 * tokens have these, and a `KIOSK`-channel token has exactly one of them.
 */
export const kioskModeScopes = { visitor: ['kiosk:visitor'], gate: ['kiosk:gate'] } as const satisfies Record<
  'visitor' | 'gate',
  readonly Scope[]
>;
export const kioskScopes: readonly Scope[] = ['kiosk:visitor', 'kiosk:gate'];
export const isKioskScope = (scope: Scope): boolean => kioskScopes.includes(scope);

/** What a route needs: one scope, or any one of several (an integrator's, or a kiosk's for its job). */
export type ScopeNeed = Scope | readonly Scope[];

/** Whether `granted` satisfies `need` (any one of its scopes). */
export const grantsScope = (granted: ReadonlySet<Scope>, need: ScopeNeed): boolean =>
  typeof need === 'string' ? granted.has(need) : need.some((scope) => granted.has(scope));

/** `need` in words: `checkins:write` or `checkins:write or kiosk:visitor`. */
export const scopeNeedText = (need: ScopeNeed): string => (typeof need === 'string' ? need : need.join(' or '));

/** Scopes of staff work that no token gets unless it asks for them. */
const staffOnly: ReadonlySet<Scope> = new Set<Scope>([
  'webhooks:manage',
  'sites:configure',
  'alerts:manage',
  'users:manage',
  'audit:read',
  'exports:read',
  'kiosks:manage',
  'tokens:manage',
  'privacy:manage',
  'hosts:manage',
  // Invitations hold visitors' data, and a pass admits its holder: tokens get them only when asked for.
  'invitations:read',
  'invitations:write',
]);

/**
 * What an `API`-channel token created without `scopes` gets: all but webhooks, site settings, staff work and
 * the kiosks' own scopes.
 */
export const defaultScopes: Scope[] = scopes.filter((scope) => !staffOnly.has(scope) && !isKioskScope(scope));

export const CreateAccountRequest = z.strictObject({ name: Text(200) });
export const Account = z.object({ accountId: Id, name: z.string() });

const timezoneNames = new Set(Intl.supportedValuesOf('timeZone'));
export const Timezone = z
  .string()
  .refine((zone) => zone === 'UTC' || timezoneNames.has(zone), 'Unknown IANA time zone');

export const CreateSiteRequest = z.strictObject({ name: Text(200), timezone: Timezone.optional() });
export const AdminSite = z.object({ siteId: Id, accountId: Id, name: z.string(), timezone: z.string() });

export const CreateTokenRequest = z
  .strictObject({
    name: Text(200),
    siteIds: z.array(Id).max(1000).optional(),
    allSites: z.boolean().optional(),
    scopes: z.array(Scope).optional(),
    channel: Channel.optional(),
    /** A `KIOSK` token's mode, which decides its scopes (required for `KIOSK`, refused for `API`). */
    mode: z.enum(['visitor', 'gate']).optional(),
    expiresAt: z.iso.datetime({ offset: true }).optional(),
  })
  .refine((token) => !(token.allSites && token.siteIds), { message: 'Give siteIds or allSites, not both' })
  .refine((token) => token.allSites === true || token.siteIds !== undefined, {
    message: 'Give siteIds or allSites: true',
  });
export type CreateTokenRequest = z.infer<typeof CreateTokenRequest>;

export const UpdateTokenRequest = z
  .strictObject({
    siteIds: z.array(Id).max(1000).optional(),
    allSites: z.boolean().optional(),
    scopes: z.array(Scope).optional(),
  })
  .refine((token) => !(token.allSites === true && token.siteIds), { message: 'Give siteIds or allSites, not both' });
export type UpdateTokenRequest = z.infer<typeof UpdateTokenRequest>;

export const Token = z.object({
  tokenId: Id,
  accountId: Id,
  name: z.string(),
  siteIds: z.array(Id),
  allSites: z.boolean(),
  scopes: z.array(Scope),
  channel: Channel,
  expiresAt: Timestamp.nullable(),
  lastUsedAt: Timestamp.nullable(),
  createdAt: Timestamp,
});
export const CreatedToken = Token.extend({ token: z.string() });

/** Management API lists (`GET /v1/admin/accounts`, `…/{id}/sites`, `…/{id}/tokens`). */
export const AccountPage = page(Account);
export const AdminSitePage = page(AdminSite);
