import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { VehicleCheckin } from '../../shared/src/schemas/vehicles';
import { queryRows } from '../../server/src/db/query';
import { type World, buildWorld, visitor } from '../support/factories';
import { type ApiClient, apiClient } from '../support/http';
import { type TestServer, startTestServer } from '../support/testServer';
import { arrive } from '../support/vehicles';
import { sql } from '../../server/src/db/sql';

// Two instances on one database, the second with a clock a minute behind the first's: what a request that
// read the clock before a concurrent change but commits after it looks like, only every time.
let ahead: TestServer;
let behind: TestServer;
let world: World;
let late: ApiClient;

beforeAll(async () => {
  ahead = await startTestServer();
  behind = await startTestServer({}, { databaseUrl: ahead.databaseUrl, clock: () => new Date(Date.now() - 60_000) });
  world = await buildWorld(ahead);
  late = apiClient(behind.baseUrl, world.token);
});
afterAll(async () => {
  await behind?.close();
  await ahead?.close();
});

/** Each event's createdAt (envelope and row) and its check-in's updatedAt, in the order they were written. */
async function eventsOf(
  checkinId: number,
): Promise<Array<{ type: string; createdAt: string; rowAt: Date; updatedAt: string }>> {
  return queryRows(
    ahead.database,
    sql`SELECT payload->>'type' AS type, payload->>'createdAt' AS "createdAt", created_at AS "rowAt",
       payload->'data'->'checkin'->>'updatedAt' AS "updatedAt"
     FROM outbox_events WHERE account_id = ${world.accountId} AND payload->'data'->'checkin'->>'checkinId' = ${String(checkinId)} ORDER BY id`,
  );
}

function expectGrowing(times: number[]): void {
  for (let i = 1; i < times.length; i += 1)
    expect(times[i], `change ${i} after change ${i - 1}`).toBeGreaterThan(times[i - 1] ?? Infinity);
}

describe("the times of one check-in's changes", () => {
  it("only grow, whichever instance (or however late a clock) makes the change: updatedAt and every event's createdAt", async () => {
    const people = `/v1/sites/${world.siteId}/checkins/people`;
    const created = await world.api.post<PersonCheckin>(people, visitor('Order', 'Person'));
    expect(created.status).toBe(201);
    const item = `${people}/${created.body.checkinId}`;
    const started = await late.post<PersonCheckin>(`${item}/breaks/start`);
    const ended = await world.api.post<PersonCheckin>(`${item}/breaks/end`);
    const out = await late.patch<PersonCheckin>(item, {});
    expect([started.status, ended.status, out.status]).toEqual([200, 200, 200]);
    expectGrowing([created, started, ended, out].map((answer) => Date.parse(answer.body.updatedAt)));

    const events = await eventsOf(created.body.checkinId);
    expect(events.map((event) => event.type)).toEqual([
      'PERSON_CHECKIN_ENTERED',
      'PERSON_BREAK_STARTED',
      'PERSON_BREAK_ENDED',
      'PERSON_CHECKIN_EXITED',
    ]);
    expectGrowing(events.map((event) => Date.parse(event.createdAt)));
    expectGrowing(events.map((event) => event.rowAt.getTime()));
    for (const event of events) expect(event.updatedAt).toBe(event.createdAt);
    // A receiver that keeps the latest by createdAt ends where the check-in is.
    const last = [...events].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt)).at(-1);
    expect(last?.type).toBe('PERSON_CHECKIN_EXITED');
  });

  it('only grow for a vehicle visit too', async () => {
    const visit = await arrive(world.api, world.siteId, { licensePlate: 'ORD 1' });
    const path = `/v1/sites/${world.siteId}/checkins/vehicles/${visit.checkinId}`;
    const out = await late.patch<VehicleCheckin>(path, {});
    expect(out.status).toBe(200);
    expect(Date.parse(out.body.updatedAt)).toBeGreaterThan(Date.parse(visit.updatedAt));
    expectGrowing(
      (await eventsOf(visit.checkinId))
        .filter((event) => event.type.startsWith('VEHICLE'))
        .map((event) => Date.parse(event.createdAt)),
    );
  });
});
