import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { queryOne } from '../../server/src/db/query';
import { type World, buildWorld, visitor } from '../support/factories';
import { type TestServer, startTestServer } from '../support/testServer';

let server: TestServer;
let world: World;

beforeAll(async () => {
  server = await startTestServer();
  world = await buildWorld(server);
});
afterAll(async () => server?.close());

const people = () => `/v1/sites/${world.siteId}/checkins/people`;

async function newCheckin(): Promise<PersonCheckin> {
  const response = await world.api.post<PersonCheckin>(people(), visitor());
  expect(response.status).toBe(201);
  return response.body;
}

const statuses = (responses: Array<{ status: number }>) => responses.map((response) => response.status).sort();

describe('the database holds the invariants under concurrent requests', () => {
  it('20 simultaneous break starts on one check-in: exactly one 200, the rest 409 BREAK_ALREADY_OPEN', async () => {
    const checkin = await newCheckin();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => world.api.post<{ code?: string }>(`${people()}/${checkin.checkinId}/breaks/start`)),
    );
    expect(statuses(responses).filter((status) => status === 200)).toHaveLength(1);
    expect(responses.filter((response) => response.status === 409).every((response) => response.body.code === 'BREAK_ALREADY_OPEN')).toBe(true);
    const open = await queryOne<{ count: number }>(
      { sequelize: server.sequelize },
      'SELECT count(*)::int AS count FROM person_breaks WHERE checkin_id = $1 AND ended_at IS NULL',
      [checkin.checkinId],
    );
    expect(open?.count).toBe(1);
  });

  it('20 simultaneous checkouts: exactly one 200, the rest 409 CHECKIN_CLOSED, one exit event', async () => {
    const checkin = await newCheckin();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => world.api.patch<{ code?: string }>(`${people()}/${checkin.checkinId}`, {})),
    );
    expect(statuses(responses).filter((status) => status === 200)).toHaveLength(1);
    expect(responses.filter((response) => response.status === 409).every((response) => response.body.code === 'CHECKIN_CLOSED')).toBe(true);
    const events = await queryOne<{ count: number }>(
      { sequelize: server.sequelize },
      `SELECT count(*)::int AS count FROM outbox_events WHERE type = 'PERSON_CHECKIN_EXITED' AND payload->'data'->'checkin'->>'checkinId' = $1`,
      [String(checkin.checkinId)],
    );
    expect(events?.count).toBe(1);
  });

  it('break start, break end and checkout racing each other leave a consistent check-in', async () => {
    const checkin = await newCheckin();
    const item = `${people()}/${checkin.checkinId}`;
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        index % 3 === 0 ? world.api.post(`${item}/breaks/start`) : index % 3 === 1 ? world.api.post(`${item}/breaks/end`) : world.api.patch(item, {}),
      ),
    );
    const final = await world.api.get<PersonCheckin>(item);
    expect(final.body.status).toBe('OUT');
    expect(final.body.breaks.every((item) => item.endedAt !== null)).toBe(true);
  });

  it('the one-open-break rule is a database constraint, not only code', async () => {
    const checkin = await newCheckin();
    const db = { sequelize: server.sequelize };
    await queryOne(db, 'INSERT INTO person_breaks (account_id, checkin_id, started_at) VALUES ($1, $2, now())', [world.accountId, checkin.checkinId]);
    await expect(
      queryOne(db, 'INSERT INTO person_breaks (account_id, checkin_id, started_at) VALUES ($1, $2, now())', [world.accountId, checkin.checkinId]),
    ).rejects.toMatchObject({ code: '23505', constraint: 'person_breaks_one_open' });
  });
});
