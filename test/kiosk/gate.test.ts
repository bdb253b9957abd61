// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { VehicleCheckin } from '../../shared/src/schemas/vehicles';
import { attentionItems } from '../../kiosk/src/data/attention';
import type { VehicleVisit } from '../../kiosk/src/data/types';
import { buildKioskSite, drain, kioskServerForFile, openTestKiosk, serverVehicles } from './harness';

const harness = kioskServerForFile();

const HOURS = 3_600_000;
const DAYS = 24 * HOURS;

function visitOf(result: { ok: true; value: VehicleVisit } | { ok: false; message: string }): VehicleVisit {
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

describe('the gate: entry and exit by plate', () => {
  it('a registered plate enters (server says IN), a second entry is refused at once, Exit by plate checks it out', async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const registered = await site.api.post('/v1/profiles/vehicles', { licensePlate: 'GH-101 AB' });
    expect(registered.status).toBe(201);
    const { kiosk } = openTestKiosk(harness.server, site, { mode: 'gate' });
    kiosk.start();

    const entered = visitOf(await kiosk.vehicleEntry('gh 101 ab'));
    expect(entered).toMatchObject({ licensePlate: 'gh 101 ab', plateKey: 'GH101AB', confirmed: null });
    await drain(kiosk);
    expect((await kiosk.db.vehicles.get(entered.visitId))?.status).toBe('IN');
    const again = await kiosk.vehicleEntry('GH101AB');
    expect(again).toMatchObject({ ok: false, code: 'VEHICLE_ALREADY_ON_SITE' });

    const left = visitOf(await kiosk.vehicleExit('GH.101.AB'));
    expect(left.status).toBe('OUT');
    await drain(kiosk);
    const [visit] = await serverVehicles(site);
    expect(visit).toMatchObject({
      status: 'OUT',
      licensePlate: 'gh 101 ab',
      entry: { at: entered.entryAt, source: 'KIOSK' },
      exit: { at: left.exitAt },
    });
    await kiosk.close();
  });

  it('offline, an unknown plate enters and leaves; online, the server gets one visit with both times', async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const { kiosk, platform, network } = openTestKiosk(harness.server, site, {
      mode: 'gate',
      online: false,
      clockOffsetMs: -3 * HOURS,
    });
    kiosk.start();
    const entered = visitOf(await kiosk.vehicleEntry('XY 999'));
    platform.clock.shift(HOURS);
    const left = visitOf(await kiosk.vehicleExit('xy999'));
    expect(await kiosk.db.outbox.count()).toBe(2);
    network.setOnline(true);
    await drain(kiosk);
    const visits = await serverVehicles(site);
    expect(visits).toHaveLength(1);
    expect(visits[0]).toMatchObject({
      status: 'OUT',
      vehicleId: null,
      entry: { at: entered.entryAt },
      exit: { at: left.exitAt },
    });
    await kiosk.close();
  });

  it('Exit of a plate this kiosk never saw asks the server by plate, then checks the visit out through the outbox', async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const created = await site.api.post<VehicleCheckin>(`/v1/sites/${site.siteId}/checkins/vehicles`, {
      licensePlate: 'QR 77',
    });
    expect(created.status).toBe(201);
    const { kiosk, network } = openTestKiosk(harness.server, site, { mode: 'gate' });

    network.setOnline(false);
    expect(await kiosk.vehicleExit('QR77')).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    network.setOnline(true);
    // A plate no vehicle can have is refused by the plate's rule, online as offline, without asking the server.
    for (const online of [true, false]) {
      network.setOnline(online);
      const sent = network.stats.sent;
      expect(await kiosk.vehicleExit('QR 77$'), `online: ${online}`).toMatchObject({
        ok: false,
        code: 'VALIDATION_FAILED',
        errors: [{ path: 'licensePlate' }],
      });
      expect(network.stats.sent).toBe(sent);
    }
    network.setOnline(true);
    const left = visitOf(await kiosk.vehicleExit('QR77'));
    expect(left).toMatchObject({ serverId: created.body.checkinId, status: 'OUT' });
    kiosk.start();
    await drain(kiosk);
    const [visit] = await serverVehicles(site);
    expect(visit).toMatchObject({ checkinId: created.body.checkinId, status: 'OUT', exit: { at: left.exitAt } });
    expect(await kiosk.vehicleExit('QR77')).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    await kiosk.close();
  });

  it('a gate kiosk pulls the vehicles on site, so Exit works offline for a visit another gate let in', async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const created = await site.api.post<VehicleCheckin>(`/v1/sites/${site.siteId}/checkins/vehicles`, {
      licensePlate: 'LM-5',
    });
    const { kiosk, network } = openTestKiosk(harness.server, site, { mode: 'gate' });
    kiosk.start();
    await kiosk.engine.syncNow();
    const seen = await new Promise<VehicleVisit[]>((resolve) => {
      const stop = kiosk.vehiclesOnSite.subscribe((visits) => {
        queueMicrotask(() => stop());
        resolve(visits);
      });
    });
    expect(seen.map((visit) => [visit.serverId, visit.status])).toEqual([[created.body.checkinId, 'PENDING']]);
    network.setOnline(false);
    const left = visitOf(await kiosk.vehicleExit('LM5'));
    network.setOnline(true);
    await drain(kiosk);
    const [visit] = await serverVehicles(site);
    expect(visit).toMatchObject({ status: 'OUT', exit: { at: left.exitAt } });
    await kiosk.close();
  });

  it("a vehicle that left and came back while offline syncs in order: the old visit's exit reaches the server before the new entry", async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const { kiosk, platform, network } = openTestKiosk(harness.server, site, {
      mode: 'gate',
      online: false,
      clockOffsetMs: -3 * HOURS,
    });
    kiosk.start();
    const first = visitOf(await kiosk.vehicleEntry('RE 1'));
    platform.clock.shift(HOURS);
    visitOf(await kiosk.vehicleExit('RE 1'));
    platform.clock.shift(HOURS);
    const second = visitOf(await kiosk.vehicleEntry('RE 1'));
    // Visits sync side by side (six at a time): without the ordering the second entry would race the exit.
    network.setOnline(true);
    await drain(kiosk);
    expect(await kiosk.db.outbox.toArray()).toEqual([]);
    const onServer = await serverVehicles(site);
    expect(onServer.map((checkin) => checkin.status).sort()).toEqual(['OUT', 'PENDING']);
    // The visit that ended has left the local view; the new one is confirmed by the server.
    expect(await kiosk.db.vehicles.get(first.visitId)).toBeUndefined();
    expect((await kiosk.db.vehicles.get(second.visitId))?.confirmed).toMatchObject({ status: 'PENDING' });
    await kiosk.close();
  });

  it('a new entry behind a refused entry and its exit is not stuck unseen: it reaches the server, the refused one waits in Needs attention', async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    // The first entry is more than 7 days old when it arrives: the server refuses it (OCCURRED_AT_OUT_OF_RANGE).
    const { kiosk, platform, network } = openTestKiosk(harness.server, site, {
      mode: 'gate',
      online: false,
      clockOffsetMs: -8 * DAYS,
    });
    kiosk.start();
    const first = visitOf(await kiosk.vehicleEntry('RF 1'));
    platform.clock.shift(8 * DAYS - 2 * HOURS);
    visitOf(await kiosk.vehicleExit('RF 1'));
    platform.clock.shift(HOURS);
    const second = visitOf(await kiosk.vehicleEntry('RF 1'));
    network.setOnline(true);
    await drain(kiosk, 10_000);

    const onServer = await serverVehicles(site);
    expect(onServer.map((checkin) => [checkin.status, checkin.entry.at])).toEqual([['PENDING', second.entryAt]]);
    expect((await kiosk.db.vehicles.get(second.visitId))?.serverId).toBe(onServer[0]?.checkinId);
    // Only the first visit is left, in Needs attention with its exit behind it: nothing waits unseen.
    const refused = await attentionItems(kiosk.db);
    expect(refused).toEqual([
      expect.objectContaining({
        description: 'Entry of RF 1',
        waiting: 1,
        action: expect.objectContaining({ lastError: expect.objectContaining({ code: 'OCCURRED_AT_OUT_OF_RANGE' }) }),
      }),
    ]);
    expect((await kiosk.db.outbox.toArray()).map((action) => [action.visitId, action.kind])).toEqual([
      [first.visitId, 'VEHICLE_ENTRY'],
      [first.visitId, 'VEHICLE_EXIT'],
    ]);
    const report = await kiosk.discard(refused[0]?.action.seq ?? -1);
    expect(report?.message).toBe('Discarded Entry of RF 1 and 1 later action that depended on it.');
    expect(await kiosk.db.outbox.count()).toBe(0);
    await kiosk.close();
  });
});
