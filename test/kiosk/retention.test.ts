// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { KioskDatabase } from '../../kiosk/src/data/database';
import { checkIn, checkOut } from '../../kiosk/src/data/personCommands';
import { KEEP_LEFT_VISITS_MS, pruneLeftVisits, schedulePruning } from '../../kiosk/src/data/retention';
import type { PersonVisit, VehicleVisit } from '../../kiosk/src/data/types';
import { openKiosk } from '../../kiosk/src/kiosk';
import { testNetwork, testPlatform } from '../../kiosk/src/platform/testPlatform';

// Kiosks drop synced visits that left more than 24 h ago (docs/kiosk-sync.md, What the kiosk keeps): a
// lobby tablet must not hold yesterday's visitors' names, however long it stays offline or unsynced.

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-26T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

const databases: KioskDatabase[] = [];
afterEach(() => {
  for (const db of databases.splice(0)) db.close();
});

function openDb(): KioskDatabase {
  const db = new KioskDatabase(`retention-${randomUUID()}`, { indexedDB, IDBKeyRange });
  databases.push(db);
  return db;
}

/** A person visit as the server confirmed it (synced): on site, or left at `leftAt`. */
function person(firstName: string, leftAt: number | null): PersonVisit {
  const entryAt = iso((leftAt ?? NOW) - 2 * HOUR);
  const exitAt = leftAt === null ? null : iso(leftAt);
  const status = leftAt === null ? 'IN' : 'OUT';
  return {
    visitId: randomUUID(),
    siteId: 1,
    serverId: Math.floor(Math.random() * 1e9),
    person: { firstName, lastName: 'Visitor', email: `${firstName}@example.com`, phone: null, company: null },
    hostName: null,
    purpose: null,
    status,
    entryAt,
    exitAt,
    breaks: [],
    lastEventAt: exitAt ?? entryAt,
    predicted: 'IN',
    confirmed: { status, entryAt, exitAt, breaks: [], updatedAt: exitAt ?? entryAt },
    syncedAt: 1,
  };
}

function vehicle(plate: string, leftAt: number): VehicleVisit {
  const entryAt = iso(leftAt - HOUR);
  return {
    visitId: randomUUID(),
    siteId: 1,
    serverId: Math.floor(Math.random() * 1e9),
    licensePlate: plate,
    plateKey: plate.replace(/\s/g, ''),
    status: 'OUT',
    entryAt,
    exitAt: iso(leftAt),
    lastEventAt: iso(leftAt),
    predicted: 'IN',
    confirmed: { status: 'OUT', entryAt, exitAt: iso(leftAt), updatedAt: iso(leftAt) },
    syncedAt: 1,
  };
}

const names = async (db: KioskDatabase) => (await db.people.toArray()).map((visit) => visit.person.firstName).sort();

describe('dropping visits that left more than 24 h ago', () => {
  it('drops synced people and vehicles that left over a day ago; keeps who is on site and who left within the day', async () => {
    const db = openDb();
    await db.people.bulkAdd([
      person('Yesterday', NOW - 25 * HOUR),
      person('LastWeek', NOW - 6 * 24 * HOUR),
      person('Recent', NOW - 23 * HOUR),
      person('OnSiteForDays', null),
    ]);
    await db.vehicles.bulkAdd([vehicle('OLD 1', NOW - 30 * HOUR), vehicle('NEW 2', NOW - HOUR)]);

    expect(await pruneLeftVisits(db, NOW)).toBe(3);
    expect(await names(db)).toEqual(['OnSiteForDays', 'Recent']);
    expect((await db.vehicles.toArray()).map((visit) => visit.licensePlate)).toEqual(['NEW 2']);
    // The boundary: Recent left exactly 24 h before NOW + 1 h and is kept then; a millisecond later it goes.
    expect(NOW - 23 * HOUR + KEEP_LEFT_VISITS_MS).toBe(NOW + HOUR);
    expect(await pruneLeftVisits(db, NOW + HOUR)).toBe(0);
    expect(await pruneLeftVisits(db, NOW + HOUR + 1)).toBe(1);
    expect(await names(db)).toEqual(['OnSiteForDays']);
  });

  it('never drops a visit that still owes the server an action, queued or refused, however old', async () => {
    const db = openDb();
    const at = { value: NOW - 3 * 24 * HOUR };
    const ctx = { db, now: () => at.value, randomUUID };
    // Checked in and out on this kiosk three days ago, offline since: both actions are still queued.
    const queued = await checkIn(ctx, 1, { person: { firstName: 'Queued', lastName: 'Offline' } });
    if (!queued.ok) throw new Error(queued.message);
    at.value += HOUR;
    expect((await checkOut(ctx, queued.value.visitId)).ok).toBe(true);
    // Another whose checkout the server refused: it waits in Needs attention, and the visit with it.
    const refused = await checkIn(ctx, 1, { person: { firstName: 'Refused', lastName: 'Checkout' } });
    if (!refused.ok) throw new Error(refused.message);
    expect((await checkOut(ctx, refused.value.visitId)).ok).toBe(true);
    const [create] = await db.outbox.where('visitId').equals(refused.value.visitId).sortBy('seq');
    await db.outbox.delete(create!.seq); // the create was acknowledged…
    await db.outbox.where('visitId').equals(refused.value.visitId).modify({ state: 'ATTENTION' }); // …the checkout refused

    expect((await db.people.get(queued.value.visitId))?.exitAt).not.toBeNull();
    expect(await pruneLeftVisits(db, NOW)).toBe(0);
    expect(await names(db)).toEqual(['Queued', 'Refused']);
    expect(await db.outbox.count()).toBe(3);

    // Once the server has acknowledged everything, they go.
    await db.outbox.clear();
    expect(await pruneLeftVisits(db, NOW)).toBe(2);
    expect(await names(db)).toEqual([]);
  });

  it('prunes at once and then at every interval, until stopped', async () => {
    const db = openDb();
    const timers: Array<{ ms: number; run: () => void }> = [];
    const clock = { setTimer: (ms: number, run: () => void) => (timers.push({ ms, run }), () => {}) };
    let now = NOW;
    await db.people.add(person('Old', NOW - 25 * HOUR));
    const stop = schedulePruning(db, clock, () => now, { intervalMs: 1_000 });
    await expect.poll(() => db.people.count()).toBe(0);
    await expect.poll(() => timers.length).toBe(1);
    expect(timers[0]?.ms).toBe(1_000);

    await db.people.add(person('Later', NOW - 23 * HOUR));
    now += 2 * HOUR; // A day and an hour since Later left.
    timers[0]?.run();
    await expect.poll(() => db.people.count()).toBe(0);
    await expect.poll(() => timers.length).toBe(2);
    stop();
  });

  it('a kiosk prunes when it starts, offline too', async () => {
    const databaseName = `retention-start-${randomUUID()}`;
    const db = new KioskDatabase(databaseName, { indexedDB, IDBKeyRange });
    await db.people.bulkAdd([person('Gone', Date.now() - 25 * HOUR), person('Here', null)]);
    db.close();
    const platform = testPlatform({ network: testNetwork({ online: false }) });
    const kiosk = openKiosk({
      platform,
      databaseName,
      databaseOptions: { indexedDB, IDBKeyRange },
      serverUrl: 'http://kiosk.invalid',
      token: 't',
      siteId: 1,
      mode: 'visitor',
    });
    kiosk.start();
    await expect
      .poll(async () => (await kiosk.db.people.toArray()).map((visit) => visit.person.firstName))
      .toEqual(['Here']);
    await kiosk.close();
  });
});
