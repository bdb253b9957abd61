// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { attentionItems } from '../../kiosk/src/data/attention';
import { vehiclesOnSite } from '../../kiosk/src/data/queries';
import { applySnapshot } from '../../kiosk/src/data/snapshot';
import type { VehicleVisit } from '../../kiosk/src/data/types';
import { vehicleExit } from '../../kiosk/src/data/vehicleCommands';
import { vehicleVisits } from '../../kiosk/src/data/visitKinds';
import { openKiosk } from '../../kiosk/src/kiosk';
import type { FetchLike } from '../../kiosk/src/platform/platform';
import { testNetwork, testPlatform } from '../../kiosk/src/platform/testPlatform';
import {
  type KioskSite,
  buildKioskSite,
  drain,
  kioskServerForFile,
  openTestKiosk,
  serverVehicles,
  testRetryPolicy,
} from './harness';

// Two gates of one site. A car came in through gate A (the server has its open visit); gate B is offline and
// has not pulled it, so when the car leaves through gate B the guard's Entry (a scanner's mistake) makes a
// local visit and the Exit is queued behind it. The server refuses that Entry as VEHICLE_ALREADY_ON_SITE,
// naming the visit from gate A: that visit is the one gate B's Exit is for.

const harness = kioskServerForFile();

const HOURS = 3_600_000;

function visitOf(result: { ok: true; value: VehicleVisit } | { ok: false; message: string }): VehicleVisit {
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

/** Gate A lets the (registered) car in, online: the server has its visit, IN, entered two hours ago. */
async function enteredAtGateA(site: KioskSite, plate: string) {
  expect((await site.api.post('/v1/profiles/vehicles', { licensePlate: plate })).status).toBe(201);
  const gateA = openTestKiosk(harness.server, site, { mode: 'gate', clockOffsetMs: -2 * HOURS });
  gateA.kiosk.start();
  const entered = visitOf(await gateA.kiosk.vehicleEntry(plate));
  await drain(gateA.kiosk);
  await gateA.kiosk.close();
  const [visit] = await serverVehicles(site);
  expect(visit).toMatchObject({ status: 'IN', entry: { at: entered.entryAt } });
  return visit!;
}

/**
 * Gate B, offline from the start (it never pulled the site), an hour behind. `rewrite` changes the server's
 * problem answers on their way (what a server that leaves `current` out, or names another visit, would send).
 */
function offlineGateB(
  site: KioskSite,
  rewrite?: (problem: Record<string, unknown>) => Record<string, unknown>,
  concurrency = 4,
) {
  const realFetch: FetchLike = async (url, init) => {
    const response = await fetch(url, init);
    if (!rewrite || response.status !== 409) return response;
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    const problem = rewrite((await response.json()) as Record<string, unknown>);
    return new Response(JSON.stringify(problem), { status: response.status, statusText: response.statusText, headers });
  };
  const network = testNetwork({ online: false, fetch: realFetch });
  const platform = testPlatform({ network, clockOffsetMs: -HOURS });
  const kiosk = openKiosk({
    platform,
    databaseName: `gate-b-${randomUUID()}`,
    databaseOptions: { indexedDB, IDBKeyRange },
    serverUrl: harness.server.baseUrl,
    token: site.kioskToken,
    siteId: site.siteId,
    mode: 'gate',
    requestTimeoutMs: 10_000,
    sync: { retryPolicy: testRetryPolicy(), concurrency, pullIntervalMs: 60_000 },
  });
  return { kiosk, platform, network };
}

/**
 * Gate A lets `plate` in; offline gate B records its own Entry of it (typed with a space for the dash: the
 * same plate), then the server's list of the site, as a pull writes it, reaches gate B before its queue
 * does: gate B holds the car twice (its Entry, and the visit from gate A, the twin).
 */
async function twinPulledBeforePush(site: KioskSite, plate: string) {
  const fromGateA = await enteredAtGateA(site, plate);
  // One visit at a time, oldest action first: the Entry reaches the server before anything done to the twin
  // (in parallel, the twin's Exit could close gate A's visit first, and the Entry would then be accepted).
  const gateB = offlineGateB(site, undefined, 1);
  const local = visitOf(await gateB.kiosk.vehicleEntry(plate.replace('-', ' ')));
  const now = gateB.platform.clock.now();
  await applySnapshot(gateB.kiosk.db, vehicleVisits, {
    siteId: site.siteId,
    items: await serverVehicles(site),
    startedAt: now,
    now,
  });
  return { ...gateB, fromGateA, local };
}

describe('a gate that recorded an Entry for a car another gate let in', () => {
  it("takes the refused Entry's visit to be the server's: the Exit closes the visit from gate A, nothing waits", async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const fromGateA = await enteredAtGateA(site, 'GA-100 B');
    const { kiosk, platform, network } = offlineGateB(site);
    kiosk.start();

    // The car leaves through gate B: the scanner records an Entry by mistake, then the guard presses Exit.
    const local = visitOf(await kiosk.vehicleEntry('ga 100 b'));
    platform.clock.shift(30 * 60_000);
    const left = visitOf(await kiosk.vehicleExit('GA100B'));
    expect(left).toMatchObject({ visitId: local.visitId, status: 'OUT' });
    expect((await kiosk.db.outbox.toArray()).map((action) => action.kind)).toEqual(['VEHICLE_ENTRY', 'VEHICLE_EXIT']);

    network.setOnline(true);
    await drain(kiosk);

    const onServer = await serverVehicles(site);
    expect(onServer).toHaveLength(1);
    expect(onServer[0]).toMatchObject({
      checkinId: fromGateA.checkinId,
      status: 'OUT',
      entry: { at: fromGateA.entry.at },
      exit: { at: left.exitAt },
    });
    expect(await kiosk.db.outbox.toArray()).toEqual([]);
    expect(await attentionItems(kiosk.db)).toEqual([]);
    // The guard's On site list no longer has the car.
    expect(await vehiclesOnSite(kiosk.db, site.siteId)).toEqual([]);
    await kiosk.close();
  });

  it('a visit that began after the refused Entry is another visit: the Entry and its Exit wait in Needs attention, it stays IN', async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const { kiosk, platform, network } = offlineGateB(site);
    kiosk.start();
    // Offline, gate B sees the car come and go (an hour ago, half an hour ago)...
    visitOf(await kiosk.vehicleEntry('GA 500 B'));
    platform.clock.shift(30 * 60_000);
    visitOf(await kiosk.vehicleExit('GA 500 B'));
    // ...and now it is back, let in by another gate: the server's open visit began after gate B's Entry.
    const back = await site.api.post<{ checkinId: number }>(`/v1/sites/${site.siteId}/checkins/vehicles`, {
      licensePlate: 'GA 500 B',
    });
    expect(back.status).toBe(201);

    network.setOnline(true);
    await drain(kiosk);

    const refused = await attentionItems(kiosk.db);
    expect(refused.map((item) => item.action.lastError?.code)).toEqual(['VEHICLE_ALREADY_ON_SITE']);
    expect((await kiosk.db.outbox.toArray()).map((action) => action.kind)).toEqual(['VEHICLE_ENTRY', 'VEHICLE_EXIT']);
    const onServer = await serverVehicles(site);
    expect(onServer).toHaveLength(1);
    expect(onServer[0]).toMatchObject({
      checkinId: back.body.checkinId,
      status: expect.stringMatching(/^(IN|PENDING)$/),
      exit: null,
    });
    await kiosk.close();
  });

  it("an Entry alone (pressed by mistake) leaves the gate showing the server's visit: IN since gate A let it in", async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const fromGateA = await enteredAtGateA(site, 'GA-200 B');
    const { kiosk, network } = offlineGateB(site);
    kiosk.start();
    const local = visitOf(await kiosk.vehicleEntry('GA 200 B'));
    expect(local).toMatchObject({ status: 'PENDING', confirmed: null });

    network.setOnline(true);
    await drain(kiosk);

    expect(await kiosk.db.outbox.toArray()).toEqual([]);
    expect(await attentionItems(kiosk.db)).toEqual([]);
    const onSite = await vehiclesOnSite(kiosk.db, site.siteId);
    expect(onSite.map((visit) => [visit.visitId, visit.serverId, visit.status, visit.entryAt])).toEqual([
      [local.visitId, fromGateA.checkinId, 'IN', fromGateA.entry.at],
    ]);
    expect((await serverVehicles(site)).map((visit) => [visit.checkinId, visit.status])).toEqual([
      [fromGateA.checkinId, 'IN'],
    ]);
    await kiosk.close();
  });

  it('a pull that brought the visit from gate A in before the push is folded in: the gate shows the car once', async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const { kiosk, network, fromGateA, local } = await twinPulledBeforePush(site, 'GA-400 B');
    // Until the push, gate B shows the car twice: its own Entry (PENDING) and the visit from gate A.
    expect((await vehiclesOnSite(kiosk.db, site.siteId)).map((visit) => visit.serverId ?? local.visitId)).toEqual([
      local.visitId,
      fromGateA.checkinId,
    ]);

    network.setOnline(true);
    kiosk.start();
    await drain(kiosk);

    expect(await kiosk.db.outbox.toArray()).toEqual([]);
    expect(await attentionItems(kiosk.db)).toEqual([]);
    const onSite = await vehiclesOnSite(kiosk.db, site.siteId);
    expect(onSite.map((visit) => [visit.visitId, visit.serverId, visit.status])).toEqual([
      [local.visitId, fromGateA.checkinId, 'IN'],
    ]);
    await kiosk.close();
  });

  it("a pulled twin that owes the server an action is not folded in: the Entry waits for a person, the twin's Exit goes", async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const { kiosk, platform, network, fromGateA, local } = await twinPulledBeforePush(site, 'GA-600 B');
    const twin = await kiosk.db.vehicles.where('serverId').equals(fromGateA.checkinId).first();
    if (!twin) throw new Error('the pull did not bring the visit from gate A');
    // The guard lets the car out through the visit the pull brought (which of the two he meant is unknown).
    platform.clock.shift(10 * 60_000);
    const ctx = { db: kiosk.db, now: () => platform.clock.now(), randomUUID: () => randomUUID() };
    visitOf(await vehicleExit(ctx, twin.visitId));

    network.setOnline(true);
    kiosk.start();
    await drain(kiosk);

    // The twin's Exit closed the server's visit; the refused Entry is a person's to settle, not adopted.
    expect((await serverVehicles(site)).map((visit) => [visit.checkinId, visit.status])).toEqual([
      [fromGateA.checkinId, 'OUT'],
    ]);
    expect(await attentionItems(kiosk.db)).toEqual([
      expect.objectContaining({
        description: 'Entry of GA 600 B',
        action: expect.objectContaining({ visitId: local.visitId }),
      }),
    ]);
    expect((await kiosk.db.vehicles.get(local.visitId))?.serverId).toBeUndefined();
    expect((await vehiclesOnSite(kiosk.db, site.siteId)).map((visit) => visit.visitId)).not.toContain(twin.visitId);
    await kiosk.close();
  });

  const notThatVisit: Array<[string, (problem: Record<string, unknown>) => Record<string, unknown>]> = [
    // A token that cannot view where the car is gets the refusal without the visit.
    ['without `current`', ({ current: _current, ...rest }) => rest],
    [
      'with `current` at another site',
      (problem) => ({ ...problem, current: { ...(problem.current as object), siteId: 999_999 } }),
    ],
    [
      'with `current` of another plate',
      (problem) => ({ ...problem, current: { ...(problem.current as object), licensePlate: 'OTHER 1' } }),
    ],
  ];

  it.each(notThatVisit)(
    'a refusal %s is for a person: the Entry waits in Needs attention with the Exit behind it',
    async (_name, rewrite) => {
      const site = await buildKioskSite(harness.server, 'gate');
      const fromGateA = await enteredAtGateA(site, 'GA-300 B');
      const { kiosk, platform, network } = offlineGateB(site, rewrite);
      kiosk.start();
      const local = visitOf(await kiosk.vehicleEntry('GA 300 B'));
      platform.clock.shift(30 * 60_000);
      visitOf(await kiosk.vehicleExit('GA 300 B'));

      network.setOnline(true);
      await drain(kiosk);

      const refused = await attentionItems(kiosk.db);
      expect(refused).toEqual([
        expect.objectContaining({
          description: 'Entry of GA 300 B',
          waiting: 1,
          action: expect.objectContaining({ lastError: expect.objectContaining({ code: 'VEHICLE_ALREADY_ON_SITE' }) }),
        }),
      ]);
      expect((await kiosk.db.outbox.toArray()).map((action) => [action.visitId, action.kind])).toEqual([
        [local.visitId, 'VEHICLE_ENTRY'],
        [local.visitId, 'VEHICLE_EXIT'],
      ]);
      expect((await kiosk.db.vehicles.get(local.visitId))?.serverId).toBeUndefined();
      expect((await serverVehicles(site)).map((visit) => [visit.checkinId, visit.status])).toEqual([
        [fromGateA.checkinId, 'IN'],
      ]);
      await kiosk.close();
    },
  );
});
