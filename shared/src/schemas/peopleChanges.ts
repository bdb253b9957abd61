import { z } from 'zod';
import { PersonStatus } from './personCheckins';
import { Cursor, Id, Source, Timestamp } from './common';

export const DEFAULT_PEOPLE_CHANGES = 200;
export const MAX_PEOPLE_CHANGES = 500;

/** `GET /v1/sites/{siteId}/checkins/people/changes` (docs/api.md, People change feed). */
export const PeopleChangesQuery = z.strictObject({
  cursor: Cursor.optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PEOPLE_CHANGES).default(DEFAULT_PEOPLE_CHANGES),
});
export type PeopleChangesQuery = z.infer<typeof PeopleChangesQuery>;

/**
 * A person visit as a kiosk keeps it: what its Roll call and Find your name show and what its state machine
 * needs. No email, phone, host, purpose or custom field: those stay on the server.
 */
export const PersonVisitChange = z.object({
  checkinId: Id,
  status: PersonStatus,
  person: z.object({ firstName: z.string(), lastName: z.string(), company: z.string().nullable() }),
  entry: z.object({ source: Source, at: Timestamp }),
  exit: z.object({ source: Source, at: Timestamp }).nullable(),
  breaks: z.array(z.object({ breakId: Id, startedAt: Timestamp, endedAt: Timestamp.nullable() })),
  // The visit's badge QR secret: the kiosk checks out a scanned badge offline (as `/kiosk/people` gives it).
  badgeCode: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type PersonVisitChange = z.infer<typeof PersonVisitChange>;

/** One page of the feed: apply `data` in order, keep `nextCursor`, ask again at once while `hasMore`. */
export const PeopleChanges = z.object({
  data: z.array(PersonVisitChange),
  nextCursor: z.string(),
  hasMore: z.boolean(),
});
export type PeopleChanges = z.infer<typeof PeopleChanges>;
