import Dexie from 'dexie';
import type { KioskDatabase } from './database';
import { projectPerson } from './projection';
import type { KeptPersonStatus, OutboxAction, PersonVisit, VehicleVisit } from './types';
import { isCreate } from './types';
import { actionsOf } from './visits';

const byName = (a: PersonVisit, b: PersonVisit) =>
  a.person.lastName.localeCompare(b.person.lastName) || a.person.firstName.localeCompare(b.person.firstName);

/**
 * Whether a person in this status is on site for the Roll call: IN, ON_BREAK and PENDING (waiting for
 * approval, in the building), never STOP (refused entry) or OUT. A status a newer server added counts too:
 * the Roll call is the evacuation list, and the kiosk cannot tell such a person is gone (docs/kiosk-sync.md).
 */
export const countsOnSite = (status: KeptPersonStatus): boolean => status !== 'STOP' && status !== 'OUT';

// Both ranges leave out their ends: OUT itself, and minKey/maxKey, which no status string equals.
const notOutRanges = (siteId: number) =>
  [
    [
      [siteId, Dexie.minKey],
      [siteId, 'OUT'],
    ],
    [
      [siteId, 'OUT'],
      [siteId, Dexie.maxKey],
    ],
  ] as const;

/**
 * The visit as the server will have it once synced: its actions up to the first one the server refused
 * (Needs attention), which had no effect, and those queued behind it wait. Undefined when the refused
 * action is its create: the server has no such visit.
 */
function withoutRefused(visit: PersonVisit, actions: readonly OutboxAction[]): PersonVisit | undefined {
  const refusedAt = actions.findIndex((action) => action.state === 'ATTENTION');
  if (refusedAt === -1) return visit;
  const refused = actions[refusedAt];
  if (refused && isCreate(refused.kind) && visit.serverId === undefined) return undefined;
  return { ...visit, ...projectPerson(visit, actions.slice(0, refusedAt)) };
}

/** What the Roll call shows: the people it counts, and the check-ins the server refused, which it does not. */
export interface RollCallView {
  /** On site, by name: IN, ON_BREAK and PENDING (the screen shows those waiting apart), each as the server will have it. */
  people: PersonVisit[];
  /**
   * Check-ins made here that the server refused (in Needs attention): the person may be in the lobby, but
   * is on site for nobody else, so they are listed apart and never counted.
   */
  refused: PersonVisit[];
}

/**
 * Everyone on site by local data (works offline): the Roll call, the evacuation list. It counts what the
 * console counts once everything is synced (IN, ON_BREAK, PENDING): not a STOP (a refused watchlist
 * attempt), not someone who left, and not an action the server refused: a refused check-in adds nobody, a
 * refused checkout takes nobody away. A discarded action is gone from the outbox, so from the view.
 */
export async function rollCallView(db: KioskDatabase, siteId: number): Promise<RollCallView> {
  return db.transaction('r', [db.people, db.outbox], async () => {
    const listed = await db.people
      .where('[siteId+status]')
      .inAnyRange(notOutRanges(siteId), { includeLowers: false, includeUppers: false })
      .toArray();
    // Refused actions are few (a person must look at each): their visits are read again, OUT ones too, since
    // a refused checkout shows OUT here while the server still has the person on site.
    const refusedActions = await db.outbox.where('state').equals('ATTENTION').toArray();
    const withRefusals = new Set(
      refusedActions.filter((action) => action.siteId === siteId).map((action) => action.visitId),
    );
    const listedIds = new Set(listed.map((visit) => visit.visitId));
    const leftHere = (await db.people.bulkGet([...withRefusals].filter((visitId) => !listedIds.has(visitId)))).filter(
      (visit): visit is PersonVisit => visit?.siteId === siteId,
    );
    const people: PersonVisit[] = [];
    const refused: PersonVisit[] = [];
    for (const visit of [...listed, ...leftHere]) {
      const served = withRefusals.has(visit.visitId)
        ? withoutRefused(visit, await actionsOf(db, visit.visitId))
        : visit;
      if (served === undefined) refused.push(visit);
      else if (countsOnSite(served.status)) people.push(served);
    }
    return { people: people.sort(byName), refused: refused.sort(byName) };
  });
}

/** The people the Roll call counts (see rollCallView). */
export async function rollCall(db: KioskDatabase, siteId: number): Promise<PersonVisit[]> {
  return (await rollCallView(db, siteId)).people;
}

/**
 * The people who may check out, start or end a break here (IN, ON_BREAK, as this kiosk shows them), by
 * name: what "Find your name" searches. Nobody else is listed, so the search never shows the name of a
 * visitor the site refused (STOP, also while that is only this kiosk's prediction), one waiting for
 * approval, one who left, or one whose check-in the server refused (the server has no visit to end).
 */
export async function peopleWhoMayLeave(db: KioskDatabase, siteId: number): Promise<PersonVisit[]> {
  return db.transaction('r', [db.people, db.outbox], async () => {
    const visits = await db.people
      .where('[siteId+status]')
      .anyOf([
        [siteId, 'IN'],
        [siteId, 'ON_BREAK'],
      ])
      .toArray();
    const refused = await db.outbox.where('state').equals('ATTENTION').toArray();
    const refusedCreates = new Set(refused.filter((action) => isCreate(action.kind)).map((action) => action.visitId));
    return visits.filter((visit) => visit.serverId !== undefined || !refusedCreates.has(visit.visitId)).sort(byName);
  });
}

/** People who may leave (see peopleWhoMayLeave) whose first name, last name or full name starts with what was typed (any case). */
export async function findPeople(db: KioskDatabase, siteId: number, typed: string): Promise<PersonVisit[]> {
  const query = typed.trim().toLocaleLowerCase();
  const everyone = await peopleWhoMayLeave(db, siteId);
  if (query === '') return everyone;
  return everyone.filter(({ person }) => {
    const first = person.firstName.toLocaleLowerCase();
    const last = person.lastName.toLocaleLowerCase();
    return first.startsWith(query) || last.startsWith(query) || `${first} ${last}`.startsWith(query);
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
