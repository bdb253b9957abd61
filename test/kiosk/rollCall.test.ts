// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { KioskDatabase } from '../../kiosk/src/data/database';
import { findPeople, rollCall } from '../../kiosk/src/data/queries';
import type { KeptPersonStatus, PersonVisit } from '../../kiosk/src/data/types';

// The Roll call is the evacuation list: everyone on site, whatever their status, read from this device's
// own data. "On site" means every status but OUT, including statuses a newer server added.

const databases: KioskDatabase[] = [];
afterEach(() => {
  for (const db of databases.splice(0)) db.close();
});

function visit(firstName: string, status: KeptPersonStatus, siteId = 1): PersonVisit {
  const at = '2026-11-22T08:00:00.000Z';
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

async function siteWith(visits: PersonVisit[]): Promise<KioskDatabase> {
  const db = new KioskDatabase(`roll-call-${randomUUID()}`, { indexedDB, IDBKeyRange });
  databases.push(db);
  await db.people.bulkAdd(visits);
  return db;
}

describe('roll call', () => {
  it('lists everyone at the site but those who left, in statuses this kiosk knows or not (sorting before or after OUT)', async () => {
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
    ]);
    expect((await rollCall(db, 1)).map((person) => `${person.person.firstName}:${person.status}`)).toEqual([
      'Away:AWAY',
      'Break:ON_BREAK',
      'In:IN',
      'Outside:OUTSIDE',
      'Pending:PENDING',
      'Stop:STOP',
      'Zoned:ZONED',
    ]);
    expect((await findPeople(db, 1, 'ou')).map((person) => person.status)).toEqual(['OUTSIDE']);
    expect((await rollCall(db, 2)).map((person) => person.status).sort()).toEqual(['ESCORTED', 'IN']);
  });
});
