// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { attentionItems } from '../../kiosk/src/data/attention';
import { openKiosk } from '../../kiosk/src/kiosk';
import { testNetwork, testPlatform } from '../../kiosk/src/platform/testPlatform';
import {
  type KioskSite,
  buildKioskSite,
  drain,
  kioskServerForFile,
  serverPeople,
  serverVehicles,
  testRetryPolicy,
} from './harness';

// The stale clock correction: a kiosk learns that its clock is hours off, goes offline, and the device clock
// is set right (NTP comes back, someone sets it) while it is offline. The actions queued then must still
// reach the server at the times they happened, and none may wait for a person.

const HOURS = 3_600_000;
/** How close a recorded time must be to when the action really happened (the `Date` header has 1 s steps). */
const CLOSE_MS = 5_000;

const harness = kioskServerForFile();

/** A kiosk as the app opens it (clock correction on), on the real server, with a device clock `clockOffsetMs` off. */
function openClockKiosk(site: KioskSite, clockOffsetMs: number, mode: 'visitor' | 'gate' = 'visitor') {
  const network = testNetwork();
  const platform = testPlatform({ network, clockOffsetMs });
  const kiosk = openKiosk({
    platform,
    databaseName: `clock-${randomUUID()}`,
    databaseOptions: { indexedDB, IDBKeyRange },
    serverUrl: harness.server.baseUrl,
    token: site.kioskToken,
    siteId: site.siteId,
    mode,
    requestTimeoutMs: 10_000,
    correctClock: true,
    sync: { retryPolicy: testRetryPolicy(), concurrency: 4, pullIntervalMs: 60_000 },
  });
  return { kiosk, platform, network };
}

const ok = <T>(result: { ok: true; value: T } | { ok: false; message: string }): T => {
  if (!result.ok) throw new Error(result.message);
  return result.value;
};

const expectAbout = (recorded: string | null | undefined, happenedAt: number) =>
  expect(
    Math.abs(Date.parse(recorded ?? '') - happenedAt),
    `${recorded} vs ${new Date(happenedAt).toISOString()}`,
  ).toBeLessThan(CLOSE_MS);

/** Actions queued offline: a check-in with a break, and a check-in with its check-out, at real times. */
async function queueVisitors(kiosk: ReturnType<typeof openClockKiosk>['kiosk']) {
  const adaAt = Date.now();
  const ada = ok(await kiosk.checkIn({ person: { firstName: 'Ada', lastName: 'Lovelace' } }));
  const breakAt = Date.now();
  ok(await kiosk.startBreak(ada.visitId));
  const bobAt = Date.now();
  const bob = ok(await kiosk.checkIn({ person: { firstName: 'Bob', lastName: 'Builder' } }));
  const bobOutAt = Date.now();
  ok(await kiosk.checkOut(bob.visitId));
  return { adaAt, breakAt, bobAt, bobOutAt };
}

async function expectRecordedAsHappened(site: KioskSite, times: Awaited<ReturnType<typeof queueVisitors>>) {
  const people = await serverPeople(site);
  const ada = people.find((checkin) => checkin.person.firstName === 'Ada');
  const bob = people.find((checkin) => checkin.person.firstName === 'Bob');
  expect(people).toHaveLength(2);
  expect([ada?.status, bob?.status]).toEqual(['ON_BREAK', 'OUT']);
  expectAbout(ada?.entry.at, times.adaAt);
  expectAbout(ada?.breaks[0]?.startedAt, times.breakAt);
  expectAbout(bob?.entry.at, times.bobAt);
  expectAbout(bob?.exit?.at, times.bobOutAt);
}

describe('a device clock set right while the kiosk is offline', () => {
  it('was behind (set forward): the actions reach the server at the times they happened, none waits for a person', async () => {
    const site = await buildKioskSite(harness.server);
    const { kiosk, platform, network } = openClockKiosk(site, -3 * HOURS);
    kiosk.start();
    await kiosk.engine.syncNow(); // the server's answer: the device is 3 hours behind
    network.setOnline(false);
    platform.clock.shift(3 * HOURS); // NTP is back: the device clock is right, the kept correction is not
    const times = await queueVisitors(kiosk);

    network.setOnline(true);
    await drain(kiosk);

    expect(await attentionItems(kiosk.db)).toEqual([]);
    expect(await kiosk.db.outbox.count()).toBe(0);
    await expectRecordedAsHappened(site, times);
    // The next actions are stamped right straight away: the answers brought the correction back to nothing.
    const later = ok(await kiosk.checkIn({ person: { firstName: 'Cy', lastName: 'Later' } }));
    expectAbout(later.entryAt, Date.now());
    await kiosk.close();
  });

  it('was fast (set back): the actions reach the server at the times they happened, not hours early', async () => {
    const site = await buildKioskSite(harness.server);
    const { kiosk, platform, network } = openClockKiosk(site, 3 * HOURS);
    kiosk.start();
    await kiosk.engine.syncNow(); // the server's answer: the device is 3 hours fast
    network.setOnline(false);
    platform.clock.shift(-3 * HOURS);
    const times = await queueVisitors(kiosk);

    network.setOnline(true);
    await drain(kiosk);

    expect(await attentionItems(kiosk.db)).toEqual([]);
    await expectRecordedAsHappened(site, times);
    await kiosk.close();
  });

  it('at the gate: an entry and an exit queued after the clock was set forward reach the server at their times', async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const { kiosk, platform, network } = openClockKiosk(site, -5 * HOURS, 'gate');
    kiosk.start();
    await kiosk.engine.syncNow();
    network.setOnline(false);
    platform.clock.shift(5 * HOURS);
    const entryAt = Date.now();
    ok(await kiosk.vehicleEntry('CLK 1'));
    const exitAt = Date.now();
    ok(await kiosk.vehicleExit('CLK 1'));

    network.setOnline(true);
    await drain(kiosk);

    expect(await attentionItems(kiosk.db)).toEqual([]);
    const [visit, ...others] = await serverVehicles(site);
    expect(others).toEqual([]);
    expect(visit?.status).toBe('OUT');
    expectAbout(visit?.entry.at, entryAt);
    expectAbout(visit?.exit?.at, exitAt);
    await kiosk.close();
  });

  it("an action queued before the device's own time was kept cannot be restamped: it waits for a person, in plain words", async () => {
    const site = await buildKioskSite(harness.server);
    const { kiosk, platform, network } = openClockKiosk(site, -3 * HOURS);
    kiosk.start();
    await kiosk.engine.syncNow();
    network.setOnline(false);
    platform.clock.shift(3 * HOURS);
    ok(await kiosk.checkIn({ person: { firstName: 'Old', lastName: 'Row' } }));
    // As an older version of the kiosk queued it: no `deviceAt`.
    await kiosk.db.outbox.toCollection().modify((row) => void delete row.deviceAt);

    network.setOnline(true);
    await drain(kiosk);
    const [item, ...others] = await attentionItems(kiosk.db);
    expect(others).toEqual([]);
    expect(item?.action.lastError).toMatchObject({ status: 422, code: 'OCCURRED_AT_IN_FUTURE' });
    expect(item?.action.lastError?.message).toMatch(/^It was recorded about 3 hours ahead of the server's clock/);
    // Retry goes again (under a new key: the refusal was stored) and comes back: no loop, nothing on the server.
    expect(await kiosk.retry(item?.action.seq ?? -1)).toBe(true);
    await drain(kiosk);
    expect(await attentionItems(kiosk.db)).toHaveLength(1);
    expect(await serverPeople(site)).toEqual([]);
    await kiosk.close();
  });
});
