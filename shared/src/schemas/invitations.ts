import { z } from 'zod';
import { PASS_ALGORITHM } from '../domain/passes';
import { SiteIdList } from './audit';
import { Id, Instant, IntId, PageQuery, Text, Timestamp, commaList } from './common';
import { LanguageCode } from './language';
import { notificationStatuses } from './notifications';
import { Actor, Email } from './staff';

/** `expired` is never stored: an `expected` invitation whose `validUntil` has passed reads as it. */
export const invitationStatuses = ['expected', 'arrived', 'cancelled', 'expired'] as const;
export const InvitationStatus = z.enum(invitationStatuses);
export type InvitationStatus = z.infer<typeof InvitationStatus>;

const Phone = z.string().trim().min(1).max(40).regex(/\d/, 'A phone number needs digits');

/** The state of the last email that carried the pass to the visitor (docs/invitations.md, The email). */
export const PassEmail = z.object({
  status: z.enum(notificationStatuses),
  /** When it was sent, or last tried; null while no attempt was made. */
  at: Timestamp.nullable(),
  /** Why it was not sent (yet); null once sent. */
  error: z.string().nullable(),
});

/** An expected visitor (docs/invitations.md). */
export const Invitation = z.object({
  invitationId: Id,
  siteId: IntId,
  person: z.object({
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    company: z.string().nullable(),
  }),
  hostId: IntId.nullable(),
  /** The host's name as it is now (or as it was, once the host is deleted): for screens that cannot list hosts. */
  hostName: z.string().nullable(),
  purpose: z.string().nullable(),
  /** The language of the visitor's email; null: the site's default language (docs/invitations.md, The email). */
  language: LanguageCode.nullable(),
  expectedAt: Timestamp,
  validFrom: Timestamp,
  validUntil: Timestamp,
  status: InvitationStatus,
  /** The check-in of the visitor's arrival by pass (set once `arrived`). */
  checkinId: Id.nullable(),
  arrivedAt: Timestamp.nullable(),
  createdBy: Actor,
  createdAt: Timestamp,
  /** The last email of the pass to the visitor; null when none was asked for (no email, or `sendEmail: false`). */
  passEmail: PassEmail.nullable(),
});
export type Invitation = z.infer<typeof Invitation>;

const validityInOrder = (body: { validFrom?: string | null; validUntil?: string | null }) =>
  !body.validFrom || !body.validUntil || Date.parse(body.validFrom) < Date.parse(body.validUntil);

/** `POST /v1/invitations`. Validity left out: the expected day at the site (its local midnight to midnight). */
export const CreateInvitationRequest = z
  .strictObject({
    siteId: IntId,
    person: z.strictObject({
      firstName: Text(100),
      lastName: Text(100),
      email: Email.optional(),
      phone: Phone.optional(),
      company: z.string().trim().max(200).optional(),
    }),
    hostId: IntId.optional(),
    purpose: z.string().trim().max(500).optional(),
    /** The language of the visitor's email. Left out: the site's default language when the email is sent. */
    language: LanguageCode.optional(),
    expectedAt: Instant,
    validFrom: Instant.optional(),
    validUntil: Instant.optional(),
    /** False: no email to the visitor (an integrator delivers the pass itself, `GET …/pass`). Default true. */
    sendEmail: z.boolean().optional(),
  })
  .refine(validityInOrder, { path: ['validUntil'], message: 'validUntil must be after validFrom' });
export type CreateInvitationRequest = z.infer<typeof CreateInvitationRequest>;

/** `PATCH /v1/invitations/{id}`: the fields sent change; `null` clears an optional one. */
export const UpdateInvitationRequest = z
  .strictObject({
    person: z
      .strictObject({
        firstName: Text(100).optional(),
        lastName: Text(100).optional(),
        email: Email.nullable().optional(),
        phone: Phone.nullable().optional(),
        company: z.string().trim().max(200).nullable().optional(),
      })
      .optional(),
    hostId: IntId.nullable().optional(),
    purpose: z.string().trim().max(500).nullable().optional(),
    /** `null`: the site's default language again. A change applies to the next email (a resend, a new pass). */
    language: LanguageCode.nullable().optional(),
    expectedAt: Instant.optional(),
    validFrom: Instant.optional(),
    validUntil: Instant.optional(),
  })
  .refine(validityInOrder, { path: ['validUntil'], message: 'validUntil must be after validFrom' });
export type UpdateInvitationRequest = z.infer<typeof UpdateInvitationRequest>;

export const InvitationIdParams = z.object({ invitationId: Id });

/** `GET /v1/invitations`: by sites, by `expectedAt` (from ≤ expectedAt < to), by status; earliest expected first. */
export const InvitationListQuery = PageQuery.extend({
  siteIds: SiteIdList.optional(),
  from: Instant.optional(),
  to: Instant.optional(),
  status: commaList(invitationStatuses).optional(),
}).refine((query) => !query.from || !query.to || Date.parse(query.from) <= Date.parse(query.to), {
  path: ['to'],
  message: 'to must not be before from',
});
export type InvitationListQuery = z.infer<typeof InvitationListQuery>;

/** An Ed25519 public key as a JWK (RFC 8037), with its key id. */
export const PassJwk = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  kid: z.string().min(1).max(100),
  alg: z.literal(PASS_ALGORITHM),
  use: z.literal('sig'),
});
export type PassJwk = z.infer<typeof PassJwk>;

/** A JWK Set (RFC 7517) of pass keys. */
export const PassJwks = z.object({ keys: z.array(PassJwk) });
export type PassJwks = z.infer<typeof PassJwks>;

/** `GET /v1/sites/{siteId}/kiosk/passes`: what a kiosk verifies passes with, offline. */
export const KioskPasses = z.object({
  accountId: IntId,
  siteId: IntId,
  /** The account's public keys that may have signed a pass still valid. */
  keys: PassJwks,
  /** The `jti` of the site's passes that were cancelled (or replaced) and would still be valid. */
  revoked: z.array(z.string()),
});
export type KioskPasses = z.infer<typeof KioskPasses>;

/** `GET /v1/invitations/{id}/pass`: the pass for integrators who deliver it themselves. */
export const InvitationPass = z.object({
  invitationId: Id,
  /** The pass: a JWS compact serialization (what the QR code holds). */
  token: z.string(),
  /** The QR code of `token` as a PNG, base64. */
  qrPng: z.string(),
  validFrom: Timestamp,
  validUntil: Timestamp,
});
export type InvitationPass = z.infer<typeof InvitationPass>;

/** A signing key as listed: its public half (the private half never leaves the server). */
export const PassKey = PassJwk.extend({
  createdAt: Timestamp,
  /** When it stopped signing (a newer key took over); it stays published while a pass it signed is valid. */
  retiredAt: Timestamp.nullable(),
});
export const PassKeyList = z.object({ keys: z.array(PassKey) });
export type PassKeyList = z.infer<typeof PassKeyList>;

/** `POST /v1/invitations/import` (text/csv), at most 64 KiB. */
export const InvitationImportCsv = z.string().max(64 * 1024);

export const InvitationImportResult = z.object({
  created: z.number().int().min(0),
  /** Lines that matched an expected invitation (same site, visitor and expected time) and updated it. */
  updated: z.number().int().min(0),
  errors: z.array(z.object({ line: z.number().int().min(1), detail: z.string() })),
});
export type InvitationImportResult = z.infer<typeof InvitationImportResult>;
