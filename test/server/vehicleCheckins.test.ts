import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { VehicleCheckin } from '../../shared/src/schemas/vehicles';
import { queryOne, queryRows } from '../../server/src/db/query';
import { buildSite, buildToken } from '../support/factories';
import { type ApiResponse, apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import {
  arrive,
  clientWith,
  createVehicleLabel,
  errorPaths,
  expectProblem,
  registerVehicle,
  uniquePlate,
  vehicleEvents,
  visit,
  visits,
} from '../support/vehicles';
import { holdTransaction } from '../support/heldTransaction';
import { sql } from '../../server/src/db/sql';

const harness = serverAndWorld({ stranger: true });

type Answer = ApiResponse<VehicleCheckin | Problem>;
const isVisit = (response: Answer): response is ApiResponse<VehicleCheckin> => response.status < 300;
const isProblem = (response: Answer): response is ApiResponse<Problem> => response.status >= 400;
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const plateEvents = async (licensePlate: string) =>
  (
    await queryRows<{ type: string }>(
      harness.server.database,
      sql`SELECT type FROM outbox_events WHERE payload->'data'->'checkin'->>'licensePlate' = ${licensePlate} ORDER BY id`,
    )
  ).map((row) => row.type);

describe('POST /v1/sites/{siteId}/checkins/vehicles: the status a vehicle arrives with', () => {
  it('a registered vehicle by vehicleId is IN with its registered plate, and ENTERED is queued', async () => {
    const vehicle = await registerVehicle(harness.world.api, { licensePlate: 'HH-AB 100' });
    const created = await arrive(harness.world.api, harness.world.siteId, {
      vehicleId: vehicle.vehicleId,
      driverName: 'Kim',
      notes: 'Gate 2',
    });
    expect(created).toMatchObject({
      checkinId: expect.any(Number),
      siteId: harness.world.siteId,
      vehicleId: vehicle.vehicleId,
      licensePlate: 'HH-AB 100',
      status: 'IN',
      driverName: 'Kim',
      notes: 'Gate 2',
      entry: { source: 'API', at: expect.any(String) },
      exit: null,
      denyReason: null,
      stopReason: null,
    });
    expect(Object.keys(created).sort()).toEqual([
      'checkinId',
      'createdAt',
      'decidedAt',
      'decidedBy',
      'denyReason',
      'driverName',
      'entry',
      'exit',
      'licensePlate',
      'notes',
      'siteId',
      'status',
      'stopReason',
      'updatedAt',
      'vehicleId',
    ]);
    expect((await harness.world.api.get<VehicleCheckin>(visit(created))).body).toEqual(created);
    expect(await vehicleEvents(harness.server, created.checkinId)).toEqual(['VEHICLE_CHECKIN_ENTERED']);
  });

  it('a registered plate in any spelling is IN, linked to the vehicle, with the plate as sent', async () => {
    const vehicle = await registerVehicle(harness.world.api, { licensePlate: 'HH-AB 101' });
    const created = await arrive(harness.world.api, harness.world.siteId, { licensePlate: 'hh ab·101' });
    expect(created).toMatchObject({
      vehicleId: vehicle.vehicleId,
      licensePlate: 'hh ab·101',
      status: 'IN',
      driverName: null,
      notes: null,
    });
  });

  it('an unregistered plate is PENDING with vehicleId null, and PENDING is queued', async () => {
    const created = await arrive(harness.world.api, harness.world.siteId, { licensePlate: 'UNKNOWN 1' });
    expect(created).toMatchObject({ vehicleId: null, licensePlate: 'UNKNOWN 1', status: 'PENDING' });
    expect(await vehicleEvents(harness.server, created.checkinId)).toEqual(['VEHICLE_CHECKIN_PENDING']);
  });

  it('a vehicle carrying a blocksEntry label is STOP (STOPPED queued); a STOP visit does not hold the plate', async () => {
    const ban = await createVehicleLabel(harness.world.api, { blocksEntry: true });
    const harmless = await createVehicleLabel(harness.world.api);
    const vehicle = await registerVehicle(harness.world.api, {
      licensePlate: uniquePlate('BAN'),
      labelIds: [harmless.labelId, ban.labelId],
    });
    const stopped = await arrive(harness.world.api, harness.world.siteId, { vehicleId: vehicle.vehicleId });
    expect(stopped.status).toBe('STOP');
    expect(await vehicleEvents(harness.server, stopped.checkinId)).toEqual(['VEHICLE_CHECKIN_STOPPED']);
    expect((await arrive(harness.world.api, harness.world.siteId, { licensePlate: vehicle.licensePlate })).status).toBe(
      'STOP',
    );
  });

  it('entry.source is KIOSK for a kiosk token; occurredAt in the past is recorded as entry.at', async () => {
    const token = await buildToken(harness.server, {
      accountId: harness.world.accountId,
      siteIds: [harness.world.siteId],
      channel: 'KIOSK',
      mode: 'gate',
    });
    const kiosk = apiClient(harness.server.baseUrl, token.token);
    const at = minutesAgo(90);
    const created = await arrive(kiosk, harness.world.siteId, { licensePlate: uniquePlate(), occurredAt: at });
    expect(created.entry).toEqual({ source: 'KIOSK', at });
    expect(created.createdAt > at).toBe(true);
  });
});

describe('create: what is refused', () => {
  it('422 VALIDATION_FAILED for neither or both of vehicleId and licensePlate, a bad plate, or an unknown field', async () => {
    const vehicle = await registerVehicle(harness.world.api, { licensePlate: uniquePlate() });
    for (const body of [
      {},
      { driverName: 'Kim' },
      { vehicleId: vehicle.vehicleId, licensePlate: vehicle.licensePlate },
    ]) {
      expectProblem(
        await harness.world.api.post<Problem>(visits(harness.world.siteId), body),
        422,
        'VALIDATION_FAILED',
      );
    }
    const badPlate = await harness.world.api.post<Problem>(visits(harness.world.siteId), { licensePlate: 'AB_12' });
    expect(errorPaths(badPlate)).toEqual(['licensePlate']);
    const entry = await harness.world.api.post<Problem>(visits(harness.world.siteId), {
      licensePlate: uniquePlate(),
      entry: { source: 'API' },
    });
    expect(errorPaths(entry)).toEqual(['entry']);
  });

  it('a vehicle deleted while its entry is being written: the entry is decided again (422), not IN for a deleted vehicle', async () => {
    const vehicle = await registerVehicle(harness.world.api, { licensePlate: uniquePlate() });
    // The entry is held at its insert (the table share-locked) after its precheck found the vehicle.
    const holder = await holdTransaction(harness.server.database);
    let entry: Promise<Answer>;
    try {
      await queryRows(holder.db, sql`LOCK TABLE vehicle_checkins IN SHARE MODE`);
      entry = harness.world.api.post<VehicleCheckin | Problem>(visits(harness.world.siteId), {
        vehicleId: vehicle.vehicleId,
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await harness.world.api.delete(`/v1/profiles/vehicles/${vehicle.vehicleId}`)).status).toBe(204);
    } finally {
      await holder.commit();
    }
    const answer = await entry;
    expect(answer.status, answer.text).toBe(422);
    expect(isProblem(answer) && errorPaths(answer)).toEqual(['vehicleId']);
  });

  it('an unknown, deleted or other account’s vehicleId is 422 naming vehicleId', async () => {
    const deleted = await registerVehicle(harness.world.api, { licensePlate: uniquePlate() });
    await harness.world.api.delete(`/v1/profiles/vehicles/${deleted.vehicleId}`);
    const theirs = await registerVehicle(harness.stranger.api, { licensePlate: uniquePlate() });
    for (const vehicleId of [999_999_999, deleted.vehicleId, theirs.vehicleId]) {
      const response = await harness.world.api.post<Problem>(visits(harness.world.siteId), { vehicleId });
      expectProblem(response, 422, 'VALIDATION_FAILED');
      expect(errorPaths(response)).toEqual(['vehicleId']);
    }
    // A deleted vehicle's plate is simply unregistered now.
    expect((await arrive(harness.world.api, harness.world.siteId, { licensePlate: deleted.licensePlate })).status).toBe(
      'PENDING',
    );
  });

  it('occurredAt more than 5 minutes ahead or 7 days back is 422 OCCURRED_AT_OUT_OF_RANGE', async () => {
    for (const occurredAt of [new Date(Date.now() + 10 * 60_000).toISOString(), minutesAgo(8 * 24 * 60)]) {
      const response = await harness.world.api.post<Problem>(visits(harness.world.siteId), {
        licensePlate: uniquePlate(),
        occurredAt,
      });
      expectProblem(response, 422, 'OCCURRED_AT_OUT_OF_RANGE');
    }
  });

  it('a second open visit of a plate at a site is 409 VEHICLE_ALREADY_ON_SITE with the open visit as current', async () => {
    const vehicle = await registerVehicle(harness.world.api, { licensePlate: 'TWO-1' });
    const first = await arrive(harness.world.api, harness.world.siteId, { licensePlate: 'two 1' });
    for (const body of [{ licensePlate: 'TWO-1' }, { licensePlate: 'two·1' }, { vehicleId: vehicle.vehicleId }]) {
      const response = await harness.world.api.post<Problem>(visits(harness.world.siteId), body);
      expectProblem(response, 409, 'VEHICLE_ALREADY_ON_SITE');
      expect(response.body.current).toEqual(first);
    }
    // Another site is another gate.
    expect((await arrive(harness.world.api, harness.world.otherSiteId, { licensePlate: 'TWO-1' })).status).toBe('IN');
    // Once out, the plate may come in again.
    await harness.world.api.patch(visit(first), {});
    expect((await arrive(harness.world.api, harness.world.siteId, { vehicleId: vehicle.vehicleId })).status).toBe('IN');
  });

  it('a PENDING visit holds the plate too; a denied one (STOP) frees it', async () => {
    const plate = uniquePlate('PEND');
    const pending = await arrive(harness.world.api, harness.world.siteId, { licensePlate: plate });
    const again = await harness.world.api.post<Problem>(visits(harness.world.siteId), { licensePlate: plate });
    expectProblem(again, 409, 'VEHICLE_ALREADY_ON_SITE');
    expect(again.body.current).toEqual(pending);
    await harness.world.api.post(`${visit(pending)}/deny`, { reason: 'No delivery booked' });
    expect((await arrive(harness.world.api, harness.world.siteId, { licensePlate: plate })).status).toBe('PENDING');
  });

  it('the database refuses a second open visit of a plate at a site, not only the code', async () => {
    const plate = uniquePlate('DB');
    await arrive(harness.world.api, harness.world.siteId, { licensePlate: plate });
    const insert = sql`INSERT INTO vehicle_checkins (account_id, site_id, license_plate, plate_norm, status, entry_source, entry_at,
                   last_event_at, created_at, updated_at)
                   VALUES (${harness.world.accountId}, ${harness.world.siteId}, ${plate}, ${plate.replaceAll('-', '')}, 'IN', 'API', now(), now(), now(), now())`;
    await expect(queryOne(harness.server.database, insert)).rejects.toMatchObject({
      code: '23505',
      constraint: 'vehicle_checkins_one_open',
    });
  });
});

describe('approve, deny and checkout', () => {
  it('PENDING → approve → IN → checkout → OUT, each with its event; later actions are 409 with current', async () => {
    const created = await arrive(harness.world.api, harness.world.siteId, { licensePlate: uniquePlate() });
    const approved = await harness.world.api.post<VehicleCheckin>(`${visit(created)}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'IN', entry: created.entry, exit: null });
    const again = await harness.world.api.post<Problem>(`${visit(created)}/approve`);
    expectProblem(again, 409, 'NOT_PENDING');
    expect(again.body.current).toEqual(approved.body);
    expectProblem(await harness.world.api.post<Problem>(`${visit(created)}/deny`), 409, 'NOT_PENDING');

    const out = await harness.world.api.patch<VehicleCheckin>(visit(created), { exit: { source: 'MANUAL' } });
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ status: 'OUT', exit: { source: 'MANUAL', at: expect.any(String) } });
    const closed = await harness.world.api.post<Problem>(`${visit(created)}/checkout`);
    expectProblem(closed, 409, 'CHECKIN_CLOSED');
    expect(closed.body.current).toEqual(out.body);
    expectProblem(await harness.world.api.post<Problem>(`${visit(created)}/approve`), 409, 'NOT_PENDING');
    expect(await vehicleEvents(harness.server, created.checkinId)).toEqual([
      'VEHICLE_CHECKIN_PENDING',
      'VEHICLE_CHECKIN_ENTERED',
      'VEHICLE_CHECKIN_EXITED',
    ]);
  });

  it('deny records the reason (STOP, STOPPED queued); a STOP visit can still be checked out', async () => {
    const created = await arrive(harness.world.api, harness.world.siteId, { licensePlate: uniquePlate() });
    const denied = await harness.world.api.post<VehicleCheckin>(`${visit(created)}/deny`, { reason: 'Not expected' });
    expect(denied.body).toMatchObject({ status: 'STOP', denyReason: 'Not expected' });
    const out = await harness.world.api.request<VehicleCheckin>('PATCH', `${visit(created)}/checkout`, { body: {} });
    expect(out.body).toMatchObject({ status: 'OUT', denyReason: 'Not expected', exit: { source: 'API' } });
    expect(await vehicleEvents(harness.server, created.checkinId)).toEqual([
      'VEHICLE_CHECKIN_PENDING',
      'VEHICLE_CHECKIN_STOPPED',
      'VEHICLE_CHECKIN_EXITED',
    ]);
  });

  it('checkout from PENDING works with POST …/checkout and no body; occurredAt before entry is clamped to it', async () => {
    const entered = minutesAgo(30);
    const created = await arrive(harness.world.api, harness.world.siteId, {
      licensePlate: uniquePlate(),
      occurredAt: entered,
    });
    const out = await harness.world.api.post<VehicleCheckin>(`${visit(created)}/checkout`);
    expect(out.body.status).toBe('OUT');
    const other = await arrive(harness.world.api, harness.world.siteId, {
      licensePlate: uniquePlate(),
      occurredAt: entered,
    });
    const clamped = await harness.world.api.patch<VehicleCheckin>(visit(other), { occurredAt: minutesAgo(60) });
    expect(clamped.body.exit?.at).toBe(entered);
  });

  it('approve and deny need checkins:approve and vehicles:write; checkout needs vehicles:write', async () => {
    const created = await arrive(harness.world.api, harness.world.siteId, { licensePlate: uniquePlate() });
    const gate = await clientWith(harness.server, harness.world, ['vehicles:read', 'vehicles:write']);
    expectProblem(await gate.post<Problem>(`${visit(created)}/approve`), 403, 'INSUFFICIENT_SCOPE');
    expectProblem(await gate.post<Problem>(`${visit(created)}/deny`), 403, 'INSUFFICIENT_SCOPE');
    // Approving people is not enough to let vehicles in (reception approves people only).
    const reception = await clientWith(harness.server, harness.world, ['checkins:approve']);
    expectProblem(await reception.post<Problem>(`${visit(created)}/approve`), 403, 'INSUFFICIENT_SCOPE');
    expectProblem(await reception.patch<Problem>(visit(created), {}), 403, 'INSUFFICIENT_SCOPE');
    const guard = await clientWith(harness.server, harness.world, ['checkins:approve', 'vehicles:write']);
    const approved = await guard.post<VehicleCheckin>(`${visit(created)}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.decidedBy).toMatchObject({ type: 'token', id: expect.any(Number) });
  });

  it('vehicles take no breaks: the break routes do not exist (404)', async () => {
    const created = await arrive(harness.world.api, harness.world.siteId, { licensePlate: uniquePlate() });
    expectProblem(await harness.world.api.post<Problem>(`${visit(created)}/breaks/start`), 404, 'NOT_FOUND');
    expectProblem(await harness.world.api.post<Problem>(`${visit(created)}/breaks/end`), 404, 'NOT_FOUND');
    expectProblem(await harness.world.api.put<Problem>(`${visit(created)}/breaks/end`), 404, 'NOT_FOUND');
  });
});

describe('idempotency and concurrency', () => {
  it('a keyed create replays byte for byte with no second visit or event; a stored 409 replays too', async () => {
    const plate = uniquePlate('KEY');
    const key = randomUUID();
    const first = await harness.world.api.post<VehicleCheckin>(
      visits(harness.world.siteId),
      { licensePlate: plate },
      { idempotencyKey: key },
    );
    const again = await harness.world.api.post<VehicleCheckin>(
      visits(harness.world.siteId),
      { licensePlate: plate },
      { idempotencyKey: key },
    );
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(await vehicleEvents(harness.server, first.body.checkinId)).toEqual(['VEHICLE_CHECKIN_PENDING']);

    const conflictKey = randomUUID();
    const refused = await harness.world.api.post<Problem>(
      visits(harness.world.siteId),
      { licensePlate: plate },
      { idempotencyKey: conflictKey },
    );
    expectProblem(refused, 409, 'VEHICLE_ALREADY_ON_SITE');
    const outKey = randomUUID();
    await harness.world.api.patch(visit(first.body), {}, { idempotencyKey: outKey });
    await harness.world.api.patch(visit(first.body), {}, { idempotencyKey: outKey });
    const replayed = await harness.world.api.post<Problem>(
      visits(harness.world.siteId),
      { licensePlate: plate },
      { idempotencyKey: conflictKey },
    );
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.text).toBe(refused.text);
    expect(await vehicleEvents(harness.server, first.body.checkinId)).toEqual([
      'VEHICLE_CHECKIN_PENDING',
      'VEHICLE_CHECKIN_EXITED',
    ]);
    // The stored refusal committed no event of its own.
    expect(await plateEvents(plate)).toEqual(['VEHICLE_CHECKIN_PENDING', 'VEHICLE_CHECKIN_EXITED']);
  });

  it('20 gates submitting one plate at once: exactly one 201, nineteen 409 VEHICLE_ALREADY_ON_SITE with it as current', async () => {
    const vehicle = await registerVehicle(harness.world.api, { licensePlate: uniquePlate('BURST') });
    const spellings = [
      vehicle.licensePlate,
      vehicle.licensePlate.toLowerCase(),
      vehicle.licensePlate.replaceAll('-', ' '),
    ];
    // Each gate sends its own Idempotency-Key, so each refusal is stored (committed) as well.
    const sends = Array.from({ length: 20 }, (_, index) => ({
      body: index % 4 === 3 ? { vehicleId: vehicle.vehicleId } : { licensePlate: spellings[index % 3] },
      key: randomUUID(),
    }));
    const send = () =>
      Promise.all(
        sends.map(({ body, key }) =>
          harness.world.api.post<VehicleCheckin | Problem>(visits(harness.world.siteId), body, { idempotencyKey: key }),
        ),
      );
    const responses = await send();
    // Every key replays exactly what its request got (a lost race left no record of its own behind).
    const replays = await send();
    expect(replays.map((response) => [response.status, response.text])).toEqual(
      responses.map((response) => [response.status, response.text]),
    );
    const created = responses.filter(isVisit);
    expect(created.map((response) => response.status)).toEqual([201]);
    const winner = created[0]?.body;
    const refused = responses.filter(isProblem);
    expect(refused).toHaveLength(19);
    for (const response of refused) {
      expectProblem(response, 409, 'VEHICLE_ALREADY_ON_SITE');
      expect(response.body.current).toEqual(winner);
    }
    const open = await queryOne<{ count: number }>(
      harness.server.database,
      sql`SELECT count(*)::int AS count FROM vehicle_checkins WHERE plate_norm = ${vehicle.licensePlate.replaceAll('-', '')}`,
    );
    expect(open?.count).toBe(1);
    expect(await vehicleEvents(harness.server, winner?.checkinId ?? 0)).toEqual(['VEHICLE_CHECKIN_ENTERED']);
    // The refused creates wrote no event either (each had drawn a check-in id of its own).
    const events = await queryOne<{ count: number }>(
      harness.server.database,
      sql`SELECT count(*)::int AS count FROM outbox_events WHERE payload->'data'->'checkin'->>'vehicleId' = ${String(vehicle.vehicleId)}`,
    );
    expect(events?.count).toBe(1);
  });

  it('20 simultaneous checkouts: one 200, nineteen 409 CHECKIN_CLOSED, one EXITED', async () => {
    const created = await arrive(harness.world.api, harness.world.siteId, { licensePlate: uniquePlate() });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => harness.world.api.patch<VehicleCheckin | Problem>(visit(created), {})),
    );
    expect(responses.filter(isVisit).map((response) => response.status)).toEqual([200]);
    const refused = responses.filter(isProblem);
    expect(refused).toHaveLength(19);
    for (const response of refused) expectProblem(response, 409, 'CHECKIN_CLOSED');
    expect(await vehicleEvents(harness.server, created.checkinId)).toEqual([
      'VEHICLE_CHECKIN_PENDING',
      'VEHICLE_CHECKIN_EXITED',
    ]);
  });
});

describe('access and isolation', () => {
  it('GET one visit: 200; unknown, on another site, or not an id: 404', async () => {
    const created = await arrive(harness.world.api, harness.world.siteId, { licensePlate: uniquePlate() });
    expect((await harness.world.api.get(visit(created))).status).toBe(200);
    expectProblem(await harness.world.api.get<Problem>(`${visits(harness.world.siteId)}/999999999`), 404, 'NOT_FOUND');
    expectProblem(
      await harness.world.api.get<Problem>(`${visits(harness.world.otherSiteId)}/${created.checkinId}`),
      404,
      'NOT_FOUND',
    );
    expectProblem(
      await harness.world.api.patch<Problem>(`${visits(harness.world.otherSiteId)}/${created.checkinId}`, {}),
      404,
      'NOT_FOUND',
    );
    expectProblem(await harness.world.api.get<Problem>(`${visits(harness.world.siteId)}/abc`), 404, 'NOT_FOUND');
  });

  it('scopes: creating needs vehicles:write, reading vehicles:read; a site the token cannot view is 404; no token 401', async () => {
    const created = await arrive(harness.world.api, harness.world.siteId, { licensePlate: uniquePlate() });
    const reader = await clientWith(harness.server, harness.world, ['vehicles:read']);
    expect((await reader.get(visit(created))).status).toBe(200);
    expectProblem(
      await reader.post<Problem>(visits(harness.world.siteId), { licensePlate: uniquePlate() }),
      403,
      'INSUFFICIENT_SCOPE',
    );
    expectProblem(await reader.patch<Problem>(visit(created), {}), 403, 'INSUFFICIENT_SCOPE');
    const people = await clientWith(harness.server, harness.world, ['checkins:read', 'checkins:write']);
    expectProblem(await people.get<Problem>(visit(created)), 403, 'INSUFFICIENT_SCOPE');
    expectProblem(
      await people.post<Problem>(visits(harness.world.siteId), { licensePlate: uniquePlate() }),
      403,
      'INSUFFICIENT_SCOPE',
    );
    const elsewhere = await buildSite(harness.server, harness.world.accountId);
    const narrow = await clientWith(
      harness.server,
      harness.world,
      ['vehicles:read', 'vehicles:write'],
      [elsewhere.siteId],
    );
    expectProblem(await narrow.get<Problem>(visit(created)), 404, 'NOT_FOUND');
    expectProblem(
      await narrow.post<Problem>(visits(harness.world.siteId), { licensePlate: uniquePlate() }),
      404,
      'NOT_FOUND',
    );
    expectProblem(
      await apiClient(harness.server.baseUrl).post<Problem>(visits(harness.world.siteId), {
        licensePlate: uniquePlate(),
      }),
      401,
      'UNAUTHENTICATED',
    );
  });

  it('another account can neither see nor change a visit, and its own gate admits the same plate independently', async () => {
    const mine = await arrive(harness.world.api, harness.world.siteId, { licensePlate: 'XACC 1' });
    expectProblem(await harness.stranger.api.get<Problem>(visit(mine)), 404, 'NOT_FOUND');
    expectProblem(await harness.stranger.api.patch<Problem>(visit(mine), {}), 404, 'NOT_FOUND');
    expectProblem(await harness.stranger.api.post<Problem>(`${visit(mine)}/approve`), 404, 'NOT_FOUND');
    expectProblem(
      await harness.stranger.api.post<Problem>(visits(harness.world.siteId), { licensePlate: 'XACC 1' }),
      404,
      'NOT_FOUND',
    );
    const theirs = await arrive(harness.stranger.api, harness.stranger.siteId, { licensePlate: 'XACC 1' });
    expect(theirs.status).toBe('PENDING');
    expect((await harness.world.api.get<VehicleCheckin>(visit(mine))).body).toEqual(mine);
  });
});
