import { z } from 'zod';
import { Id, IntId, Text, Timestamp } from './common';

export const WatchlistEntry = z.object({
  entryId: Id,
  email: z.string().nullable(),
  phone: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  reason: z.string().nullable(),
  createdAt: Timestamp,
});
export type WatchlistEntry = z.infer<typeof WatchlistEntry>;

/** An entry needs an identifier: an email, a phone with digits, or a full name (first and last). */
export const CreateWatchlistEntryRequest = z
  .strictObject({
    email: z.email().max(254).optional(),
    phone: z.string().trim().max(40).regex(/\d/, 'A phone number needs digits').optional(),
    firstName: Text(100).optional(),
    lastName: Text(100).optional(),
    reason: z.string().trim().max(500).optional(),
  })
  .refine((entry) => entry.email || entry.phone || (entry.firstName && entry.lastName), {
    message: 'Give an email, a phone, or both firstName and lastName',
  });
export type CreateWatchlistEntryRequest = z.infer<typeof CreateWatchlistEntryRequest>;

/**
 * `PATCH /watchlist/people/{entryId}`: only the fields sent change; `null` clears one. The entry must still have
 * an identifier afterwards (422 otherwise, checked against the stored entry).
 */
export const UpdateWatchlistEntryRequest = z.strictObject({
  email: z.email().max(254).nullable().optional(),
  phone: z.string().trim().max(40).regex(/\d/, 'A phone number needs digits').nullable().optional(),
  firstName: Text(100).nullable().optional(),
  lastName: Text(100).nullable().optional(),
  reason: z.string().trim().max(500).nullable().optional(),
});
export type UpdateWatchlistEntryRequest = z.infer<typeof UpdateWatchlistEntryRequest>;

export const WatchlistEntryIdParams = z.object({ entryId: IntId });

const Hash = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * The watchlist as a kiosk keeps it: per kind, the hex HMAC-SHA256 (under `key`) of each entry's normalized
 * identifier, sorted. No names, no reasons. The key comes along, so this is pseudonymization, not secrecy:
 * whoever holds the digest can test a guess (docs/api.md, Watchlist digest).
 */
export const WatchlistDigest = z.object({
  algorithm: z.literal('HMAC-SHA256'),
  /** The account's digest key, base64 (32 bytes). */
  key: z.base64(),
  email: z.array(Hash),
  phone: z.array(Hash),
  name: z.array(Hash),
});
export type WatchlistDigest = z.infer<typeof WatchlistDigest>;
