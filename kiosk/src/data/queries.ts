import Dexie from 'dexie';
import type { KioskDatabase } from './database';
import type { PersonVisit, VehicleVisit } from './types';
import { isCreate } from './types';

const byName = (a: PersonVisit, b: PersonVisit) =>
  a.person.lastName.localeCompare(b.person.lastName) || a.person.firstName.localeCompare(b.person.firstName);

/**
 * Everyone on site by local data (works offline): the Roll call and the source of "Find your name".
 * "On site" is every status but OUT, not a list of the ones this kiosk knows: a person in a status a newer
 * server added is on site too, and the Roll call is the evacuation list. Both ranges leave out their ends:
 * OUT itself, and minKey/maxKey, which no status string equals.
 */
export async function rollCall(db: KioskDatabase, siteId: number): Promise<PersonVisit[]> {
  const notOut = [
    [
      [siteId, Dexie.minKey],
      [siteId, 'OUT'],
    ],
    [
      [siteId, 'OUT'],
      [siteId, Dexie.maxKey],
    ],
  ] as const;
  const visits = await db.people
    .where('[siteId+status]')
    .inAnyRange(notOut, { includeLowers: false, includeUppers: false })
    .toArray();
  return visits.sort(byName);
}

/** People on site whose first name, last name or full name starts with what was typed (any case). */
export async function findPeople(db: KioskDatabase, siteId: number, typed: string): Promise<PersonVisit[]> {
  const query = typed.trim().toLocaleLowerCase();
  const everyone = await rollCall(db, siteId);
  if (query === '') return everyone;
  return everyone.filter(({ person }) => {
    const first = person.firstName.toLocaleLowerCase();
    const last = person.lastName.toLocaleLowerCase();
    return first.startsWith(query) || last.startsWith(query) || `${first} ${last}`.startsWith(query);
  });
}

/** The details a person gives at check-in that say who they are. */
export interface PersonDetails {
  firstName?: string;
  lastName?: string;
  email?: string;
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
 * The latest visit on site (this kiosk's data) that looks like `person`: whom the check-in form asks
 * "already checked in?" about. A visit whose create the server refused (in Needs attention, never given a
 * server id) is left out: the server has no such visit, and Needs attention tells staff to check the person
 * in again, which this question would otherwise turn away. A create merely queued still counts: it is a
 * check-in on its way.
 */
export async function alreadyOnSite(
  db: KioskDatabase,
  siteId: number,
  person: PersonDetails,
): Promise<PersonVisit | undefined> {
  return db.transaction('r', [db.people, db.outbox], async () => {
    const candidates = visitsLike(await rollCall(db, siteId), person);
    if (candidates.length === 0) return undefined;
    const refused = await db.outbox.where('state').equals('ATTENTION').toArray();
    const refusedVisits = new Set(refused.filter((action) => isCreate(action.kind)).map((action) => action.visitId));
    return candidates.find((visit) => visit.serverId !== undefined || !refusedVisits.has(visit.visitId));
  });
}

const newestFirst = (a: VehicleVisit, b: VehicleVisit) => Date.parse(b.entryAt) - Date.parse(a.entryAt);

/** Vehicles on site: let in (IN) or waiting at the gate for a guard (PENDING), newest entry first. Not STOP: those were refused. */
export async function vehiclesOnSite(db: KioskDatabase, siteId: number): Promise<VehicleVisit[]> {
  const visits = await db.vehicles
    .where('[siteId+status]')
    .anyOf(['IN', 'PENDING'].map((status) => [siteId, status]))
    .toArray();
  return visits.sort(newestFirst);
}

/** Every vehicle visit the kiosk holds for the site, whatever its status: what the gate's result cards follow. */
export async function siteVehicleVisits(db: KioskDatabase, siteId: number): Promise<VehicleVisit[]> {
  return (await db.vehicles.where('siteId').equals(siteId).toArray()).sort(newestFirst);
}

/** The visits of one plate the kiosk holds for the site (by normalized plate), newest first. */
export async function localPlateVisits(db: KioskDatabase, siteId: number, plateKey: string): Promise<VehicleVisit[]> {
  return (await db.vehicles.where('[siteId+plateKey]').equals([siteId, plateKey]).toArray()).sort(newestFirst);
}

/** Actions not yet acknowledged by the server (what the status bar counts), and those refused. */
export interface OutboxCounts {
  pending: number;
  attention: number;
}

export async function outboxCounts(db: KioskDatabase): Promise<OutboxCounts> {
  return db.transaction('r', [db.outbox], async () => ({
    pending: await db.outbox.count(),
    attention: await db.outbox.where('state').equals('ATTENTION').count(),
  }));
}
