import { describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { queryOne } from '../../server/src/db/query';
import { type WriteRequest, runWrite } from '../../server/src/idempotency/runWrite';
import type { WriteStatement } from '../../server/src/reply';
import { visitor } from '../support/factories';
import { serverAndWorld } from '../support/serverAndWorld';
import { sql } from '../../server/src/db/sql';

const harness = serverAndWorld();

const people = () => `/v1/sites/${harness.world.siteId}/checkins/people`;

async function newCheckin(): Promise<PersonCheckin> {
  const response = await harness.world.api.post<PersonCheckin>(people(), visitor());
  expect(response.status).toBe(201);
  return response.body;
}

const statuses = (responses: Array<{ status: number }>) => responses.map((response) => response.status).sort();

describe('the database holds the invariants under concurrent requests', () => {
  it('20 simultaneous break starts on one check-in: exactly one 200, the rest 409 BREAK_ALREADY_OPEN', async () => {
    const checkin = await newCheckin();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        harness.world.api.post<{ code?: string }>(`${people()}/${checkin.checkinId}/breaks/start`),
      ),
    );
    expect(statuses(responses).filter((status) => status === 200)).toHaveLength(1);
    expect(
      responses
        .filter((response) => response.status === 409)
        .every((response) => response.body.code === 'BREAK_ALREADY_OPEN'),
    ).toBe(true);
    const open = await queryOne<{ count: number }>(
      harness.server.database,
      sql`SELECT count(*)::int AS count FROM person_breaks WHERE checkin_id = ${checkin.checkinId} AND ended_at IS NULL`,
    );
    expect(open?.count).toBe(1);
  });

  it('20 simultaneous checkouts: exactly one 200, the rest 409 CHECKIN_CLOSED, one exit event', async () => {
    const checkin = await newCheckin();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        harness.world.api.patch<{ code?: string }>(`${people()}/${checkin.checkinId}`, {}),
      ),
    );
    expect(statuses(responses).filter((status) => status === 200)).toHaveLength(1);
    expect(
      responses
        .filter((response) => response.status === 409)
        .every((response) => response.body.code === 'CHECKIN_CLOSED'),
    ).toBe(true);
    const events = await queryOne<{ count: number }>(
      harness.server.database,
      sql`SELECT count(*)::int AS count FROM outbox_events WHERE type = 'PERSON_CHECKIN_EXITED' AND payload->'data'->'checkin'->>'checkinId' = ${String(checkin.checkinId)}`,
    );
    expect(events?.count).toBe(1);
  });

  it('break start, break end and checkout racing each other leave a consistent check-in', async () => {
    const checkin = await newCheckin();
    const item = `${people()}/${checkin.checkinId}`;
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        index % 3 === 0
          ? harness.world.api.post(`${item}/breaks/start`)
          : index % 3 === 1
            ? harness.world.api.post(`${item}/breaks/end`)
            : harness.world.api.patch(item, {}),
      ),
    );
    const final = await harness.world.api.get<PersonCheckin>(item);
    expect(final.body.status).toBe('OUT');
    expect(final.body.breaks.every((item) => item.endedAt !== null)).toBe(true);
  });

  it('keyed transitions racing on one check-in: one effect per action, and every key replays what its request got', async () => {
    const checkin = await newCheckin();
    const item = `${people()}/${checkin.checkinId}`;
    const requests = Array.from({ length: 24 }, (_, index) => ({
      key: `race-${checkin.checkinId}-${index}`,
      path: ['/breaks/start', '/breaks/end', '/checkout'][index % 3] ?? '',
    }));
    const first = await Promise.all(
      requests.map((request) =>
        harness.world.api.post(`${item}${request.path}`, undefined, { idempotencyKey: request.key }),
      ),
    );
    const again = await Promise.all(
      requests.map((request) =>
        harness.world.api.post(`${item}${request.path}`, undefined, { idempotencyKey: request.key }),
      ),
    );
    expect(first.every((response) => response.status === 200 || response.status === 409)).toBe(true);
    expect(again.map((response) => [response.status, response.text])).toEqual(
      first.map((response) => [response.status, response.text]),
    );
    const db = harness.server.database;
    const breaks = await queryOne<{ started: number; open: number }>(
      db,
      sql`SELECT count(*)::int AS started, count(*) FILTER (WHERE ended_at IS NULL)::int AS open FROM person_breaks WHERE checkin_id = ${checkin.checkinId}`,
    );
    const okStarts = first.filter(
      (response, index) => response.status === 200 && requests[index]?.path === '/breaks/start',
    ).length;
    const okCheckouts = first.filter(
      (response, index) => response.status === 200 && requests[index]?.path === '/checkout',
    ).length;
    expect(breaks?.started).toBe(okStarts);
    expect(breaks?.open).toBe(0);
    expect(okCheckouts).toBe(1);
    const exits = await queryOne<{ count: number }>(
      db,
      sql`SELECT count(*)::int AS count FROM outbox_events WHERE type = 'PERSON_CHECKIN_EXITED' AND payload->'data'->'checkin'->>'checkinId' = ${String(checkin.checkinId)}`,
    );
    expect(exits?.count).toBe(1);
  });

  /** A statement-mode write through the runner, with `write` as the command's one statement. */
  const statementWrite = (
    key: string | undefined,
    write: WriteStatement,
    onRun: () => void = () => undefined,
  ): WriteRequest => ({
    db: harness.server.database,
    accountId: harness.world.accountId,
    key,
    stored: undefined,
    fingerprint: 'f',
    instance: '/test',
    requestId: 'r',
    now: new Date(),
    since: new Date(0),
    atomicity: 'statement',
    execute: () => {
      onRun();
      return Promise.resolve({ status: 200, body: {}, write });
    },
  });
  const keysStored = async (key: string) =>
    (
      await queryOne<{ count: number }>(
        harness.server.database,
        sql`SELECT count(*)::int AS count FROM idempotency_keys WHERE account_id = ${harness.world.accountId} AND key = ${key}`,
      )
    )?.count;

  it('a write whose row changed after it was read is undone whole, its Idempotency-Key record included', async () => {
    const checkin = await newCheckin();
    const key = `stale-${checkin.checkinId}`;
    // A version that is not the row's: the update applies to nothing, so the statement must keep nothing.
    const write: WriteStatement = (parts) => sql`
      WITH ${parts.claim},
      checkin AS (UPDATE person_checkins SET status = 'OUT'
        WHERE account_id = ${harness.world.accountId} AND id = ${checkin.checkinId} AND xmin = '1'::xid AND ${parts.claimed} RETURNING 1),
      ${parts.audit(sql`EXISTS (SELECT 1 FROM checkin)`)}
      SELECT ${parts.outcome(sql`EXISTS (SELECT 1 FROM checkin)`)}`;
    for (const sent of [key, undefined])
      await expect(runWrite(statementWrite(sent, write))).rejects.toMatchObject({ status: 503, code: 'UNAVAILABLE' });
    expect(await keysStored(key)).toBe(0);
    expect((await harness.world.api.get<PersonCheckin>(`${people()}/${checkin.checkinId}`)).body.status).toBe('IN');
  });

  it('a command that loses the race five times in a row answers 503 UNAVAILABLE and keeps nothing', async () => {
    let runs = 0;
    const key = `always-stale-${Date.now()}`;
    // A write that never applies, as when another change always gets to the row first.
    const never: WriteStatement = (parts) =>
      sql`WITH ${parts.claim}, never AS (SELECT 1 WHERE ${parts.claimed} AND false), ${parts.audit(sql`false`)}
          SELECT ${parts.outcome(sql`false`)}`;
    const attempt = runWrite(
      statementWrite(key, never, () => {
        runs += 1;
      }),
    );
    await expect(attempt).rejects.toMatchObject({ status: 503, code: 'UNAVAILABLE' });
    expect(runs).toBe(5);
    expect(await keysStored(key)).toBe(0);
  });

  it('the one-open-break rule is a database constraint, not only code', async () => {
    const checkin = await newCheckin();
    const db = harness.server.database;
    await queryOne(
      db,
      sql`INSERT INTO person_breaks (account_id, checkin_id, started_at) VALUES (${harness.world.accountId}, ${checkin.checkinId}, now())`,
    );
    await expect(
      queryOne(
        db,
        sql`INSERT INTO person_breaks (account_id, checkin_id, started_at) VALUES (${harness.world.accountId}, ${checkin.checkinId}, now())`,
      ),
    ).rejects.toMatchObject({ code: '23505', constraint: 'person_breaks_one_open' });
  });
});
