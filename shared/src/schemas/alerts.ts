import { z } from 'zod';
import { Id, IntId, PageQuery, Timestamp } from './common';
import { SiteIdList } from './audit';
import { Actor } from './staff';

/**
 * What an alert is about, which with `checkinId` names it: a person's or a vehicle's STOP, a person checked in
 * on an older form (`form`), or an action the server refused to a kiosk (`kiosk`, whose number is the
 * alert's own: a refused create has no check-in). docs/api.md, Alerts.
 */
export const alertKinds = ['person', 'vehicle', 'form', 'kiosk', 'pass'] as const;
export const AlertKind = z.enum(alertKinds);
export type AlertKind = z.infer<typeof AlertKind>;

/** Why a check-in is STOP: a watchlist match, a blocking vehicle label, or a denial. */
export const stopSources = ['watchlist', 'label', 'denied'] as const;
export const StopSource = z.enum(stopSources);
export type StopSource = z.infer<typeof StopSource>;

/** Why an alert was raised: a STOP's source, a check-in on an older form, or a refusal to a kiosk. */
export const alertSources = [...stopSources, 'olderForm', 'kioskRefused', 'pass'] as const;
export const AlertSource = z.enum(alertSources);
export type AlertSource = z.infer<typeof AlertSource>;

/**
 * An alert of the last 24 hours, for staff (the watchlist entry's reason is shown only here). `subject`: the
 * person's name, the plate, or (a kiosk's refusal) the kiosk's name.
 */
export const Alert = z.object({
  kind: AlertKind,
  checkinId: Id.meta({
    description:
      'With `kind`, names the alert: the check-in of a `person`, `vehicle`, `form` or `pass` alert; the alert’s own number for a `kiosk` alert.',
  }),
  siteId: IntId,
  at: Timestamp,
  subject: z.string(),
  reason: z.string().nullable(),
  source: AlertSource,
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
