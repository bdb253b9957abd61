import { describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { Vehicle, VehicleChanges } from '../../shared/src/schemas/vehicles';
import { queryRows } from '../../server/src/db/query';
import { type World, buildWorld } from '../support/factories';
import type { ApiClient, ApiResponse } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import {
  VEHICLES,
  VEHICLE_LABELS,
  clientWith,
  createVehicleLabel,
  expectProblem,
  registerVehicle,
  uniqueName,
  uniquePlate,
} from '../support/vehicles';
import { sql } from '../../server/src/db/sql';
import { holdTransaction } from '../support/heldTransaction';

const context = serverAndWorld();
const CHANGES = `${VEHICLES}/changes`;

/** One page of the feed after `cursor`; expects 200. */
async function pull(api: ApiClient, cursor?: string, limit?: number): Promise<ApiResponse<VehicleChanges>> {
  const query = new URLSearchParams();
  if (cursor !== undefined) query.set('cursor', cursor);
  if (limit !== undefined) query.set('limit', String(limit));
  const response = await api.get<VehicleChanges>(`${CHANGES}?${query}`);
  expect(response.status, response.text).toBe(200);
  return response;
}

/** A new account of its own, so its feed holds only what the test wrote. */
const freshAccount = (): Promise<World> => buildWorld(context.server);

describe('GET /v1/profiles/vehicles/changes', () => {
  it('without a cursor answers every vehicle and label of the account, with the normalized plate', async () => {
    const { api } = await freshAccount();
    const banned = await createVehicleLabel(api, { name: 'Banned', blocksEntry: true });
    const staff = await createVehicleLabel(api, { name: 'Staff' });
    const car = await registerVehicle(api, {
      licensePlate: 'ab-123 cd',
      make: 'Volvo',
      color: 'red',
      labelIds: [staff.labelId, banned.labelId],
    });
    const van = await registerVehicle(api, { licensePlate: 'VAN 1' });
    const { body } = await pull(api);
    expect(body.labels).toEqual([
      { labelId: banned.labelId, name: 'Banned', blocksEntry: true },
      { labelId: staff.labelId, name: 'Staff', blocksEntry: false },
    ]);
    expect(body.vehicles).toEqual([
      {
        vehicleId: car.vehicleId,
        licensePlate: 'ab-123 cd',
        plateKey: 'AB123CD',
        make: 'Volvo',
        model: null,
        color: 'red',
        labelIds: [banned.labelId, staff.labelId].sort((a, b) => a - b),
      },
      {
        vehicleId: van.vehicleId,
        licensePlate: 'VAN 1',
        plateKey: 'VAN1',
        make: null,
        model: null,
        color: null,
        labelIds: [],
      },
    ]);
    expect(body).toMatchObject({
      removedVehicleIds: [],
      removedLabelIds: [],
      hasMore: false,
      nextCursor: expect.any(String),
    });
  });

  it('an unchanged account answers empty arrays and the same cursor: a pull that transfers almost nothing', async () => {
    const { api } = await freshAccount();
    await registerVehicle(api, { licensePlate: uniquePlate() });
    const first = await pull(api);
    const again = await pull(api, first.body.nextCursor);
    expect(again.body).toEqual({
      vehicles: [],
      labels: [],
      removedVehicleIds: [],
      removedLabelIds: [],
      nextCursor: first.body.nextCursor,
      hasMore: false,
    });
    expect(again.text.length).toBeLessThan(200);
  });

  it('after a cursor answers only what changed: updates, label (re)assignments, renames, blocksEntry, deletions', async () => {
    const { api } = await freshAccount();
    const label = await createVehicleLabel(api, { name: 'Visitor' });
    const other = await createVehicleLabel(api, { name: 'Other' });
    const keep = await registerVehicle(api, { licensePlate: uniquePlate() });
    const edit = await registerVehicle(api, { licensePlate: uniquePlate() });
    const gone = await registerVehicle(api, { licensePlate: uniquePlate(), labelIds: [other.labelId] });
    let cursor = (await pull(api)).body.nextCursor;
    const step = async () => {
      const { body } = await pull(api, cursor);
      cursor = body.nextCursor;
      return body;
    };

    expect(
      (await api.put(`${VEHICLES}/${edit.vehicleId}`, { model: 'Model T', licensePlate: 'NEW PLATE 9' })).status,
    ).toBe(200);
    expect(await step()).toMatchObject({
      vehicles: [
        {
          vehicleId: edit.vehicleId,
          licensePlate: 'NEW PLATE 9',
          plateKey: 'NEWPLATE9',
          model: 'Model T',
          labelIds: [],
        },
      ],
      labels: [],
      removedVehicleIds: [],
      removedLabelIds: [],
    });

    expect((await api.put(`${VEHICLES}/${keep.vehicleId}/labels`, { labelIds: [label.labelId] })).status).toBe(200);
    expect((await step()).vehicles).toEqual([
      expect.objectContaining({ vehicleId: keep.vehicleId, labelIds: [label.labelId] }),
    ]);

    expect((await api.patch(`${VEHICLE_LABELS}/${label.labelId}`, { name: 'Banned', blocksEntry: true })).status).toBe(
      200,
    );
    expect(await step()).toMatchObject({
      vehicles: [],
      labels: [{ labelId: label.labelId, name: 'Banned', blocksEntry: true }],
    });

    expect((await api.delete(`${VEHICLES}/${gone.vehicleId}`)).status).toBe(204);
    expect(await step()).toMatchObject({ vehicles: [], labels: [], removedVehicleIds: [gone.vehicleId] });

    // A label deleted: it is removed, and each vehicle that carried it comes again without it.
    expect((await api.delete(`${VEHICLE_LABELS}/${label.labelId}`)).status).toBe(204);
    expect(await step()).toMatchObject({
      vehicles: [expect.objectContaining({ vehicleId: keep.vehicleId, labelIds: [] })],
      removedLabelIds: [label.labelId],
    });

    // A plate taken off and registered again is a new vehicle: the old one stays removed.
    const again = await registerVehicle(api, { licensePlate: gone.licensePlate });
    expect(await step()).toMatchObject({
      vehicles: [expect.objectContaining({ vehicleId: again.vehicleId })],
      removedVehicleIds: [],
    });
  });

  it('pages by limit: hasMore until the last page, each change once, in order, the latest state of each', async () => {
    const { api } = await freshAccount();
    const registered: Vehicle[] = [];
    for (let index = 0; index < 7; index += 1)
      registered.push(await registerVehicle(api, { licensePlate: uniquePlate('PG') }));
    // Changed again: it moves to the end, once.
    expect((await api.put(`${VEHICLES}/${registered[0]?.vehicleId}`, { color: 'blue' })).status).toBe(200);
    const seen: number[] = [];
    let cursor: string | undefined;
    const pages: boolean[] = [];
    for (;;) {
      const { body } = await pull(api, cursor, 3);
      expect(body.vehicles.length).toBeLessThanOrEqual(3);
      seen.push(...body.vehicles.map((vehicle) => vehicle.vehicleId));
      pages.push(body.hasMore);
      cursor = body.nextCursor;
      if (!body.hasMore) break;
    }
    expect(pages).toEqual([true, true, false]);
    expect(seen).toEqual([...registered.slice(1), registered[0]].map((vehicle) => vehicle?.vehicleId));
    expect((await pull(api, cursor)).body.vehicles).toEqual([]);
  });

  it('skips no change committed after a reader passed its number (writes of one account are numbered in commit order)', async () => {
    const { server } = context;
    const world = await freshAccount();
    const { api } = world;
    const slow = await registerVehicle(api, { licensePlate: uniquePlate('SLOW') });
    const fast = await registerVehicle(api, { licensePlate: uniquePlate('FAST') });
    const start = (await pull(api)).body.nextCursor;
    // A writer that has changed `slow` (and drawn its number) but not committed yet...
    const holder = await holdTransaction(server.database);
    let pulling: Promise<ApiResponse<VehicleChanges>> | undefined;
    let pulledEarly = false;
    // Read before the writer commits: after the commit the pull may finish first, under load, before this test
    // gets to run again (the database wakes the waiting reader as it ends the writer's transaction).
    let pulledWhileOpen = true;
    try {
      await queryRows(
        holder.db,
        sql`UPDATE vehicles SET color = 'green' WHERE account_id = ${world.accountId} AND id = ${slow.vehicleId}`,
      );
      // ...does not hold up another writer of the account: `fast` changes (a later number) and commits...
      expect((await api.put(`${VEHICLES}/${fast.vehicleId}`, { color: 'black' })).status).toBe(200);
      // ...while a kiosk's pull waits for the writer that is still open, rather than pass `slow`'s number.
      pulling = pull(api, start);
      void pulling.then(() => (pulledEarly = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      pulledWhileOpen = pulledEarly;
    } finally {
      await holder.commit();
    }
    expect(pulledWhileOpen).toBe(false);
    const during = await pulling;
    if (!during) throw new Error('the pull was not sent');
    const after = (await pull(api, during.body.nextCursor)).body;
    const seen = [...during.body.vehicles, ...after.vehicles].map((vehicle) => [vehicle.vehicleId, vehicle.color]);
    expect(seen).toContainEqual([slow.vehicleId, 'green']);
    expect(seen).toContainEqual([fast.vehicleId, 'black']);
  });

  it('a kiosk pulling while writers of the account commit together ends with every change, and no writer fails', async () => {
    const { api } = await freshAccount();
    const labels = [await createVehicleLabel(api), await createVehicleLabel(api)];
    const copy = new Map<number, { color: string | null; labelIds: number[] }>();
    let cursor: string | undefined;
    const step = async () => {
      const { body } = await pull(api, cursor);
      for (const vehicle of body.vehicles)
        copy.set(vehicle.vehicleId, { color: vehicle.color, labelIds: vehicle.labelIds });
      for (const id of body.removedVehicleIds) copy.delete(id);
      cursor = body.nextCursor;
      return body;
    };
    let writing = true;
    const following = (async () => {
      while (writing) await step();
    })();
    const registered = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        registerVehicle(api, {
          licensePlate: uniquePlate('CC'),
          labelIds: [labels[index % 2]?.labelId],
        }),
      ),
    );
    // Each vehicle changed while a label that half of them carry is deleted: writers of one account at once.
    const changes = await Promise.all([
      ...registered.map((vehicle, index) => api.put(`${VEHICLES}/${vehicle.vehicleId}`, { color: `c${index}` })),
      api.delete(`${VEHICLE_LABELS}/${labels[0]?.labelId}`),
    ]);
    expect(changes.map((change) => change.status)).toEqual([...registered.map(() => 200), 204]);
    writing = false;
    await following;
    while ((await step()).hasMore);
    expect(Object.fromEntries(copy)).toEqual(
      Object.fromEntries(
        registered.map((vehicle, index) => [
          vehicle.vehicleId,
          { color: `c${index}`, labelIds: index % 2 === 0 ? [] : [labels[1]?.labelId] },
        ]),
      ),
    );
  });

  it('400 INVALID_QUERY for a malformed cursor, another account’s cursor, or a limit out of 1..5000', async () => {
    const { world } = context;
    const stranger = await freshAccount();
    const theirs = (await pull(stranger.api)).body.nextCursor;
    const mine = (await pull(world.api)).body.nextCursor;
    const forged = Buffer.from(JSON.stringify([-1, 'x'])).toString('base64url');
    for (const query of [
      'cursor=nope',
      `cursor=${theirs}`,
      `cursor=${forged}`,
      `cursor=${mine}x`,
      'limit=0',
      'limit=5001',
      'limit=a',
    ]) {
      expectProblem(await world.api.get<Problem>(`${CHANGES}?${query}`), 400, 'INVALID_QUERY');
    }
    expect((await world.api.get(`${CHANGES}?limit=5000&cursor=${mine}`)).status).toBe(200);
  });

  it('needs vehicles:read', async () => {
    const { server, world } = context;
    expectProblem(
      await (await clientWith(server, world, ['checkins:read'])).get<Problem>(CHANGES),
      403,
      'INSUFFICIENT_SCOPE',
    );
    expect((await (await clientWith(server, world, ['vehicles:read'])).get(CHANGES)).status).toBe(200);
  });

  it('another account never sees these vehicles or labels', async () => {
    const { world } = context;
    const name = uniqueName('Mine');
    await createVehicleLabel(world.api, { name });
    const mine = await registerVehicle(world.api, { licensePlate: uniquePlate('MINE') });
    const stranger = await freshAccount();
    const { body } = await pull(stranger.api);
    expect(body.vehicles.map((vehicle) => vehicle.vehicleId)).not.toContain(mine.vehicleId);
    expect(body.labels.map((label) => label.name)).not.toContain(name);
    expect(body).toMatchObject({ vehicles: [], labels: [] });
  });
});
