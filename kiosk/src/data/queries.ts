import Dexie from 'dexie';
import type { KioskDatabase } from './database';
import type { PersonVisit, VehicleVisit } from './types';

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
    [[siteId, Dexie.minKey], [siteId, 'OUT']],
    [[siteId, 'OUT'], [siteId, Dexie.maxKey]],
  ] as const;
  const visits = await db.people.where('[siteId+status]').inAnyRange(notOut, { includeLowers: false, includeUppers: false }).toArray();
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

/** Vehicles on site (not OUT), newest entry first. */
export async function vehiclesOnSite(db: KioskDatabase, siteId: number): Promise<VehicleVisit[]> {
  const visits = await db.vehicles.where('[siteId+status]').anyOf(['IN', 'PENDING', 'STOP'].map((status) => [siteId, status])).toArray();
  return visits.sort((a, b) => Date.parse(b.entryAt) - Date.parse(a.entryAt));
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
