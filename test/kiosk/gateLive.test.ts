// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../shared/src/client/http';
import type { VehicleCheckin } from '../../shared/src/schemas/vehicles';
import type { Kiosk } from '../../kiosk/src/kiosk';
import { rereadVehicleVisit } from '../../kiosk/src/sync/vehicleReread';
import { type KioskSite, buildKioskSite, drain, kioskServerForFile, openTestKiosk, until } from './harness';

// Issue #38: the gate follows the event stream. It re-reads the one vehicle visit an event names, and what it
// reads never overwrites what the guard did and the kiosk has not synced yet: the outbox wins until synced.

const harness = kioskServerForFile();

/** Counts the kiosk's requests by method and path (without the query), under its test network. */
function countingFetch() {
  const seen: string[] = [];
  const fetch: FetchLike = (url, init) => {
    seen.push(`${init.method ?? 'GET'} ${new URL(url).pathname}`);
    return globalThis.fetch(url, init);
  };
  return { fetch, count: (request: string) => seen.filter((item) => item === request).length, seen };
}

const enterElsewhere = async (site: KioskSite, licensePlate: string): Promise<VehicleCheckin> => {
  const response = await site.api.post<VehicleCheckin>(`/v1/sites/${site.siteId}/checkins/vehicles`, {
    licensePlate,
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
};
const visitPath = (site: KioskSite, checkinId: number) => `/v1/sites/${site.siteId}/checkins/vehicles/${checkinId}`;
const heldStatus = async (kiosk: Kiosk, checkinId: number) =>
  (await kiosk.db.vehicles.where('serverId').equals(checkinId).first())?.status;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The stream open and the pulls it brings over (at start, and at the stream's reset, whenever that comes):
 * no request for a whole second with the engine idle. A fixed pause was not enough on a loaded machine.
 */
async function settled(kiosk: Kiosk, seen: string[]): Promise<void> {
  await until(async () => seen.some((request) => request.endsWith('/v1/events')));
  let before = -1;
  while (before !== seen.length) {
    before = seen.length;
    await kiosk.engine.idle();
    await sleep(1_000);
  }
}

describe('the gate follows the event stream', () => {
  it('a visit changed elsewhere is read, alone, at each change: no list is pulled', async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const counting = countingFetch();
    const { kiosk } = openTestKiosk(harness.server, site, { mode: 'gate', events: true, fetch: counting.fetch });
    kiosk.start();
    // Open, and its first pulls (at start and at the stream's reset) over.
    await settled(kiosk, counting.seen);
    const lists = counting.count(`GET /v1/sites/${site.siteId}/checkins/vehicles`);
    expect(lists).toBeGreaterThan(0);

    const visit = await enterElsewhere(site, 'EL 101');
    await until(async () => (await heldStatus(kiosk, visit.checkinId)) === 'PENDING', 10_000);
    expect((await site.api.post(`${visitPath(site, visit.checkinId)}/approve`, {})).status).toBe(200);
    await until(async () => (await heldStatus(kiosk, visit.checkinId)) === 'IN', 10_000);
    expect((await site.api.patch(visitPath(site, visit.checkinId), {})).status).toBe(200);
    await until(async () => (await heldStatus(kiosk, visit.checkinId)) === 'OUT', 10_000);

    expect(counting.count(`GET ${visitPath(site, visit.checkinId)}`)).toBe(3);
    expect(counting.count(`GET /v1/sites/${site.siteId}/checkins/vehicles`)).toBe(lists);
    await kiosk.close();
  });

  it("the gate's own Entry, Admit and Exit come back as events that cost no read", async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const counting = countingFetch();
    const { kiosk } = openTestKiosk(harness.server, site, { mode: 'gate', events: true, fetch: counting.fetch });
    kiosk.start();
    await settled(kiosk, counting.seen);
    const entered = await kiosk.vehicleEntry('OW 202');
    if (!entered.ok) throw new Error('entry refused');
    expect((await kiosk.vehicleAdmit(entered.value.visitId)).ok).toBe(true);
    await drain(kiosk);
    expect((await kiosk.vehicleExit('OW 202')).ok).toBe(true);
    await drain(kiosk);
    // Time for the three events to arrive and be found to be echoes.
    await sleep(1_500);
    expect(
      counting.seen.filter((request) => /\/checkins\/vehicles\/\d+$/.test(request) && request.startsWith('GET')),
    ).toEqual([]);
    await kiosk.close();
  });

  it('a vehicle registered elsewhere reaches the gate’s copy by the vehicles event', async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const { kiosk } = openTestKiosk(harness.server, site, { mode: 'gate', events: true });
    kiosk.start();
    await kiosk.engine.idle();
    const plate = `RG ${Math.floor(Math.random() * 9000) + 1000}`;
    expect((await site.api.post('/v1/profiles/vehicles', { licensePlate: plate })).status).toBe(201);
    await until(async () => (await kiosk.db.knownVehicles.count()) > 0, 10_000);
    expect((await kiosk.db.knownVehicles.toArray()).map((vehicle) => vehicle.licensePlate)).toContain(plate);
    await kiosk.close();
  });
});

describe('what a read brings never overwrites what the gate has not synced (the outbox wins)', () => {
  const reread = (kiosk: Kiosk, site: KioskSite, checkinId: number) =>
    rereadVehicleVisit({ db: kiosk.db, api: kiosk.api, siteId: site.siteId, now: () => Date.now() }, checkinId);

  it("a guard's Admit waiting to be sent keeps the visit IN while the server still says PENDING; synced, the server has it IN", async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    // The engine is not started: the Admit stays in the outbox until the test drains it.
    const { kiosk } = openTestKiosk(harness.server, site, { mode: 'gate' });
    const visit = await enterElsewhere(site, 'AD 303');
    expect(await reread(kiosk, site, visit.checkinId)).toBe('applied');
    const held = await kiosk.db.vehicles.where('serverId').equals(visit.checkinId).first();
    if (!held) throw new Error('not read');
    expect((await kiosk.vehicleAdmit(held.visitId)).ok).toBe(true);
    expect(await heldStatus(kiosk, visit.checkinId)).toBe('IN');

    // An event's read comes back PENDING (the Admit is not on the server yet): the visit stays IN.
    expect(await reread(kiosk, site, visit.checkinId)).toBe('owed');
    expect(await heldStatus(kiosk, visit.checkinId)).toBe('IN');

    kiosk.engine.start();
    await drain(kiosk);
    expect((await site.api.get<VehicleCheckin>(visitPath(site, visit.checkinId))).body.status).toBe('IN');
    expect(await reread(kiosk, site, visit.checkinId)).toBe('applied');
    expect(await heldStatus(kiosk, visit.checkinId)).toBe('IN');
    await kiosk.close();
  });

  it('an answer to a read asked before the Admit was synced does not bring PENDING back', async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const { kiosk } = openTestKiosk(harness.server, site, { mode: 'gate' });
    const visit = await enterElsewhere(site, 'SL 404');
    expect(await reread(kiosk, site, visit.checkinId)).toBe('applied');
    const held = await kiosk.db.vehicles.where('serverId').equals(visit.checkinId).first();
    if (!held) throw new Error('not read');

    // A slow read: the server answers PENDING, and the answer arrives only after the Admit was synced.
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let answered = false;
    const slowApi = {
      ...kiosk.api,
      getVehicle: async (siteId: number, checkinId: number) => {
        const answer = await kiosk.api.getVehicle(siteId, checkinId);
        answered = true;
        await released;
        return answer;
      },
    };
    const slowRead = rereadVehicleVisit(
      { db: kiosk.db, api: slowApi, siteId: site.siteId, now: () => Date.now() },
      visit.checkinId,
    );
    // The server has answered PENDING before the Admit (waited for: no fixed pause is sure to be enough).
    await until(async () => answered, 10_000);
    expect((await kiosk.vehicleAdmit(held.visitId)).ok).toBe(true);
    kiosk.engine.start();
    await drain(kiosk);
    expect(await heldStatus(kiosk, visit.checkinId)).toBe('IN');
    release();
    expect(await slowRead).toBe('older');
    expect(await heldStatus(kiosk, visit.checkinId)).toBe('IN');
    await kiosk.close();
  });
});
