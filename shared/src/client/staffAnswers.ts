import { z } from 'zod';
import type { AlertKind, AlertSource } from '../schemas/alerts';
import type { Role } from '../schemas/staff';
import type { Open } from './answers';

// Staff sessions and alerts as this client reads them (docs/api.md, Staff and sessions): open enums, unknown
// fields dropped, like answers.ts, so a newer server's additions do not break the console.

const openText = <Known extends string>() =>
  z
    .string()
    .min(1)
    .transform((value): Open<Known> => value);

export const StaffUserAnswer = z.object({
  userId: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: openText<Role>(),
  siteIds: z.array(z.number().int()),
  allSites: z.boolean(),
  disabled: z.boolean(),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
});
export type StaffUserAnswer = z.infer<typeof StaffUserAnswer>;

export const SessionAnswer = z.object({ user: StaffUserAnswer });
export type SessionAnswer = z.infer<typeof SessionAnswer>;

export const SessionLinkAnswer = z.object({
  kind: openText<'setup' | 'invitation' | 'reset'>(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  accountName: z.string(),
});
export type SessionLinkAnswer = z.infer<typeof SessionLinkAnswer>;

export const Actor = z.object({ type: openText<'user' | 'token'>(), id: z.number().int(), name: z.string() });
export type Actor = z.infer<typeof Actor>;

export const AlertAnswer = z.object({
  kind: openText<AlertKind>(),
  checkinId: z.number().int(),
  siteId: z.number().int(),
  at: z.string(),
  subject: z.string(),
  reason: z.string().nullable(),
  source: openText<AlertSource>(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: Actor.nullable(),
});
export type AlertAnswer = z.infer<typeof AlertAnswer>;

export const AlertPage = z.object({
  data: z.array(AlertAnswer),
  nextCursor: z.string().nullable(),
  unacknowledged: z.number().int(),
});
export type AlertPage = z.infer<typeof AlertPage>;
