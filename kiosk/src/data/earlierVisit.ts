import { normalizeEmail, normalizeName, normalizePhone } from '../../../shared/src/domain';
import type { KioskDatabase } from './database';
import { rollCall } from './queries';
import type { PersonVisit } from './types';

/** The details a person gives at check-in that say who they are. */
export interface PersonDetails {
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
}

const same = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

/**
 * Whether a visit looks like the person now checking in: the same first and last name (any case, spaces
 * around ignored), and the same email when both gave one. A likeness, not an identity: two people can
 * share a name, so the screen asks rather than refuses.
 */
export function looksLikeSamePerson(visit: PersonVisit, person: PersonDetails): boolean {
  const { firstName, lastName, email } = person;
  if (!firstName?.trim() || !lastName?.trim()) return false;
  if (!same(visit.person.firstName, firstName) || !same(visit.person.lastName, lastName)) return false;
  return !email?.trim() || !visit.person.email?.trim() || same(visit.person.email, email);
}

/** The visits among `visits` (people on site) that look like `person`, the latest to arrive first. */
export function visitsLike(visits: readonly PersonVisit[], person: PersonDetails): PersonVisit[] {
  const matches = visits.filter((visit) => looksLikeSamePerson(visit, person));
  return matches.sort((a, b) => Date.parse(b.entryAt) - Date.parse(a.entryAt));
}

/**
 * Whether `visit` may be this person by any one of the details the watchlist matches by (the same
 * normalizers): full name, email or phone. Wider than looksLikeSamePerson on purpose: a refused visitor
 * must not get past the refusal by giving another email.
 */
function mayBeSamePerson(visit: PersonVisit, person: PersonDetails): boolean {
  const pairs: Array<[string | null, string | null]> = [
    [normalizeName(visit.person.firstName, visit.person.lastName), normalizeName(person.firstName, person.lastName)],
    [normalizeEmail(visit.person.email), normalizeEmail(person.email)],
    [normalizePhone(visit.person.phone), normalizePhone(person.phone)],
  ];
  return pairs.some(([held, given]) => held !== null && held === given);
}

/**
 * What the kiosk knows of this person from an earlier check-in at the site, before it records another:
 * - `refused`: a visit of theirs is STOP (the site refused them: on the watchlist, or denied), also while that
 *   is only this kiosk's prediction. They are told to see reception, as the first time, and nothing is
 *   recorded: a second check-in would be a way around the refusal (the digest cannot know a denial).
 * - `onSite`: the latest visit on site that looks like theirs (see alreadyOnSite): asked about, not refused.
 */
export type EarlierVisit = { kind: 'refused' } | { kind: 'onSite'; visit: PersonVisit };

export async function earlierVisit(
  db: KioskDatabase,
  siteId: number,
  person: PersonDetails,
): Promise<EarlierVisit | undefined> {
  const stopped = await db.people.where('[siteId+status]').equals([siteId, 'STOP']).toArray();
  if (stopped.some((visit) => mayBeSamePerson(visit, person))) return { kind: 'refused' };
  const visit = await alreadyOnSite(db, siteId, person);
  return visit ? { kind: 'onSite', visit } : undefined;
}

/**
 * The latest visit on site (this kiosk's data) that looks like `person`: whom the check-in form asks
 * "already checked in?" about. It is taken from the Roll call, so a visit whose create the server refused
 * (in Needs attention, never given a server id) is left out: the server has no such visit, and Needs
 * attention tells staff to check the person in again, which this question would otherwise turn away. A
 * create merely queued still counts: it is a check-in on its way.
 */
export async function alreadyOnSite(
  db: KioskDatabase,
  siteId: number,
  person: PersonDetails,
): Promise<PersonVisit | undefined> {
  return visitsLike(await rollCall(db, siteId), person)[0];
}
