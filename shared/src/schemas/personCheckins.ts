import { z } from 'zod';
import { Actor } from './staff';
import { LanguageCode } from './language';
import { personStatuses } from '../domain/personCheckin';
import {
  BodyCursor,
  Id,
  Instant,
  IntId,
  Limit,
  PageQuery,
  overlapInOrder,
  Source,
  Text,
  Timestamp,
  commaList,
  sources,
} from './common';

export const PersonStatus = z.enum(personStatuses);

export const Person = z.strictObject({
  firstName: Text(100).optional(),
  lastName: Text(100).optional(),
  email: z.string().trim().max(254).optional(),
  phone: z.string().trim().max(40).optional(),
  company: z.string().trim().max(200).optional(),
});

export const CustomFieldValue = z.union([z.string().max(1000), z.boolean()]);

/** `CreateCheckinRequest`: `entry` is set by the server and refused here (strict object). */
export const CreateCheckinRequest = z.strictObject({
  person: Person,
  hostName: z.string().trim().max(200).optional(),
  /** A host of the site (docs/notifications.md): the check-in's `hostName` becomes the host's name. */
  hostId: IntId.optional(),
  purpose: z.string().trim().max(500).optional(),
  customFields: z.record(z.string().max(64), CustomFieldValue).optional(),
  labelIds: z.array(Id).max(50).optional(),
  occurredAt: Instant.optional(),
  /** The version of the site's form the person filled in (a kiosk's cached copy); docs/api.md, Form versions. */
  /** A visitor's pass (docs/invitations.md): links the check-in to its invitation, once. */
  pass: z.string().trim().min(1).max(4096).optional().meta({
    description:
      "The visitor's pass (the JWS of their invitation's QR code). A genuine pass of the site links the check-in to its invitation (`invitationId`) and fills in what the body leaves out from the invitation (email, phone, company, host, purpose). Its first use within its validity admits the visitor (the invitation is the approval) and marks the invitation `arrived`; any other use (used already, cancelled, replaced, outside its validity at `occurredAt`) is created `PENDING` with `pendingReason` and raises an alert. A pass that is not genuine, another account's or another site's is a 422 on `pass`.",
  }),
  formVersion: z.number().int().min(1).max(2_147_483_647).optional().meta({
    description:
      "The `version` of the site's check-in form the person filled in. When it is an older version and the body meets it but not the current form, the check-in is accepted with `incompleteFields` and raises an alert; without it, the current form is required.",
  }),
  /** The language the visitor checked in in (a kiosk sends its visitor's); docs/languages.md. */
  language: LanguageCode.optional().meta({
    description:
      "The language the visitor read the form in: their badge is printed in it. Without it, the site's `defaultLanguage`.",
  }),
});
export type CreateCheckinRequest = z.infer<typeof CreateCheckinRequest>;

/** Body of break start, break end and approve (each may say when it really happened). */
export const TimedActionRequest = z.strictObject({ occurredAt: Instant.optional() });
export type TimedActionRequest = z.infer<typeof TimedActionRequest>;

export const DenyRequest = z.strictObject({
  reason: z.string().trim().max(500).optional(),
  occurredAt: Instant.optional(),
});
export type DenyRequest = z.infer<typeof DenyRequest>;

export const CheckoutRequest = z.strictObject({
  exit: z.strictObject({ source: Source.optional() }).optional(),
  occurredAt: Instant.optional(),
});
export type CheckoutRequest = z.infer<typeof CheckoutRequest>;

export const Break = z.object({ breakId: Id, startedAt: Timestamp, endedAt: Timestamp.nullable() });

export const PersonCheckin = z.object({
  checkinId: Id,
  siteId: Id,
  status: PersonStatus,
  person: z.object({
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    company: z.string().nullable(),
  }),
  hostName: z.string().nullable(),
  /** The host told of this visit (null without one); `hostName` keeps their name as it was then. */
  hostId: IntId.nullable(),
  purpose: z.string().nullable(),
  customFields: z.record(z.string(), CustomFieldValue),
  labelIds: z.array(Id),
  entry: z.object({ source: Source, at: Timestamp }),
  exit: z.object({ source: Source, at: Timestamp }).nullable(),
  denyReason: z.string().nullable(),
  /** The invitation whose pass the visitor checked in with (docs/invitations.md); null without one. */
  invitationId: Id.nullable(),
  /** Why a check-in waits that would not otherwise ("Pass already used at 09:12"); null otherwise. */
  pendingReason: z.string().nullable(),
  /** The secret of the visit's badge QR code (docs/api.md, Badges); null on visits that ended before badges. */
  badgeCode: z.string().nullable(),
  /** The language the visitor read the form in (docs/languages.md); null when the create named none. */
  language: LanguageCode.nullable(),
  breaks: z.array(Break),
  /** Who approved, denied, or (with a session) entered or checked out this check-in, and when. */
  decidedBy: Actor.nullable(),
  decidedAt: Timestamp.nullable(),
  /** Present only on a check-in accepted on an older form: the current form's fields it does not meet. */
  incompleteFields: z.array(z.string()).optional().meta({
    description:
      "Only on a check-in accepted on an older version of the site's form (`formVersion`): the names of the current form's fields it does not meet (`company`, `badgeNumber`). Absent otherwise.",
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type PersonCheckin = z.infer<typeof PersonCheckin>;

export const PersonCheckinListQuery = PageQuery.extend({ status: commaList(personStatuses).optional() });

/** `PeopleCheckinsSearchRequest` (docs/api.md, Search). */
export const PeopleCheckinsSearchRequest = z
  .strictObject({
    siteIds: z.array(Id).max(500).optional(),
    status: z.array(PersonStatus).optional(),
    entrySource: z.array(z.enum(sources)).optional(),
    exitSource: z.array(z.enum(sources)).optional(),
    from: Instant.optional(),
    to: Instant.optional(),
    overlapsFrom: Instant.optional(),
    overlapsTo: Instant.optional(),
    q: z.string().trim().min(1).max(100).optional(),
    limit: Limit.optional(),
    cursor: BodyCursor.optional(),
  })
  .refine((body) => !body.from || !body.to || Date.parse(body.from) <= Date.parse(body.to), {
    path: ['to'],
    message: 'to must not be before from',
  })
  .refine(overlapInOrder, { path: ['overlapsTo'], message: 'overlapsTo must not be before overlapsFrom' });
export type PeopleCheckinsSearchRequest = z.infer<typeof PeopleCheckinsSearchRequest>;
