// First: Dexie's liveQuery only works if a global IndexedDB exists when Dexie is first imported.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../shared/src/client/http';
import type { Vehicle, VehicleLabel } from '../../shared/src/schemas/vehicles';
import { saveSettings } from '../../kiosk/src/data/settings';
import { VEHICLE_DIRECTORY_CURSOR, findKnownVehicle } from '../../kiosk/src/data/vehicleDirectory';
import type { ApiClient } from '../support/http';
import { buildKioskSite, openTestKiosk, kioskServerForFile } from './harness';

const harness = kioskServerForFile();

/** What the kiosk received from the change feed: one entry per answer, its size in bytes. */
function watchFeed(): { fetch: FetchLike; answers: number[] } {
  const answers: number[] = [];
  return {
    answers,
    async fetch(url, init) {
      const response = await fetch(url, init);
      if (url.includes('/profiles/vehicles/changes')) answers.push((await response.clone().arrayBuffer()).byteLength);
      return response;
    },
  };
}

async function created<T>(api: ApiClient, path: string, body: Record<string, unknown>): Promise<T> {
  const response = await api.post<T>(path, body);
  expect(response.status, response.text).toBe(201);
  return response.body;
}

describe('the gate keeps a copy of the registered vehicles, pulled incrementally', () => {
  it('creates, updates, label changes and deletes reach the kiosk; an unchanged pull transfers almost nothing', async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const { api } = site;
    const banned = await created<VehicleLabel>(api, '/v1/labels/vehicles', { name: 'Banned' });
    const staff = await created<VehicleLabel>(api, '/v1/labels/vehicles', { name: 'Staff' });
    const car = await created<Vehicle>(api, '/v1/profiles/vehicles', {
      licensePlate: 'ab-123',
      make: 'Volvo',
      labelIds: [staff.labelId, banned.labelId],
    });
    const van = await created<Vehicle>(api, '/v1/profiles/vehicles', { licensePlate: 'VAN 7' });
    const feed = watchFeed();
    const { kiosk } = openTestKiosk(harness.server, site, { mode: 'gate', fetch: feed.fetch });
    kiosk.start();
    await kiosk.engine.syncNow();
    expect(await findKnownVehicle(kiosk.db, 'AB123')).toEqual({
      vehicleId: car.vehicleId,
      licensePlate: 'ab-123',
      plateKey: 'AB123',
      make: 'Volvo',
      model: null,
      color: null,
      labelNames: ['Banned', 'Staff'],
      blockingLabelNames: [],
    });
    expect(await findKnownVehicle(kiosk.db, 'VAN7')).toMatchObject({ vehicleId: van.vehicleId, labelNames: [] });
    expect(await findKnownVehicle(kiosk.db, 'NOPE1')).toBeUndefined();

    // A label made blocking: the vehicles carrying it are blocked, without their coming again.
    expect((await api.patch(`/v1/labels/vehicles/${banned.labelId}`, { blocksEntry: true })).status).toBe(200);
    expect(
      (await api.put(`/v1/profiles/vehicles/${van.vehicleId}`, { color: 'white', labelIds: [banned.labelId] })).status,
    ).toBe(200);
    feed.answers.length = 0;
    await kiosk.engine.syncNow();
    expect(await findKnownVehicle(kiosk.db, 'AB123')).toMatchObject({ blockingLabelNames: ['Banned'] });
    expect(await findKnownVehicle(kiosk.db, 'VAN7')).toMatchObject({
      color: 'white',
      labelNames: ['Banned'],
      blockingLabelNames: ['Banned'],
    });
    expect(feed.answers).toHaveLength(1);

    // A new plate, a vehicle deleted, a label renamed.
    expect((await api.put(`/v1/profiles/vehicles/${car.vehicleId}`, { licensePlate: 'CD 456' })).status).toBe(200);
    expect((await api.delete(`/v1/profiles/vehicles/${van.vehicleId}`)).status).toBe(204);
    expect((await api.patch(`/v1/labels/vehicles/${staff.labelId}`, { name: 'Crew' })).status).toBe(200);
    await kiosk.engine.syncNow();
    expect(await findKnownVehicle(kiosk.db, 'AB123')).toBeUndefined();
    expect(await findKnownVehicle(kiosk.db, 'CD456')).toMatchObject({
      vehicleId: car.vehicleId,
      labelNames: ['Banned', 'Crew'],
    });
    expect(await findKnownVehicle(kiosk.db, 'VAN7')).toBeUndefined();
    expect(await kiosk.db.knownVehicles.count()).toBe(1);

    // Nothing changed: one small answer, nothing written.
    feed.answers.length = 0;
    await kiosk.engine.syncNow();
    expect(feed.answers).toHaveLength(1);
    expect(feed.answers[0]).toBeLessThan(200);
    await kiosk.close();
  });

  it('pages while the server has more (2,000 a page), and a visitor kiosk keeps no copy', async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    const values = Array.from({ length: 2_100 }, (_, index) => `('P${index}')`).join(', ');
    // Registered in one statement, as an import would: the feed numbers each of them.
    const { sequelize } = harness.server;
    await sequelize.query(
      `INSERT INTO vehicles (account_id, license_plate, plate_norm, created_at, updated_at)
       SELECT s.account_id, p.plate, p.plate, now(), now() FROM sites s, (VALUES ${values}) AS p(plate) WHERE s.id = $1`,
      { bind: [site.siteId] },
    );
    const feed = watchFeed();
    const gate = openTestKiosk(harness.server, site, { mode: 'gate', fetch: feed.fetch });
    gate.kiosk.start();
    await gate.kiosk.engine.syncNow();
    expect(await gate.kiosk.db.knownVehicles.count()).toBe(2_100);
    expect(feed.answers).toHaveLength(2);
    expect(await findKnownVehicle(gate.kiosk.db, 'P2099')).toMatchObject({ licensePlate: 'P2099' });
    await gate.kiosk.close();

    const visitor = openTestKiosk(harness.server, site, { mode: 'visitor' });
    visitor.kiosk.start();
    await visitor.kiosk.engine.syncNow();
    expect(await visitor.kiosk.db.knownVehicles.count()).toBe(0);
    await visitor.kiosk.close();
  });

  it('a cursor the server refuses drops the copy and pulls it again whole; unpairing drops it', async () => {
    const site = await buildKioskSite(harness.server, 'gate');
    await created<Vehicle>(site.api, '/v1/profiles/vehicles', { licensePlate: 'KEEP 1' });
    const { kiosk } = openTestKiosk(harness.server, site, { mode: 'gate' });
    kiosk.start();
    await kiosk.engine.syncNow();
    await kiosk.db.knownVehicles.put({
      vehicleId: 999_999,
      licensePlate: 'STALE',
      plateKey: 'STALE',
      make: null,
      model: null,
      color: null,
      labelIds: [],
    });
    await kiosk.db.meta.put({ key: VEHICLE_DIRECTORY_CURSOR, value: 'not-a-cursor' });
    await kiosk.engine.syncNow();
    expect(await findKnownVehicle(kiosk.db, 'STALE')).toBeUndefined();
    expect(await findKnownVehicle(kiosk.db, 'KEEP1')).toMatchObject({ licensePlate: 'KEEP 1' });
    expect((await kiosk.db.meta.get(VEHICLE_DIRECTORY_CURSOR))?.value).not.toBe('not-a-cursor');

    await kiosk.engine.stop();
    expect(await saveSettings(kiosk.db, null)).toEqual({ ok: true });
    expect(await kiosk.db.knownVehicles.count()).toBe(0);
    expect(await kiosk.db.vehicleLabels.count()).toBe(0);
    expect(await kiosk.db.meta.get(VEHICLE_DIRECTORY_CURSOR)).toBeUndefined();
    await kiosk.close();
  });
});
