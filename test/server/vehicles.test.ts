import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { Vehicle, VehicleChanges, VehicleCheckin } from '../../shared/src/schemas/vehicles';
import { queryOne } from '../../server/src/db/query';
import { apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import {
  type Page,
  VEHICLES,
  arrive,
  clientWith,
  createVehicleLabel,
  errorPaths,
  expectProblem,
  registerVehicle,
  uniquePlate,
  visit,
  visits,
} from '../support/vehicles';
import { sql } from '../../server/src/db/sql';

const harness = serverAndWorld({ stranger: true });

const vehicle = (id: number) => `${VEHICLES}/${id}`;
const countVehicles = async (plateNorm: string) =>
  (
    await queryOne<{ count: number }>(
      harness.server.database,
      sql`SELECT count(*)::int AS count FROM vehicles WHERE plate_norm = ${plateNorm}`,
    )
  )?.count;

describe('POST /v1/profiles/vehicles', () => {
  it('creates a vehicle (201) with the plate as entered; GET reads it back', async () => {
    const label = await createVehicleLabel(harness.world.api);
    const created = await registerVehicle(harness.world.api, {
      licensePlate: 'ab-123 cd',
      make: 'Volvo',
      model: 'FH16',
      color: 'red',
      description: 'Tipper',
      labelIds: [label.labelId],
    });
    expect(created).toMatchObject({
      vehicleId: expect.any(Number),
      licensePlate: 'ab-123 cd',
      make: 'Volvo',
      model: 'FH16',
      color: 'red',
      description: 'Tipper',
      labelIds: [label.labelId],
    });
    expect(created.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(created.updatedAt).toBe(created.createdAt);
    const read = await harness.world.api.get<Vehicle>(vehicle(created.vehicleId));
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);
  });

  it('fields not sent (or sent empty) are null; labelIds is []', async () => {
    const created = await registerVehicle(harness.world.api, { licensePlate: uniquePlate(), make: '' });
    expect(created).toMatchObject({ make: null, model: null, color: null, description: null, labelIds: [] });
  });

  it('refuses a plate that is not 1–16 letters and digits once normalized, naming licensePlate', async () => {
    for (const licensePlate of ['', ' - . ', 'AB_123', 'AB#1', 'X'.repeat(17), 42]) {
      const response = await harness.world.api.post<Problem>(VEHICLES, { licensePlate });
      expectProblem(response, 422, 'VALIDATION_FAILED');
      expect(errorPaths(response)).toContain('licensePlate');
    }
    const missing = await harness.world.api.post<Problem>(VEHICLES, { make: 'Volvo' });
    expect(errorPaths(missing)).toContain('licensePlate');
    const unknown = await harness.world.api.post<Problem>(VEHICLES, { licensePlate: uniquePlate(), wheels: 6 });
    expectProblem(unknown, 422, 'VALIDATION_FAILED');
    expect(errorPaths(unknown)).toContain('wheels');
  });

  it('a plate already registered in the account, in any spelling, is 409 LICENSE_PLATE_TAKEN with the vehicle as current', async () => {
    const first = await registerVehicle(harness.world.api, { licensePlate: 'KA-XY 77' });
    for (const licensePlate of ['KA-XY 77', 'kaxy77', 'KA.XY.77', 'ka·xy·77']) {
      const response = await harness.world.api.post<Problem>(VEHICLES, { licensePlate });
      expectProblem(response, 409, 'LICENSE_PLATE_TAKEN');
      expect(response.body.current).toEqual(first);
    }
    expect(await countVehicles('KAXY77')).toBe(1);
  });

  it('unknown label ids, or another account’s, are 422 naming labelIds', async () => {
    const theirs = await createVehicleLabel(harness.stranger.api);
    for (const labelIds of [[999_999], [theirs.labelId]]) {
      const response = await harness.world.api.post<Problem>(VEHICLES, { licensePlate: uniquePlate(), labelIds });
      expectProblem(response, 422, 'VALIDATION_FAILED');
      expect(errorPaths(response)).toEqual(['labelIds']);
    }
  });

  it('honours Idempotency-Key: a retry replays the 201 byte for byte and registers nothing more', async () => {
    const key = randomUUID();
    const body = { licensePlate: 'ID-EM 1', make: 'Scania' };
    const first = await harness.world.api.post<Vehicle>(VEHICLES, body, { idempotencyKey: key });
    const again = await harness.world.api.post<Vehicle>(VEHICLES, body, { idempotencyKey: key });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(await countVehicles('IDEM1')).toBe(1);
    const reused = await harness.world.api.post<Problem>(VEHICLES, { ...body, make: 'MAN' }, { idempotencyKey: key });
    expectProblem(reused, 422, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('a stored 409 LICENSE_PLATE_TAKEN replays even after the plate was freed', async () => {
    const holder = await registerVehicle(harness.world.api, { licensePlate: uniquePlate() });
    const key = randomUUID();
    const refused = await harness.world.api.post<Problem>(
      VEHICLES,
      { licensePlate: holder.licensePlate },
      { idempotencyKey: key },
    );
    expectProblem(refused, 409, 'LICENSE_PLATE_TAKEN');
    expect((await harness.world.api.delete(vehicle(holder.vehicleId))).status).toBe(204);
    const replay = await harness.world.api.post<Problem>(
      VEHICLES,
      { licensePlate: holder.licensePlate },
      { idempotencyKey: key },
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(refused.text);
  });

  it('ten simultaneous creates of one plate: one 201, nine 409 with that vehicle', async () => {
    const plate = uniquePlate('RACE');
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => harness.world.api.post<Vehicle & Problem>(VEHICLES, { licensePlate: plate })),
    );
    const created = responses.filter((response) => response.status === 201);
    expect(created).toHaveLength(1);
    for (const response of responses.filter((item) => item.status !== 201)) {
      expectProblem(response, 409, 'LICENSE_PLATE_TAKEN');
      expect(response.body.current).toEqual(created[0]?.body);
    }
  });
});

describe('one plate per account under concurrent writes', () => {
  it('creates and re-plates racing for one plate: exactly one succeeds, the rest are 409 LICENSE_PLATE_TAKEN (never 500)', async () => {
    const plate = uniquePlate('RACE');
    const others = await Promise.all(
      Array.from({ length: 6 }, () => registerVehicle(harness.world.api, { licensePlate: uniquePlate('OTHER') })),
    );
    const responses = await Promise.all([
      ...others.map((other) =>
        harness.world.api.put<Vehicle & Problem>(vehicle(other.vehicleId), { licensePlate: plate }),
      ),
      ...Array.from({ length: 6 }, () =>
        harness.world.api.post<Vehicle & Problem>(VEHICLES, { licensePlate: plate.toLowerCase() }),
      ),
    ]);
    const won = responses.filter((response) => response.status === 200 || response.status === 201);
    expect(won).toHaveLength(1);
    for (const response of responses.filter((item) => item.status >= 300)) {
      expectProblem(response, 409, 'LICENSE_PLATE_TAKEN');
      expect(response.body.current).toMatchObject({ vehicleId: won[0]?.body.vehicleId });
    }
    expect(await countVehicles(plate.replaceAll('-', ''))).toBe(1);
  });

  it("creates racing the delete of the plate's holder: 201 or 409, never 500, and one live vehicle at the end", async () => {
    for (let round = 0; round < 25; round += 1) {
      const plate = uniquePlate('FREE');
      const holder = await registerVehicle(harness.world.api, { licensePlate: plate });
      const [deleted, ...creates] = await Promise.all([
        harness.world.api.delete(vehicle(holder.vehicleId)),
        ...Array.from({ length: 3 }, () =>
          harness.world.api.post<Vehicle & Problem>(VEHICLES, { licensePlate: plate }),
        ),
      ]);
      expect(deleted?.status).toBe(204);
      for (const response of creates) expect([201, 409], response.text).toContain(response.status);
      const live = await queryOne<{ count: number }>(
        harness.server.database,
        sql`SELECT count(*)::int AS count FROM vehicles WHERE plate_norm = ${plate.replaceAll('-', '')} AND deleted_at IS NULL`,
      );
      expect(live?.count).toBe(creates.filter((response) => response.status === 201).length);
      expect(live?.count).toBeLessThanOrEqual(1);
    }
  });
});

describe('GET /v1/profiles/vehicles', () => {
  it('lists newest first in keyset pages, and filters by plate (any spelling) and by label', async () => {
    const label = await createVehicleLabel(harness.world.api);
    const made: Vehicle[] = [];
    for (let i = 0; i < 5; i += 1)
      made.push(
        await registerVehicle(harness.world.api, { licensePlate: uniquePlate('LIST'), labelIds: [label.labelId] }),
      );
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `labelId=${label.labelId}&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const response = await harness.world.api.get<Page<Vehicle>>(`${VEHICLES}?${query}`);
      expect(response.status).toBe(200);
      expect(response.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...response.body.data.map((item) => item.vehicleId));
      cursor = response.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(made.map((item) => item.vehicleId).reverse());

    const target = made[2] as Vehicle;
    const spelled = target.licensePlate.toLowerCase().replaceAll('-', ' ');
    const byPlate = await harness.world.api.get<Page<Vehicle>>(
      `${VEHICLES}?licensePlate=${encodeURIComponent(spelled)}`,
    );
    expect(byPlate.body).toEqual({ data: [target], nextCursor: null });
    const none = await harness.world.api.get<Page<Vehicle>>(`${VEHICLES}?licensePlate=NOPE1`);
    expect(none.body).toEqual({ data: [], nextCursor: null });
  });

  it('refuses a bad plate, label id, cursor or unknown parameter with 400 INVALID_QUERY', async () => {
    for (const query of ['licensePlate=AB_1', 'labelId=abc', 'labelId=0', 'cursor=nope', 'limit=0', 'color=red']) {
      expectProblem(await harness.world.api.get<Problem>(`${VEHICLES}?${query}`), 400, 'INVALID_QUERY');
    }
  });
});

describe('PUT /v1/profiles/vehicles/{vehicleId}', () => {
  it('changes only the fields sent; null clears an optional field', async () => {
    const created = await registerVehicle(harness.world.api, {
      licensePlate: uniquePlate(),
      make: 'Volvo',
      model: 'FH',
      color: 'red',
    });
    const updated = await harness.world.api.put<Vehicle>(vehicle(created.vehicleId), { color: 'blue', model: null });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      licensePlate: created.licensePlate,
      make: 'Volvo',
      model: null,
      color: 'blue',
      description: null,
    });
    expect(updated.body.createdAt).toBe(created.createdAt);
    expect((await harness.world.api.get<Vehicle>(vehicle(created.vehicleId))).body).toEqual(updated.body);
  });

  it('re-plates a vehicle; a plate another vehicle holds is 409 with that vehicle; its own plate respelled is fine', async () => {
    const mine = await registerVehicle(harness.world.api, { licensePlate: uniquePlate() });
    const other = await registerVehicle(harness.world.api, { licensePlate: uniquePlate() });
    const taken = await harness.world.api.put<Problem>(vehicle(mine.vehicleId), {
      licensePlate: other.licensePlate.toLowerCase(),
    });
    expectProblem(taken, 409, 'LICENSE_PLATE_TAKEN');
    expect(taken.body.current).toEqual(other);
    const respelled = await harness.world.api.put<Vehicle>(vehicle(mine.vehicleId), {
      licensePlate: mine.licensePlate.replaceAll('-', ' '),
    });
    expect(respelled.status).toBe(200);
    const fresh = uniquePlate('NEW');
    const moved = await harness.world.api.put<Vehicle>(vehicle(mine.vehicleId), { licensePlate: fresh });
    expect(moved.body.licensePlate).toBe(fresh);
    // The old plate is free again.
    await registerVehicle(harness.world.api, { licensePlate: mine.licensePlate });
  });

  it('a vehicle on site keeps its plate: 409 VEHICLE_ALREADY_ON_SITE with the visit; respelling and other fields are fine', async () => {
    const onSite = await registerVehicle(harness.world.api, { licensePlate: uniquePlate('ON') });
    const open = await arrive(harness.world.api, harness.world.otherSiteId, { vehicleId: onSite.vehicleId });
    const fresh = uniquePlate('NEW');
    const refused = await harness.world.api.put<Problem>(vehicle(onSite.vehicleId), {
      licensePlate: fresh,
      make: 'Volvo',
    });
    expectProblem(refused, 409, 'VEHICLE_ALREADY_ON_SITE');
    expect(refused.body.current).toEqual(open);
    expect((await harness.world.api.get<Vehicle>(vehicle(onSite.vehicleId))).body).toEqual(onSite);
    // A respelling, or any other field, changes nothing the visit holds.
    expect(
      (
        await harness.world.api.put<Vehicle>(vehicle(onSite.vehicleId), {
          licensePlate: onSite.licensePlate.toLowerCase(),
          make: 'Volvo',
        })
      ).status,
    ).toBe(200);
    // A token that cannot view the visit's site learns only that the vehicle is on a site.
    const limited = await clientWith(
      harness.server,
      harness.world,
      ['vehicles:read', 'vehicles:write'],
      [harness.world.siteId],
    );
    const blind = await limited.put<Problem>(vehicle(onSite.vehicleId), { licensePlate: fresh });
    expectProblem(blind, 409, 'VEHICLE_ALREADY_ON_SITE');
    expect(blind.body.current).toBeUndefined();
    expect(blind.body.detail).toContain('is on a site under plate');
    // Checked out, it may be re-plated; the visit keeps the plate it had.
    expect((await harness.world.api.post(`${visit(open)}/checkout`, {})).status).toBe(200);
    const moved = await harness.world.api.put<Vehicle>(vehicle(onSite.vehicleId), { licensePlate: fresh });
    expect(moved.status).toBe(200);
    expect((await harness.world.api.get<VehicleCheckin>(visit(open))).body.licensePlate).toBe(onSite.licensePlate);
  });

  it('re-plating races arrivals of the vehicle: it never has two open visits', async () => {
    for (let round = 0; round < 8; round += 1) {
      const racer = await registerVehicle(harness.world.api, { licensePlate: uniquePlate('RC') });
      const fresh = uniquePlate('RN');
      const [arrived, replated, again] = await Promise.all([
        harness.world.api.post<Problem & { licensePlate?: string }>(visits(harness.world.siteId), {
          vehicleId: racer.vehicleId,
        }),
        harness.world.api.put<Problem>(vehicle(racer.vehicleId), { licensePlate: fresh }),
        harness.world.api.post<Problem & { licensePlate?: string }>(visits(harness.world.siteId), {
          vehicleId: racer.vehicleId,
        }),
      ]);
      const open = await queryOne<{ count: number }>(
        harness.server.database,
        sql`SELECT count(*)::int AS count FROM vehicle_checkins WHERE vehicle_id = ${racer.vehicleId} AND status IN ('IN', 'PENDING')`,
      );
      expect(open?.count).toBe(1);
      const admitted = [arrived, again].filter((response) => response.status === 201);
      expect(admitted).toHaveLength(1);
      for (const response of [arrived, again].filter((item) => item.status !== 201))
        expectProblem(response, 409, 'VEHICLE_ALREADY_ON_SITE');
      // The plate change either came first (the visit has the new plate) or was refused.
      const plate = admitted[0]?.body.licensePlate;
      if (replated.status === 200) expect(plate).toBe(fresh);
      else {
        expectProblem(replated, 409, 'VEHICLE_ALREADY_ON_SITE');
        expect(plate).toBe(racer.licensePlate);
      }
    }
  });

  it('refuses null for the plate and invalid fields (422); an unknown or deleted vehicle is 404', async () => {
    const created = await registerVehicle(harness.world.api, { licensePlate: uniquePlate() });
    for (const body of [{ licensePlate: null }, { licensePlate: 'A/B' }, { make: 5 }, { vin: 'x' }]) {
      expectProblem(await harness.world.api.put<Problem>(vehicle(created.vehicleId), body), 422, 'VALIDATION_FAILED');
    }
    expectProblem(await harness.world.api.put<Problem>(vehicle(999_999_999), { make: 'x' }), 404, 'NOT_FOUND');
    await harness.world.api.delete(vehicle(created.vehicleId));
    expectProblem(await harness.world.api.put<Problem>(vehicle(created.vehicleId), { make: 'x' }), 404, 'NOT_FOUND');
  });
});

describe('PUT /v1/profiles/vehicles/{vehicleId}/labels', () => {
  it('replaces the labels (200 vehicle); [] clears them; unknown ids are 422 and change nothing', async () => {
    const [a, b, c] = [
      await createVehicleLabel(harness.world.api),
      await createVehicleLabel(harness.world.api),
      await createVehicleLabel(harness.world.api),
    ];
    const created = await registerVehicle(harness.world.api, {
      licensePlate: uniquePlate(),
      labelIds: [a.labelId, b.labelId],
    });
    const replaced = await harness.world.api.put<Vehicle>(`${vehicle(created.vehicleId)}/labels`, {
      labelIds: [c.labelId, b.labelId, c.labelId],
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.labelIds).toEqual([b.labelId, c.labelId].sort((x, y) => x - y));
    expect((await harness.world.api.get<Vehicle>(vehicle(created.vehicleId))).body.labelIds).toEqual(
      replaced.body.labelIds,
    );

    const refused = await harness.world.api.put<Problem>(`${vehicle(created.vehicleId)}/labels`, {
      labelIds: [a.labelId, 999_999],
    });
    expectProblem(refused, 422, 'VALIDATION_FAILED');
    expect(errorPaths(refused)).toEqual(['labelIds']);
    expect((await harness.world.api.get<Vehicle>(vehicle(created.vehicleId))).body.labelIds).toEqual(
      replaced.body.labelIds,
    );

    const cleared = await harness.world.api.put<Vehicle>(`${vehicle(created.vehicleId)}/labels`, { labelIds: [] });
    expect(cleared.body.labelIds).toEqual([]);
    expectProblem(
      await harness.world.api.put<Problem>(`${vehicle(created.vehicleId)}/labels`, {}),
      422,
      'VALIDATION_FAILED',
    );
    expectProblem(
      await harness.world.api.put<Problem>(`${vehicle(999_999_999)}/labels`, { labelIds: [] }),
      404,
      'NOT_FOUND',
    );
    // An unknown vehicle is a 404 whatever its labels would have been; so on the full PUT.
    expectProblem(
      await harness.world.api.put<Problem>(`${vehicle(999_999_999)}/labels`, { labelIds: [999_999] }),
      404,
      'NOT_FOUND',
    );
    expectProblem(
      await harness.world.api.put<Problem>(vehicle(999_999_999), { labelIds: [999_999] }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('DELETE /v1/profiles/vehicles/{vehicleId}', () => {
  it('204; then 404; the plate is free again; past visits keep their plate and vehicleId', async () => {
    const created = await registerVehicle(harness.world.api, { licensePlate: 'DEL 42' });
    const past = await arrive(harness.world.api, harness.world.siteId, { vehicleId: created.vehicleId });
    const gone = await harness.world.api.delete(vehicle(created.vehicleId));
    expect(gone.status).toBe(204);
    expect(gone.text).toBe('');
    expectProblem(await harness.world.api.get<Problem>(vehicle(created.vehicleId)), 404, 'NOT_FOUND');
    expectProblem(await harness.world.api.delete<Problem>(vehicle(created.vehicleId)), 404, 'NOT_FOUND');
    const listed = await harness.world.api.get<Page<Vehicle>>(`${VEHICLES}?licensePlate=DEL42`);
    expect(listed.body.data).toEqual([]);
    const kept = await harness.world.api.get<VehicleCheckin>(visit(past));
    expect(kept.body).toMatchObject({ licensePlate: 'DEL 42', vehicleId: created.vehicleId, status: 'IN' });
    const again = await registerVehicle(harness.world.api, { licensePlate: 'del-42' });
    expect(again.vehicleId).not.toBe(created.vehicleId);
  });
});

describe('access', () => {
  it('reads need vehicles:read, writes vehicles:write (403 INSUFFICIENT_SCOPE); no token is 401', async () => {
    const created = await registerVehicle(harness.world.api, { licensePlate: uniquePlate() });
    const reader = await clientWith(harness.server, harness.world, ['vehicles:read']);
    expect((await reader.get(vehicle(created.vehicleId))).status).toBe(200);
    expect((await reader.get(VEHICLES)).status).toBe(200);
    expectProblem(await reader.post<Problem>(VEHICLES, { licensePlate: uniquePlate() }), 403, 'INSUFFICIENT_SCOPE');
    expectProblem(await reader.put<Problem>(vehicle(created.vehicleId), { make: 'x' }), 403, 'INSUFFICIENT_SCOPE');
    expectProblem(
      await reader.put<Problem>(`${vehicle(created.vehicleId)}/labels`, { labelIds: [] }),
      403,
      'INSUFFICIENT_SCOPE',
    );
    expectProblem(await reader.delete<Problem>(vehicle(created.vehicleId)), 403, 'INSUFFICIENT_SCOPE');
    const people = await clientWith(harness.server, harness.world, ['checkins:read', 'checkins:write']);
    expectProblem(await people.get<Problem>(vehicle(created.vehicleId)), 403, 'INSUFFICIENT_SCOPE');
    expectProblem(await apiClient(harness.server.baseUrl).get<Problem>(VEHICLES), 401, 'UNAUTHENTICATED');
  });

  it('a vehicle id that is not a positive integer is 404', async () => {
    for (const id of ['0', '-1', 'abc', '1.5', '99999999999999999999']) {
      expectProblem(await harness.world.api.get<Problem>(`${VEHICLES}/${id}`), 404, 'NOT_FOUND');
    }
  });

  it('accounts are isolated: another account neither sees nor changes a vehicle, and may register the same plate', async () => {
    const mine = await registerVehicle(harness.world.api, { licensePlate: 'ISO 1' });
    expectProblem(await harness.stranger.api.get<Problem>(vehicle(mine.vehicleId)), 404, 'NOT_FOUND');
    expectProblem(await harness.stranger.api.put<Problem>(vehicle(mine.vehicleId), { make: 'x' }), 404, 'NOT_FOUND');
    expectProblem(
      await harness.stranger.api.put<Problem>(`${vehicle(mine.vehicleId)}/labels`, { labelIds: [] }),
      404,
      'NOT_FOUND',
    );
    expectProblem(await harness.stranger.api.delete<Problem>(vehicle(mine.vehicleId)), 404, 'NOT_FOUND');
    const theirs = await harness.stranger.api.get<Page<Vehicle>>(`${VEHICLES}?limit=200`);
    expect(theirs.body.data.map((item) => item.vehicleId)).not.toContain(mine.vehicleId);
    // Nor in the change feed kiosks keep their copy by, from the beginning.
    const changes = await harness.stranger.api.get<VehicleChanges>(`${VEHICLES}/changes?limit=5000`);
    expect(changes.status).toBe(200);
    expect(changes.body.vehicles.map((item) => item.vehicleId)).not.toContain(mine.vehicleId);
    expect(changes.body.removedVehicleIds).not.toContain(mine.vehicleId);
    const same = await registerVehicle(harness.stranger.api, { licensePlate: 'iso-1' });
    expect(same.vehicleId).not.toBe(mine.vehicleId);
    expect((await harness.world.api.get<Vehicle>(vehicle(mine.vehicleId))).body).toEqual(mine);
  });
});
