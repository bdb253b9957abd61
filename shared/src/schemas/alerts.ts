import { z } from 'zod';
import { Id, IntId, PageQuery, Timestamp } from './common';
import { SiteIdList } from './audit';
import { Actor } from './staff';

export const alertKinds = ['person', 'vehicle'] as const;
export const AlertKind = z.enum(alertKinds);
export type AlertKind = z.infer<typeof AlertKind>;

/** Why a check-in is STOP: a watchlist match, a blocking vehicle label, or a denial. */
export const stopSources = ['watchlist', 'label', 'denied'] as const;
export const StopSource = z.enum(stopSources);
export type StopSource = z.infer<typeof StopSource>;

/** A STOP of the last 24 hours, for staff (the watchlist entry's reason is shown only here). */
export const Alert = z.object({
  kind: AlertKind,
  checkinId: Id,
  siteId: IntId,
  at: Timestamp,
  subject: z.string(),
  reason: z.string().nullable(),
  source: StopSource,
  acknowledgedAt: Timestamp.nullable(),
  acknowledgedBy: Actor.nullable(),
});
export type Alert = z.infer<typeof Alert>;

export const AlertQuery = PageQuery.extend({ siteIds: SiteIdList.optional() });
export const AlertPage = z.object({
  data: z.array(Alert),
  nextCursor: z.string().nullable(),
  unacknowledged: z.number().int().min(0),
});
