// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import type { VehicleCheckin } from '../../shared/src/schemas/vehicles';
import { attentionItems } from '../../kiosk/src/data/attention';
import type { CommandResult } from '../../kiosk/src/data/command';
import type { VehicleVisit } from '../../kiosk/src/data/types';
import { buildKioskSite, drain, openTestKiosk, serverVehicles, kioskServerForFile } from './harness';

const harness = kioskServerForFile();

const HOURS = 3_600_000;

function visitOf(result: CommandResult<VehicleVisit>): VehicleVisit {
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

/** The webhook events the server queued for one check-in, oldest first: one per change it made. */
const eventsOf = async (checkinId: number) =>
  (
    await queryRows<{ type: string }>(
      harness.server.database,
      sql`SELECT type FROM outbox_events WHERE payload->'data'->'checkin'->>'checkinId' = ${String(checkinId)} ORDER BY id`,
    )
  ).map((row) => row.type);

describe('the gate decides: Admit and Refuse through the outbox', () => {
  it('offline, an Entry and its Admit wait; online, the Entry goes first and the Admit goes to the id its answer brought, once', async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const { kiosk, platform, network } = openTestKiosk(harness.server, site, {
      mode: 'gate',
      online: false,
      clockOffsetMs: -2 * HOURS,
    });
    kiosk.start();
    const entered = visitOf(await kiosk.vehicleEntry('AD 1', { driverName: '  Kim  ' }));
    expect(entered).toMatchObject({ status: 'PENDING', predicted: 'PENDING', driverName: 'Kim', confirmed: null });
    platform.clock.shift(HOURS);
    const admitted = visitOf(await kiosk.vehicleAdmit(entered.visitId));
    expect(admitted.status).toBe('IN');
    // Saved before the screen confirms: both actions are in the outbox, in order, with keys and times.
    const queued = await kiosk.db.outbox.toArray();
    expect(queued.map((action) => [action.kind, action.visitId])).toEqual([
      ['VEHICLE_ENTRY', entered.visitId],
      ['VEHICLE_APPROVE', entered.visitId],
    ]);
    expect(queued[0]?.body).toEqual({ licensePlate: 'AD 1', driverName: 'Kim', occurredAt: entered.entryAt });
    expect(queued[1]?.body).toEqual({ occurredAt: admitted.lastEventAt });
    expect(new Set(queued.map((action) => action.key)).size).toBe(2);
    // Admitted once is enough: a second Admit is refused at once, as the server would.
    expect(await kiosk.vehicleAdmit(entered.visitId)).toMatchObject({ ok: false, code: 'NOT_PENDING' });

    // Half the answers lost on the way back: the server still acts once per action (same keys).
    network.setFaults({ failRequests: 0, dropResponses: 0.5 });
    network.setOnline(true);
    await drain(kiosk);
    network.setFaults({ failRequests: 0, dropResponses: 0 });
    await drain(kiosk);

    const visits = await serverVehicles(site);
    expect(visits).toHaveLength(1);
    const [visit] = visits;
    expect(visit).toMatchObject({ status: 'IN', driverName: 'Kim', entry: { at: entered.entryAt } });
    expect(await eventsOf(visit?.checkinId ?? 0)).toEqual(['VEHICLE_CHECKIN_PENDING', 'VEHICLE_CHECKIN_ENTERED']);
    expect(await kiosk.db.outbox.count()).toBe(0);
    expect(await kiosk.db.vehicles.get(entered.visitId)).toMatchObject({
      serverId: visit?.checkinId,
      status: 'IN',
      entryDecision: { status: 'PENDING' },
    });
    await kiosk.close();
  });

  it('Refuse with a reason, made before the Entry is synced: the server has STOP with that reason, and so does the gate', async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const { kiosk, network } = openTestKiosk(harness.server, site, { mode: 'gate', online: false });
    kiosk.start();
    const entered = visitOf(await kiosk.vehicleEntry('RF 2'));
    const refused = visitOf(await kiosk.vehicleRefuse(entered.visitId, '  No delivery booked  '));
    expect(refused).toMatchObject({ status: 'STOP', stopReason: 'No delivery booked' });
    expect(await kiosk.vehicleAdmit(entered.visitId)).toMatchObject({ ok: false, code: 'NOT_PENDING' });
    network.setOnline(true);
    await drain(kiosk);
    const [visit] = await serverVehicles(site);
    expect(visit).toMatchObject({ status: 'STOP', denyReason: 'No delivery booked', stopReason: 'No delivery booked' });
    expect(await kiosk.db.vehicles.get(entered.visitId)).toMatchObject({
      status: 'STOP',
      stopReason: 'No delivery booked',
    });
    expect(await eventsOf(visit?.checkinId ?? 0)).toEqual(['VEHICLE_CHECKIN_PENDING', 'VEHICLE_CHECKIN_STOPPED']);
    await kiosk.close();
  });

  it('Refuse without a reason reads "Refused" on the gate and on the server', async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const { kiosk } = openTestKiosk(harness.server, site, { mode: 'gate' });
    kiosk.start();
    const entered = visitOf(await kiosk.vehicleEntry('RF 3'));
    expect(visitOf(await kiosk.vehicleRefuse(entered.visitId, '   '))).toMatchObject({
      status: 'STOP',
      stopReason: 'Refused',
    });
    expect((await kiosk.db.outbox.toArray()).at(-1)?.body).not.toHaveProperty('reason');
    await drain(kiosk);
    const [visit] = await serverVehicles(site);
    expect(visit).toMatchObject({ status: 'STOP', stopReason: 'Refused' });
    expect(await kiosk.db.vehicles.get(entered.visitId)).toMatchObject({ status: 'STOP', stopReason: 'Refused' });
    await kiosk.close();
  });

  it('an Admit the server refuses (the plate was registered meanwhile: it decided IN) goes to Needs attention, and the gate keeps what the server decided', async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const { kiosk, network } = openTestKiosk(harness.server, site, { mode: 'gate', online: false });
    kiosk.start();
    const entered = visitOf(await kiosk.vehicleEntry('NA 4'));
    visitOf(await kiosk.vehicleAdmit(entered.visitId));
    expect((await site.api.post('/v1/profiles/vehicles', { licensePlate: 'NA-4' })).status).toBe(201);
    network.setOnline(true);
    await drain(kiosk);

    const [visit] = await serverVehicles(site);
    expect(visit).toMatchObject({ status: 'IN' });
    expect(await eventsOf(visit?.checkinId ?? 0)).toEqual(['VEHICLE_CHECKIN_ENTERED']);
    const refused = await attentionItems(kiosk.db);
    expect(refused).toEqual([
      expect.objectContaining({
        description: 'Admit of NA 4',
        action: expect.objectContaining({ lastError: expect.objectContaining({ code: 'NOT_PENDING' }) }),
      }),
    ]);
    // The server decided the Entry otherwise than the kiosk had predicted: that is kept, for the gate to say.
    expect(await kiosk.db.vehicles.get(entered.visitId)).toMatchObject({
      predicted: 'PENDING',
      entryDecision: { status: 'IN', stopReason: null },
      status: 'IN',
    });
    const report = await kiosk.discard(refused[0]?.action.seq ?? -1);
    expect(report?.message).toBe('Discarded Admit of NA 4.');
    expect(await kiosk.db.vehicles.get(entered.visitId)).toMatchObject({ status: 'IN' });
    await kiosk.close();
  });

  it('a plate blocked by a label is STOP on the server and the gate says why, even when the kiosk had predicted PENDING', async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const label = await site.api.post<{ labelId: number }>('/v1/labels/vehicles', {
      name: 'Banned',
      blocksEntry: true,
    });
    expect(label.status).toBe(201);
    expect(
      (await site.api.post('/v1/profiles/vehicles', { licensePlate: 'BL 5', labelIds: [label.body.labelId] })).status,
    ).toBe(201);
    // Offline from the start, so the kiosk has no copy of the vehicles yet: it can only predict PENDING.
    const { kiosk, network } = openTestKiosk(harness.server, site, { mode: 'gate', online: false });
    kiosk.start();
    const entered = visitOf(await kiosk.vehicleEntry('BL 5'));
    expect(entered.status).toBe('PENDING');
    network.setOnline(true);
    await drain(kiosk);
    const [visit] = await serverVehicles(site);
    expect(visit).toMatchObject({ status: 'STOP', stopReason: 'Blocked by label: Banned' });
    expect(await kiosk.db.vehicles.get(entered.visitId)).toMatchObject({
      status: 'STOP',
      stopReason: 'Blocked by label: Banned',
      entryDecision: { status: 'STOP', stopReason: 'Blocked by label: Banned' },
    });
    await kiosk.close();
  });

  it('offline, the Entry predicts from the pulled copy of the vehicles: registered IN, blocked STOP with its label, unknown PENDING; the server agrees', async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const label = await site.api.post<{ labelId: number }>('/v1/labels/vehicles', {
      name: 'Banned',
      blocksEntry: true,
    });
    expect((await site.api.post('/v1/profiles/vehicles', { licensePlate: 'RG 7' })).status).toBe(201);
    expect(
      (await site.api.post('/v1/profiles/vehicles', { licensePlate: 'BL 7', labelIds: [label.body.labelId] })).status,
    ).toBe(201);
    const { kiosk, network } = openTestKiosk(harness.server, site, { mode: 'gate' });
    kiosk.start();
    await kiosk.engine.syncNow();
    network.setOnline(false);
    const registered = visitOf(await kiosk.vehicleEntry('rg-7'));
    const blocked = visitOf(await kiosk.vehicleEntry('BL 7'));
    const unknown = visitOf(await kiosk.vehicleEntry('UN 7'));
    expect([registered, blocked, unknown].map((visit) => [visit.status, visit.stopReason])).toEqual([
      ['IN', null],
      ['STOP', 'Blocked by label: Banned'],
      ['PENDING', null],
    ]);
    // A STOP cannot be admitted.
    expect(await kiosk.vehicleAdmit(blocked.visitId)).toMatchObject({ ok: false, code: 'NOT_PENDING' });
    network.setOnline(true);
    await drain(kiosk);
    const onServer = await serverVehicles(site);
    expect(onServer.map((visit) => `${visit.licensePlate} ${visit.status} ${visit.stopReason}`).sort()).toEqual([
      'BL 7 STOP Blocked by label: Banned',
      'UN 7 PENDING null',
      'rg-7 IN null',
    ]);
    for (const visit of [registered, blocked, unknown]) {
      const held = await kiosk.db.vehicles.get(visit.visitId);
      expect(held?.entryDecision).toEqual({ status: visit.status, stopReason: visit.stopReason });
    }
    await kiosk.close();
  });

  it('Admit and Refuse are refused at once for a visit that is not waiting for a guard, and for a reason that is too long', async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const created = await site.api.post<VehicleCheckin>(`/v1/sites/${site.siteId}/checkins/vehicles`, {
      licensePlate: 'OK 6',
    });
    const { kiosk } = openTestKiosk(harness.server, site, { mode: 'gate' });
    kiosk.start();
    await kiosk.engine.syncNow();
    const pulled = await kiosk.db.vehicles.where('serverId').equals(created.body.checkinId).first();
    expect(pulled?.status).toBe('PENDING');
    expect(await kiosk.vehicleRefuse(pulled?.visitId ?? '', 'x'.repeat(501))).toMatchObject({
      ok: false,
      code: 'VALIDATION_FAILED',
    });
    visitOf(await kiosk.vehicleAdmit(pulled?.visitId ?? ''));
    expect(await kiosk.vehicleRefuse(pulled?.visitId ?? '')).toMatchObject({ ok: false, code: 'NOT_PENDING' });
    expect(await kiosk.vehicleAdmit('no-such-visit')).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    await drain(kiosk);
    expect((await serverVehicles(site))[0]).toMatchObject({ checkinId: created.body.checkinId, status: 'IN' });
    await kiosk.close();
  });
});
