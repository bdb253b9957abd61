// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { KioskDatabase } from '../../kiosk/src/data/database';
import { earlierVisit } from '../../kiosk/src/data/earlierVisit';
import { findPeople, rollCall, rollCallView } from '../../kiosk/src/data/queries';
import type { KeptPersonStatus, OutboxAction, PersonVisit } from '../../kiosk/src/data/types';

// The Roll call is the evacuation list, read from this device's own data. It counts what the console counts
// once synced: IN, ON_BREAK and PENDING (and a status a newer server added: such a person may be on site),
// never STOP, OUT, or what an action the server refused would have changed. Find your name lists only
// those who may leave (IN, ON_BREAK).

const databases: KioskDatabase[] = [];
afterEach(() => {
  for (const db of databases.splice(0)) db.close();
});

const at = '2026-11-22T08:00:00.000Z';

function visit(firstName: string, status: KeptPersonStatus, siteId = 1): PersonVisit {
  return {
    visitId: randomUUID(),
    siteId,
    serverId: Math.floor(Math.random() * 1e9),
    person: { firstName, lastName: 'Site', email: null, phone: null, company: null },
    hostName: null,
    purpose: null,
    status,
    entryAt: at,
    exitAt: status === 'OUT' ? at : null,
    breaks: [],
    lastEventAt: at,
    predicted: status,
    confirmed: { status, entryAt: at, exitAt: null, breaks: [], updatedAt: at },
    syncedAt: 1,
  };
}

/** A visit made on this kiosk whose create the server has not accepted (no server id, nothing confirmed). */
function madeHere(firstName: string, predicted: KeptPersonStatus): PersonVisit {
  const { serverId: _none, ...rest } = visit(firstName, predicted);
  return { ...rest, confirmed: null };
}

function action(
  of: PersonVisit,
  kind: 'PERSON_CHECKIN' | 'PERSON_CHECKOUT',
  state: 'QUEUED' | 'ATTENTION',
): Omit<OutboxAction, 'seq'> {
  const occurredAt = '2026-11-22T09:00:00.000Z';
  const base = {
    key: randomUUID(),
    visitId: of.visitId,
    siteId: of.siteId,
    occurredAt,
    state,
    attempts: 1,
    nextAttemptAt: 0,
    lastError: state === 'ATTENTION' ? { status: 409, code: 'SITE_ARCHIVED', message: 'Archived' } : null,
  };
  return kind === 'PERSON_CHECKIN'
    ? { ...base, kind, body: { person: { firstName: of.person.firstName, lastName: 'Site' }, occurredAt } }
    : { ...base, kind, body: { occurredAt } };
}

async function siteWith(visits: PersonVisit[], actions: Array<Omit<OutboxAction, 'seq'>> = []): Promise<KioskDatabase> {
  const db = new KioskDatabase(`roll-call-${randomUUID()}`, { indexedDB, IDBKeyRange });
  databases.push(db);
  await db.people.bulkAdd(visits);
  // The outbox's key is its auto-increment `seq`: added without one, in order.
  for (const row of actions) await db.outbox.add(row);
  return db;
}

const names = (visits: PersonVisit[]) => visits.map((person) => `${person.person.firstName}:${person.status}`);

describe('roll call', () => {
  it('counts IN, ON_BREAK, PENDING and statuses this kiosk does not know (before or after OUT), never STOP or OUT', async () => {
    const db = await siteWith([
      visit('In', 'IN'),
      visit('Break', 'ON_BREAK'),
      visit('Pending', 'PENDING'),
      visit('Stop', 'STOP'),
      visit('Left', 'OUT'),
      // Statuses a newer server added: below OUT, above it, and one that only starts like it.
      visit('Away', 'AWAY'),
      visit('Zoned', 'ZONED'),
      visit('Outside', 'OUTSIDE'),
      // Another site's people are not this site's roll call.
      visit('Elsewhere', 'IN', 2),
      visit('Escorted', 'ESCORTED', 2),
      visit('Stopped', 'STOP', 2),
    ]);
    expect(names(await rollCall(db, 1))).toEqual([
      'Away:AWAY',
      'Break:ON_BREAK',
      'In:IN',
      'Outside:OUTSIDE',
      'Pending:PENDING',
      'Zoned:ZONED',
    ]);
    expect((await rollCall(db, 2)).map((person) => person.status).sort()).toEqual(['ESCORTED', 'IN']);
    // Find your name: those who may leave, nobody else, whatever is typed.
    expect(names(await findPeople(db, 1, ''))).toEqual(['Break:ON_BREAK', 'In:IN']);
    expect(await findPeople(db, 1, 'ou')).toEqual([]);
    expect(await findPeople(db, 1, 'st')).toEqual([]);
    expect(await findPeople(db, 1, 'pe')).toEqual([]);
  });

  it('a STOP predicted by this kiosk, not yet answered, is neither counted nor found', async () => {
    const mallory = madeHere('Mallory', 'STOP');
    const db = await siteWith([mallory], [action(mallory, 'PERSON_CHECKIN', 'QUEUED')]);
    expect(await rollCallView(db, 1)).toEqual({ people: [], refused: [] });
    expect(await findPeople(db, 1, 'mal')).toEqual([]);
    expect(await earlierVisit(db, 1, { firstName: 'MALLORY', lastName: ' site' })).toEqual({ kind: 'refused' });
  });

  it('a visitor the site refused is known again by name, email or phone; someone else is not', async () => {
    const stopped = visit('Eve', 'STOP');
    const eve = { ...stopped, person: { ...stopped.person, email: 'Eve@Example.com', phone: '+44 20 7946 0000' } };
    const db = await siteWith([eve, visit('Ada', 'IN')]);
    expect(await earlierVisit(db, 1, { firstName: 'E.', lastName: 'Other', email: ' eve@example.com' })).toEqual({
      kind: 'refused',
    });
    expect(await earlierVisit(db, 1, { firstName: 'E.', lastName: 'Other', phone: '+44 (20) 7946-0000' })).toEqual({
      kind: 'refused',
    });
    expect(await earlierVisit(db, 1, { firstName: 'Eve', lastName: 'Other' })).toBeUndefined();
    expect(await earlierVisit(db, 1, { firstName: 'ada', lastName: 'SITE' })).toMatchObject({ kind: 'onSite' });
    // Another site's refusal is that site's.
    expect(await earlierVisit(db, 2, { firstName: 'Eve', lastName: 'Site' })).toBeUndefined();
  });

  it('a check-in the server refused is listed apart and not counted; one merely queued is counted', async () => {
    const rosa = madeHere('Rosa', 'IN');
    const grace = madeHere('Grace', 'IN');
    const db = await siteWith(
      [rosa, grace, visit('Ada', 'IN')],
      [action(rosa, 'PERSON_CHECKIN', 'ATTENTION'), action(grace, 'PERSON_CHECKIN', 'QUEUED')],
    );
    const view = await rollCallView(db, 1);
    expect(names(view.people)).toEqual(['Ada:IN', 'Grace:IN']);
    expect(names(view.refused)).toEqual(['Rosa:IN']);
    expect(names(await findPeople(db, 1, ''))).toEqual(['Ada:IN', 'Grace:IN']);
    // Discarded: gone from the outbox and the view alike.
    await db.outbox.where('visitId').equals(rosa.visitId).delete();
    await db.people.delete(rosa.visitId);
    const after = await rollCallView(db, 1);
    expect(names(after.people)).toEqual(['Ada:IN', 'Grace:IN']);
    expect(after.refused).toEqual([]);
  });

  it('a checkout the server refused takes nobody off: the person is counted as the server has them', async () => {
    const ada = { ...visit('Ada', 'IN'), status: 'OUT' as const, exitAt: '2026-11-22T09:00:00.000Z' };
    const bob = { ...visit('Bob', 'IN'), status: 'OUT' as const, exitAt: '2026-11-22T09:00:00.000Z' };
    const db = await siteWith(
      [ada, bob],
      [action(ada, 'PERSON_CHECKOUT', 'ATTENTION'), action(bob, 'PERSON_CHECKOUT', 'QUEUED')],
    );
    // Bob's checkout is on its way: he has left. Ada's was refused: the server still has her IN.
    expect(names(await rollCall(db, 1))).toEqual(['Ada:IN']);
  });
});
