import { z } from 'zod';
import { Text } from './common';

/** How long visitors' personal data is kept after a visit (docs/api.md, Retention); null: kept until erased. */
export const RetentionSettings = z.strictObject({
  personDataDays: z.number().int('Whole days').min(1).max(3650).nullable(),
});
export type RetentionSettings = z.infer<typeof RetentionSettings>;

/**
 * Whose check-ins to anonymize: any of an email, a phone (with digits), a full name (both parts). Matched
 * as the watchlist matches (docs/api.md, Erasure). An email is taken as typed: a stored one may be malformed.
 */
export const ErasureRequest = z
  .strictObject({
    email: z.string().trim().min(1).max(254).optional(),
    phone: z.string().trim().max(40).regex(/\d/, 'A phone number needs digits').optional(),
    firstName: Text(100).optional(),
    lastName: Text(100).optional(),
  })
  .refine((body) => (body.firstName === undefined) === (body.lastName === undefined), {
    message: 'Give firstName and lastName together',
    path: ['lastName'],
  })
  .refine((body) => body.email !== undefined || body.phone !== undefined || body.firstName !== undefined, {
    message: 'Give an email, a phone, or both firstName and lastName',
  });
export type ErasureRequest = z.infer<typeof ErasureRequest>;

export const ErasureResult = z.object({ anonymized: z.number().int().min(0) });
export type ErasureResult = z.infer<typeof ErasureResult>;
