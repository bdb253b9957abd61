import { z } from 'zod';
import { type Scope, isKioskScope, scopes } from './admin';
import { Id, IntId, Text, Timestamp } from './common';

export const roles = ['owner', 'manager', 'reception', 'security'] as const;
export const Role = z.enum(roles);
export type Role = z.infer<typeof Role>;

/** Roles are named scope sets (docs/api.md, Staff accounts): the one table of who may do what. */
export const roleScopes: Record<Role, Scope[]> = {
  // Every scope but the kiosks' own: staff act for people, not as a kiosk.
  owner: scopes.filter((scope) => !isKioskScope(scope)),
  manager: [
    'checkins:read',
    'checkins:write',
    'checkins:approve',
    'vehicles:read',
    'vehicles:write',
    'labels:write',
    'sites:configure',
    'watchlist:manage',
    'audit:read',
    'alerts:manage',
    'exports:read',
    'kiosks:manage',
    'hosts:manage',
    'invitations:read',
    'invitations:write',
  ],
  // Reception approves people; vehicle approve/deny also needs vehicles:write.
  reception: [
    'checkins:read',
    'checkins:write',
    'checkins:approve',
    'vehicles:read',
    'alerts:manage',
    'invitations:read',
    'invitations:write',
  ],
  security: [
    'checkins:read',
    'checkins:approve',
    'vehicles:read',
    'vehicles:write',
    'labels:write',
    'watchlist:manage',
    'alerts:manage',
  ],
};

/** An owner always sees every site of the account, now and future. */
export const roleHasAllSites = (role: Role): boolean => role === 'owner';

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;
/** Any characters (no composition rules); the server also refuses passwords that are easy to guess (docs/api.md, Passwords). */
export const Password = z
  .string()
  .min(PASSWORD_MIN, `Use at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters`);
export const Email = z.string().trim().max(254).pipe(z.email());

export const StaffUser = z.object({
  userId: IntId,
  email: z.string(),
  name: z.string(),
  role: Role,
  siteIds: z.array(Id),
  allSites: z.boolean(),
  disabled: z.boolean(),
  createdAt: Timestamp,
  lastSignInAt: Timestamp.nullable(),
});
export type StaffUser = z.infer<typeof StaffUser>;

export const SessionResponse = z.object({ user: StaffUser });

export const SignInRequest = z.strictObject({
  email: z.string().trim().max(254),
  password: z.string().max(PASSWORD_MAX),
});
export const ChangePasswordRequest = z.strictObject({
  currentPassword: z.string().max(PASSWORD_MAX),
  newPassword: Password,
});

export const linkKinds = ['setup', 'invitation', 'reset'] as const;
export const LinkKind = z.enum(linkKinds);
export type LinkKind = z.infer<typeof LinkKind>;
export const LinkCode = z.string().regex(/^[A-Za-z0-9_-]{43}$/);
export const LinkInfo = z.object({
  kind: LinkKind,
  email: z.string().nullable(),
  name: z.string().nullable(),
  accountName: z.string(),
});
export type LinkInfo = z.infer<typeof LinkInfo>;

export const SetupRequest = z.strictObject({
  code: z.string().max(100),
  name: Text(200),
  email: Email,
  password: Password,
});
export const RedeemLinkRequest = z.strictObject({
  code: z.string().max(100),
  name: Text(200).optional(),
  password: Password,
});

const siteChoice = <T extends { siteIds?: number[]; allSites?: boolean }>(body: T) =>
  !(body.allSites === true && body.siteIds);
export const CreateUserRequest = z
  .strictObject({
    email: Email,
    name: Text(200),
    role: Role,
    siteIds: z.array(IntId).max(1000).optional(),
    allSites: z.boolean().optional(),
  })
  .refine(siteChoice, { message: 'Give siteIds or allSites, not both' });
export type CreateUserRequest = z.infer<typeof CreateUserRequest>;

export const UpdateUserRequest = z
  .strictObject({
    name: Text(200).optional(),
    role: Role.optional(),
    siteIds: z.array(IntId).max(1000).optional(),
    allSites: z.boolean().optional(),
    disabled: z.boolean().optional(),
  })
  .refine(siteChoice, { message: 'Give siteIds or allSites, not both' });
export type UpdateUserRequest = z.infer<typeof UpdateUserRequest>;

export const CreatedUser = z.object({ user: StaffUser, invitationUrl: z.string() });
export const PasswordResetLink = z.object({ resetUrl: z.string() });
export const UserList = z.object({ data: z.array(StaffUser) });

/** Who did something: a staff user or an API token, with its name at the time. */
/** Who acted: a staff user, a token, or a host deciding by a link of their message (docs/notifications.md). */
export const Actor = z.object({ type: z.enum(['user', 'token', 'host']), id: IntId, name: z.string() });
export type Actor = z.infer<typeof Actor>;
