import { z } from 'zod';
import { Id, IntId, Source, Timestamp } from './common';
import { CreateCheckinRequest, PersonStatus } from './personCheckins';
import { ConfigField, VisitCode } from './sites';

export { VISIT_CODE_LENGTH, VisitCode, VisitSettings, visitPageUrl } from './sites';

/**
 * The visit key a phone makes and keeps (docs/api.md, The visitor's phone): 256 random bits, base64url
 * without padding (43 characters). Sent as `Authorization: Visit <key>`; the server keeps its SHA-256 only.
 */
export const VISIT_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const VisitCodeParams = z.object({ code: VisitCode });
export const VisitCheckinParams = z.object({ code: VisitCode, checkinId: Id });

/** `GET /v1/visit/{code}`: what the phone's page needs: the site's name, its form and its hosts' names. */
export const VisitSite = z.object({
  siteName: z.string(),
  /** Set: the site takes no check-ins (the page says so). */
  archived: z.boolean(),
  formVersion: z.number().int().min(1),
  fields: z.array(ConfigField),
  hosts: z.array(z.object({ hostId: IntId, name: z.string() })),
});
export type VisitSite = z.infer<typeof VisitSite>;

/** `POST /v1/visit/{code}/checkins`: a person check-in as the site's form asks, without labels or a time. */
export const VisitCheckinRequest = CreateCheckinRequest.omit({ labelIds: true, occurredAt: true });
export type VisitCheckinRequest = z.infer<typeof VisitCheckinRequest>;

/**
 * A visit as its own phone sees it: its state and times, the name it was made with; never a reason, an
 * approver or anything else of the record (a `STOP` says only that).
 */
export const VisitCheckin = z.object({
  checkinId: Id,
  status: PersonStatus,
  firstName: z.string(),
  lastName: z.string(),
  hostName: z.string().nullable(),
  siteName: z.string(),
  entry: z.object({ source: Source, at: Timestamp }),
  exit: z.object({ source: Source, at: Timestamp }).nullable(),
  breaks: z.array(z.object({ startedAt: Timestamp, endedAt: Timestamp.nullable() })),
});
export type VisitCheckin = z.infer<typeof VisitCheckin>;
