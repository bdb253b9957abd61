import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonLabel } from '../../shared/src/schemas/labels';
import type { Vehicle, VehicleLabel } from '../../shared/src/schemas/vehicles';
import { serverAndWorld } from '../support/serverAndWorld';
import {
  type Page,
  VEHICLES,
  VEHICLE_LABELS,
  arrive,
  clientWith,
  createVehicleLabel,
  errorPaths,
  expectProblem,
  registerVehicle,
  uniqueName,
  uniquePlate,
} from '../support/vehicles';

const harness = serverAndWorld({ stranger: true });

const label = (id: number) => `${VEHICLE_LABELS}/${id}`;

describe('vehicle labels', () => {
  it('creates (201), reads, lists, renames, recolors, toggles blocksEntry and deletes (204)', async () => {
    const name = uniqueName('Fleet');
    const created = await createVehicleLabel(harness.world.api, { name, color: '#00aa00' });
    expect(created).toMatchObject({ labelId: expect.any(Number), name, color: '#00aa00', blocksEntry: false });
    expect(created.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect((await harness.world.api.get<VehicleLabel>(label(created.labelId))).body).toEqual(created);
    const list = await harness.world.api.get<Page<VehicleLabel>>(`${VEHICLE_LABELS}?limit=200`);
    expect(list.status).toBe(200);
    expect(list.body.data).toContainEqual(created);

    const blocked = await harness.world.api.patch<VehicleLabel>(label(created.labelId), {
      blocksEntry: true,
      name: `${name} banned`,
    });
    expect(blocked.status).toBe(200);
    expect(blocked.body).toMatchObject({ name: `${name} banned`, color: '#00aa00', blocksEntry: true });
    const cleared = await harness.world.api.patch<VehicleLabel>(label(created.labelId), { color: null });
    expect(cleared.body).toMatchObject({ name: `${name} banned`, color: null, blocksEntry: true });

    const gone = await harness.world.api.delete(label(created.labelId));
    expect(gone.status).toBe(204);
    expect(gone.text).toBe('');
    expectProblem(await harness.world.api.get<Problem>(label(created.labelId)), 404, 'NOT_FOUND');
    expectProblem(await harness.world.api.delete<Problem>(label(created.labelId)), 404, 'NOT_FOUND');
    expectProblem(await harness.world.api.patch<Problem>(label(created.labelId), { name: 'x' }), 404, 'NOT_FOUND');
  });

  it('lists oldest first in keyset pages', async () => {
    const made = [
      await createVehicleLabel(harness.world.api),
      await createVehicleLabel(harness.world.api),
      await createVehicleLabel(harness.world.api),
    ];
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const path: string = `${VEHICLE_LABELS}?limit=1${cursor ? `&cursor=${cursor}` : ''}`;
      const response = await harness.world.api.get<Page<VehicleLabel>>(path);
      seen.push(...response.body.data.map((item) => item.labelId));
      cursor = response.body.nextCursor;
    } while (cursor);
    expect(seen.filter((id) => made.some((item) => item.labelId === id))).toEqual(made.map((item) => item.labelId));
  });

  it('refuses invalid bodies with 422 naming the field', async () => {
    for (const [body, path] of [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(65) }, 'name'],
      [{ name: 'Ok', color: 'red' }, 'color'],
      [{ name: 'Ok', blocksEntry: 'yes' }, 'blocksEntry'],
      [{ name: 'Ok', extra: 1 }, 'extra'],
    ] as const) {
      const response = await harness.world.api.post<Problem>(VEHICLE_LABELS, body);
      expectProblem(response, 422, 'VALIDATION_FAILED');
      expect(errorPaths(response)).toContain(path);
    }
    const existing = await createVehicleLabel(harness.world.api);
    expectProblem(
      await harness.world.api.patch<Problem>(label(existing.labelId), { blocksEntry: null }),
      422,
      'VALIDATION_FAILED',
    );
  });

  it('a duplicate name, case-insensitively, is 409 LABEL_NAME_TAKEN with the label as current; a stored 409 replays', async () => {
    const name = uniqueName('Contractor');
    const first = await createVehicleLabel(harness.world.api, { name });
    const key = randomUUID();
    const duplicate = await harness.world.api.post<Problem>(
      VEHICLE_LABELS,
      { name: name.toUpperCase() },
      { idempotencyKey: key },
    );
    expectProblem(duplicate, 409, 'LABEL_NAME_TAKEN');
    expect(duplicate.body.current).toEqual(first);
    const replay = await harness.world.api.post<Problem>(
      VEHICLE_LABELS,
      { name: name.toUpperCase() },
      { idempotencyKey: key },
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(duplicate.text);

    const second = await createVehicleLabel(harness.world.api);
    const rename = await harness.world.api.patch<Problem>(label(second.labelId), { name: name.toLowerCase() });
    expectProblem(rename, 409, 'LABEL_NAME_TAKEN');
    expect(rename.body.current).toEqual(first);
    const recased = await harness.world.api.patch<VehicleLabel>(label(first.labelId), { name: name.toUpperCase() });
    expect(recased.status).toBe(200);
  });

  it('is a table apart from person labels: the same name may exist in both, and neither list shows the other', async () => {
    const name = uniqueName('Shared name');
    const person = await harness.world.api.post<PersonLabel>('/v1/labels/people', { name });
    expect(person.status).toBe(201);
    const vehicleLabel = await createVehicleLabel(harness.world.api, { name });
    const vehicleList = await harness.world.api.get<Page<VehicleLabel>>(`${VEHICLE_LABELS}?limit=200`);
    expect(vehicleList.body.data.filter((item) => item.name === name)).toEqual([vehicleLabel]);
    const personList = await harness.world.api.get<Page<PersonLabel>>('/v1/labels/people?limit=200');
    expect(personList.body.data.filter((item) => item.name === name)).toEqual([person.body]);
  });

  it('deleting a label takes it off every vehicle', async () => {
    const [keep, drop] = [await createVehicleLabel(harness.world.api), await createVehicleLabel(harness.world.api)];
    const vehicle = await registerVehicle(harness.world.api, {
      licensePlate: uniquePlate(),
      labelIds: [keep.labelId, drop.labelId],
    });
    expect((await harness.world.api.delete(label(drop.labelId))).status).toBe(204);
    const read = await harness.world.api.get<Vehicle>(`${VEHICLES}/${vehicle.vehicleId}`);
    expect(read.body.labelIds).toEqual([keep.labelId]);
    const filtered = await harness.world.api.get<Page<Vehicle>>(`${VEHICLES}?labelId=${drop.labelId}`);
    expect(filtered.body.data).toEqual([]);
  });

  it('blocksEntry decides at the gate: STOP while the label blocks, IN once it does not or is gone', async () => {
    const ban = await createVehicleLabel(harness.world.api, { blocksEntry: true });
    const vehicle = await registerVehicle(harness.world.api, { licensePlate: uniquePlate(), labelIds: [ban.labelId] });
    expect((await arrive(harness.world.api, harness.world.siteId, { vehicleId: vehicle.vehicleId })).status).toBe(
      'STOP',
    );
    await harness.world.api.patch(label(ban.labelId), { blocksEntry: false });
    const admitted = await arrive(harness.world.api, harness.world.siteId, { vehicleId: vehicle.vehicleId });
    expect(admitted.status).toBe('IN');
    await harness.world.api.patch(`/v1/sites/${harness.world.siteId}/checkins/vehicles/${admitted.checkinId}`, {});
    await harness.world.api.patch(label(ban.labelId), { blocksEntry: true });
    expect((await arrive(harness.world.api, harness.world.siteId, { licensePlate: vehicle.licensePlate })).status).toBe(
      'STOP',
    );
    await harness.world.api.delete(label(ban.labelId));
    expect((await arrive(harness.world.api, harness.world.siteId, { licensePlate: vehicle.licensePlate })).status).toBe(
      'IN',
    );
  });
});

describe('vehicle label access', () => {
  it('changes need labels:write, reads vehicles:read (else 403)', async () => {
    const existing = await createVehicleLabel(harness.world.api);
    const reader = await clientWith(harness.server, harness.world, ['vehicles:read']);
    expect((await reader.get(VEHICLE_LABELS)).status).toBe(200);
    expect((await reader.get(label(existing.labelId))).status).toBe(200);
    expectProblem(await reader.post<Problem>(VEHICLE_LABELS, { name: uniqueName('No') }), 403, 'INSUFFICIENT_SCOPE');
    expectProblem(await reader.patch<Problem>(label(existing.labelId), { name: 'x' }), 403, 'INSUFFICIENT_SCOPE');
    expectProblem(await reader.delete<Problem>(label(existing.labelId)), 403, 'INSUFFICIENT_SCOPE');
    const writer = await clientWith(harness.server, harness.world, ['labels:write', 'checkins:read']);
    expect((await writer.post(VEHICLE_LABELS, { name: uniqueName('Yes') })).status).toBe(201);
    expectProblem(await writer.get<Problem>(VEHICLE_LABELS), 403, 'INSUFFICIENT_SCOPE');
    expectProblem(await writer.get<Problem>(label(existing.labelId)), 403, 'INSUFFICIENT_SCOPE');
  });

  it('accounts are isolated: another account can neither see nor change a label; a label id that is not an integer is 404', async () => {
    const mine = await createVehicleLabel(harness.world.api);
    expectProblem(await harness.stranger.api.get<Problem>(label(mine.labelId)), 404, 'NOT_FOUND');
    expectProblem(await harness.stranger.api.patch<Problem>(label(mine.labelId), { name: 'x' }), 404, 'NOT_FOUND');
    expectProblem(await harness.stranger.api.delete<Problem>(label(mine.labelId)), 404, 'NOT_FOUND');
    const theirs = await harness.stranger.api.get<Page<VehicleLabel>>(`${VEHICLE_LABELS}?limit=200`);
    expect(theirs.body.data.map((item) => item.labelId)).not.toContain(mine.labelId);
    const sameName = await harness.stranger.api.post<VehicleLabel>(VEHICLE_LABELS, { name: mine.name });
    expect(sameName.status).toBe(201);
    for (const id of ['0', 'abc', '2147483648'])
      expectProblem(await harness.world.api.get<Problem>(`${VEHICLE_LABELS}/${id}`), 404, 'NOT_FOUND');
  });
});
