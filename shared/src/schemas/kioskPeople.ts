import type { z } from 'zod';
import { PageQuery, page } from './common';
import { PersonCheckin } from './personCheckins';

/**
 * A person visit as a visitor kiosk reads it (`GET /sites/{siteId}/kiosk/people`): what its screens show
 * (Roll call, Find your name, "already checked in?") and no more: names and company, status, times and
 * breaks. No email, phone, host, purpose, custom fields, labels or decisions: the kiosk sits in a lobby.
 */
export const KioskPerson = PersonCheckin.pick({
  checkinId: true,
  siteId: true,
  status: true,
  entry: true,
  exit: true,
  breaks: true,
  createdAt: true,
  updatedAt: true,
  // The visit's badge QR secret: the kiosk checks out a scanned badge offline, as it may check out anyone listed.
  badgeCode: true,
}).extend({ person: PersonCheckin.shape.person.pick({ firstName: true, lastName: true, company: true }) });
export type KioskPerson = z.infer<typeof KioskPerson>;

export const KioskPersonPage = page(KioskPerson);
export type KioskPersonPage = z.infer<typeof KioskPersonPage>;

export const KioskPeopleQuery = PageQuery;

/** The minimal shape of a whole check-in, field by field (never a spread: a new field stays off the kiosk). */
export const toKioskPerson = (checkin: PersonCheckin): KioskPerson => ({
  checkinId: checkin.checkinId,
  siteId: checkin.siteId,
  status: checkin.status,
  person: { firstName: checkin.person.firstName, lastName: checkin.person.lastName, company: checkin.person.company },
  entry: checkin.entry,
  exit: checkin.exit,
  breaks: checkin.breaks,
  createdAt: checkin.createdAt,
  updatedAt: checkin.updatedAt,
  badgeCode: checkin.badgeCode,
});
