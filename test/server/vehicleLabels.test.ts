import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonLabel } from '../../shared/src/schemas/labels';
import type { Vehicle, VehicleLabel } from '../../shared/src/schemas/vehicles';
import { type World, buildWorld } from '../support/factories';
import { type TestServer, startTestServer } from '../support/testServer';
import {
  type Page, VEHICLES, VEHICLE_LABELS, arrive, clientWith, createVehicleLabel, errorPaths, expectProblem, registerVehicle, uniqueName,
  uniquePlate,
} from '../support/vehicles';

let server: TestServer;
let world: World;
let stranger: World;

beforeAll(async () => {
  server = await startTestServer();
  world = await buildWorld(server);
  stranger = await buildWorld(server);
});
afterAll(async () => server?.close());

const label = (id: number) => `${VEHICLE_LABELS}/${id}`;

describe('vehicle labels', () => {
  it('creates (201), reads, lists, renames, recolors, toggles blocksEntry and deletes (204)', async () => {
    const name = uniqueName('Fleet');
    const created = await createVehicleLabel(world.api, { name, color: '#00aa00' });
    expect(created).toMatchObject({ labelId: expect.any(Number), name, color: '#00aa00', blocksEntry: false });
    expect(created.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect((await world.api.get<VehicleLabel>(label(created.labelId))).body).toEqual(created);
    const list = await world.api.get<Page<VehicleLabel>>(`${VEHICLE_LABELS}?limit=200`);
    expect(list.status).toBe(200);
    expect(list.body.data).toContainEqual(created);

    const blocked = await world.api.patch<VehicleLabel>(label(created.labelId), { blocksEntry: true, name: `${name} banned` });
    expect(blocked.status).toBe(200);
    expect(blocked.body).toMatchObject({ name: `${name} banned`, color: '#00aa00', blocksEntry: true });
    const cleared = await world.api.patch<VehicleLabel>(label(created.labelId), { color: null });
    expect(cleared.body).toMatchObject({ name: `${name} banned`, color: null, blocksEntry: true });

    const gone = await world.api.delete(label(created.labelId));
    expect(gone.status).toBe(204);
    expect(gone.text).toBe('');
    expectProblem(await world.api.get<Problem>(label(created.labelId)), 404, 'NOT_FOUND');
    expectProblem(await world.api.delete<Problem>(label(created.labelId)), 404, 'NOT_FOUND');
    expectProblem(await world.api.patch<Problem>(label(created.labelId), { name: 'x' }), 404, 'NOT_FOUND');
  });

  it('lists oldest first in keyset pages', async () => {
    const made = [await createVehicleLabel(world.api), await createVehicleLabel(world.api), await createVehicleLabel(world.api)];
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const path: string = `${VEHICLE_LABELS}?limit=1${cursor ? `&cursor=${cursor}` : ''}`;
      const response = await world.api.get<Page<VehicleLabel>>(path);
      seen.push(...response.body.data.map((item) => item.labelId));
      cursor = response.body.nextCursor;
    } while (cursor);
    expect(seen.filter((id) => made.some((item) => item.labelId === id))).toEqual(made.map((item) => item.labelId));
  });

  it('refuses invalid bodies with 422 naming the field', async () => {
    for (const [body, path] of [
      [{}, 'name'], [{ name: '' }, 'name'], [{ name: 'x'.repeat(65) }, 'name'], [{ name: 'Ok', color: 'red' }, 'color'],
      [{ name: 'Ok', blocksEntry: 'yes' }, 'blocksEntry'], [{ name: 'Ok', extra: 1 }, 'extra'],
    ] as const) {
      const response = await world.api.post<Problem>(VEHICLE_LABELS, body);
      expectProblem(response, 422, 'VALIDATION_FAILED');
      expect(errorPaths(response)).toContain(path);
    }
    const existing = await createVehicleLabel(world.api);
    expectProblem(await world.api.patch<Problem>(label(existing.labelId), { blocksEntry: null }), 422, 'VALIDATION_FAILED');
  });

  it('a duplicate name, case-insensitively, is 409 LABEL_NAME_TAKEN with the label as current; a stored 409 replays', async () => {
    const name = uniqueName('Contractor');
    const first = await createVehicleLabel(world.api, { name });
    const key = randomUUID();
    const duplicate = await world.api.post<Problem>(VEHICLE_LABELS, { name: name.toUpperCase() }, { idempotencyKey: key });
    expectProblem(duplicate, 409, 'LABEL_NAME_TAKEN');
    expect(duplicate.body.current).toEqual(first);
    const replay = await world.api.post<Problem>(VEHICLE_LABELS, { name: name.toUpperCase() }, { idempotencyKey: key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(duplicate.text);

    const second = await createVehicleLabel(world.api);
    const rename = await world.api.patch<Problem>(label(second.labelId), { name: name.toLowerCase() });
    expectProblem(rename, 409, 'LABEL_NAME_TAKEN');
    expect(rename.body.current).toEqual(first);
    const recased = await world.api.patch<VehicleLabel>(label(first.labelId), { name: name.toUpperCase() });
    expect(recased.status).toBe(200);
  });

  it('is a table apart from person labels: the same name may exist in both, and neither list shows the other', async () => {
    const name = uniqueName('Shared name');
    const person = await world.api.post<PersonLabel>('/v1/labels/people', { name });
    expect(person.status).toBe(201);
    const vehicleLabel = await createVehicleLabel(world.api, { name });
    const vehicleList = await world.api.get<Page<VehicleLabel>>(`${VEHICLE_LABELS}?limit=200`);
    expect(vehicleList.body.data.filter((item) => item.name === name)).toEqual([vehicleLabel]);
    const personList = await world.api.get<Page<PersonLabel>>('/v1/labels/people?limit=200');
    expect(personList.body.data.filter((item) => item.name === name)).toEqual([person.body]);
  });

  it('deleting a label takes it off every vehicle', async () => {
    const [keep, drop] = [await createVehicleLabel(world.api), await createVehicleLabel(world.api)];
    const vehicle = await registerVehicle(world.api, { licensePlate: uniquePlate(), labelIds: [keep.labelId, drop.labelId] });
    expect((await world.api.delete(label(drop.labelId))).status).toBe(204);
    const read = await world.api.get<Vehicle>(`${VEHICLES}/${vehicle.vehicleId}`);
    expect(read.body.labelIds).toEqual([keep.labelId]);
    const filtered = await world.api.get<Page<Vehicle>>(`${VEHICLES}?labelId=${drop.labelId}`);
    expect(filtered.body.data).toEqual([]);
  });

  it('blocksEntry decides at the gate: STOP while the label blocks, IN once it does not or is gone', async () => {
    const ban = await createVehicleLabel(world.api, { blocksEntry: true });
    const vehicle = await registerVehicle(world.api, { licensePlate: uniquePlate(), labelIds: [ban.labelId] });
    expect((await arrive(world.api, world.siteId, { vehicleId: vehicle.vehicleId })).status).toBe('STOP');
    await world.api.patch(label(ban.labelId), { blocksEntry: false });
    const admitted = await arrive(world.api, world.siteId, { vehicleId: vehicle.vehicleId });
    expect(admitted.status).toBe('IN');
    await world.api.patch(`/v1/sites/${world.siteId}/checkins/vehicles/${admitted.checkinId}`, {});
    await world.api.patch(label(ban.labelId), { blocksEntry: true });
    expect((await arrive(world.api, world.siteId, { licensePlate: vehicle.licensePlate })).status).toBe('STOP');
    await world.api.delete(label(ban.labelId));
    expect((await arrive(world.api, world.siteId, { licensePlate: vehicle.licensePlate })).status).toBe('IN');
  });
});

describe('vehicle label access', () => {
  it('changes need labels:write, reads vehicles:read (else 403)', async () => {
    const existing = await createVehicleLabel(world.api);
    const reader = await clientWith(server, world, ['vehicles:read']);
    expect((await reader.get(VEHICLE_LABELS)).status).toBe(200);
    expect((await reader.get(label(existing.labelId))).status).toBe(200);
    expectProblem(await reader.post<Problem>(VEHICLE_LABELS, { name: uniqueName('No') }), 403, 'INSUFFICIENT_SCOPE');
    expectProblem(await reader.patch<Problem>(label(existing.labelId), { name: 'x' }), 403, 'INSUFFICIENT_SCOPE');
    expectProblem(await reader.delete<Problem>(label(existing.labelId)), 403, 'INSUFFICIENT_SCOPE');
    const writer = await clientWith(server, world, ['labels:write', 'checkins:read']);
    expect((await writer.post(VEHICLE_LABELS, { name: uniqueName('Yes') })).status).toBe(201);
    expectProblem(await writer.get<Problem>(VEHICLE_LABELS), 403, 'INSUFFICIENT_SCOPE');
    expectProblem(await writer.get<Problem>(label(existing.labelId)), 403, 'INSUFFICIENT_SCOPE');
  });

  it('accounts are isolated: another account can neither see nor change a label; a label id that is not an integer is 404', async () => {
    const mine = await createVehicleLabel(world.api);
    expectProblem(await stranger.api.get<Problem>(label(mine.labelId)), 404, 'NOT_FOUND');
    expectProblem(await stranger.api.patch<Problem>(label(mine.labelId), { name: 'x' }), 404, 'NOT_FOUND');
    expectProblem(await stranger.api.delete<Problem>(label(mine.labelId)), 404, 'NOT_FOUND');
    const theirs = await stranger.api.get<Page<VehicleLabel>>(`${VEHICLE_LABELS}?limit=200`);
    expect(theirs.body.data.map((item) => item.labelId)).not.toContain(mine.labelId);
    const sameName = await stranger.api.post<VehicleLabel>(VEHICLE_LABELS, { name: mine.name });
    expect(sameName.status).toBe(201);
    for (const id of ['0', 'abc', '2147483648']) expectProblem(await world.api.get<Problem>(`${VEHICLE_LABELS}/${id}`), 404, 'NOT_FOUND');
  });
});
