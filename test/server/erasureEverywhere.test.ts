import { describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { defaultCheckinConfig } from '../../shared/src/schemas/sites';
import { up as cleanMissed } from '../../server/src/db/migrations/0024_erasure_everywhere';
import { queryOne, queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import { anonymizeExpiredVisits } from '../../server/src/jobs/personDataRetention';
import { personDataHolders } from '../../server/src/privacy/personDataHolders';
import { type World, buildWorld } from '../support/factories';
import { runMigration } from '../support/migration';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

// Issue 31, H1: after an erasure or a retention run, nothing in the database names the person: every
// table is walked (tables added later included), and every kind of outbox event the visit made.
const harness = serverAndWorld({ env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' }, worldPerTest: true });
const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;
const DAY = 86_400_000;

interface Person {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  company: string;
}

const personNamed = (tag: string): Person => ({
  firstName: `Zenobia${tag}`,
  lastName: `Quillfeather${tag}`,
  email: `zenobia.${tag.toLowerCase()}@example.com`,
  phone: `+44 20 7946 ${tag.length}999`,
  company: `Quillworks${tag}`,
});

/** What would name the person, wherever it is stored. */
const traces = (person: Person) => [person.firstName, person.lastName, person.email, person.company, 'Hostelda'];

/**
 * A visit through everything that copies a person: a keyed create, both break events, a refused break
 * (a 409 whose `current` is stored), a checkout; and at a site that asks for approval, a keyed deny whose
 * reason names them, and the acknowledgement of its alert (whose `subject` is the name).
 */
async function fullVisit(world: World, person: Person, occurredAt?: (minutes: number) => string) {
  const owner = (await staffClient(harness.server, { accountId: world.accountId, role: 'owner' })).api;
  const fields = [...defaultCheckinConfig.fields, { name: 'hostName', label: 'Host', type: 'text', required: false }];
  for (const [siteId, requiresApproval] of [
    [world.siteId, false],
    [world.otherSiteId, true],
  ] as const)
    expect((await world.api.put(`${people(siteId)}/config`, { requiresApproval, fields })).status).toBe(200);
  const at = (minutes: number) => (occurredAt ? { occurredAt: occurredAt(minutes) } : {});
  const body = { person, hostName: 'Hostelda Host', purpose: `Visit of ${person.lastName}`, ...at(0) };
  const created = await world.api.post<PersonCheckin>(people(world.siteId), body, { idempotencyKey: 'v-create' });
  expect(created.status).toBe(201);
  const item = `${people(world.siteId)}/${created.body.checkinId}`;
  const keyed = (key: string) => ({ idempotencyKey: key });
  expect((await world.api.post(`${item}/breaks/start`, at(10), keyed('v-break-start'))).status).toBe(200);
  expect((await world.api.post(`${item}/breaks/end`, at(20), keyed('v-break-end'))).status).toBe(200);
  expect((await world.api.post(`${item}/breaks/end`, at(21), keyed('v-break-end-again'))).status).toBe(409);
  expect((await world.api.post(`${item}/checkout`, at(30), keyed('v-checkout'))).status).toBe(200);

  const waiting = await world.api.post<PersonCheckin>(people(world.otherSiteId), body, keyed('w-create'));
  expect(waiting.body.status).toBe('PENDING');
  const denied = await owner.post(
    `${people(world.otherSiteId)}/${waiting.body.checkinId}/deny`,
    { reason: `${person.firstName} was here before` },
    keyed('w-deny'),
  );
  expect(denied.status).toBe(200);
  const acknowledged = await owner.post(`/v1/alerts/person/${waiting.body.checkinId}/acknowledge`, {}, keyed('w-ack'));
  expect(acknowledged.status).toBe(200);
  expect(acknowledged.text).toContain(person.firstName);
  return { ids: [created.body.checkinId, waiting.body.checkinId], owner };
}

/** Every table of the database, each row as text, searched for any trace: `table: count` where found. */
async function whereTheyAre(person: Person): Promise<Record<string, number>> {
  const tables = await queryRows<{ name: string }>(
    harness.server.database,
    sql`SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const found: Record<string, number> = {};
  const patterns = traces(person).map((trace) => `%${trace}%`);
  for (const { name } of tables) {
    // Table names come from the catalog, quoted as identifiers.
    const row = await harness.server.sequelize.query(
      `SELECT count(*)::int AS n FROM "${name.replace(/"/g, '""')}" t WHERE t::text ILIKE ANY ($1)`,
      { bind: [patterns], plain: true },
    );
    const n = (row as { n?: number } | null)?.n ?? 0;
    if (n > 0) found[name] = n;
  }
  return found;
}

/** The kinds of outbox events the visits made: each is walked by whereTheyAre, here only listed. */
async function eventTypes(accountId: number, ids: number[]): Promise<string[]> {
  const rows = await queryRows<{ type: string }>(
    harness.server.database,
    sql`SELECT DISTINCT type FROM outbox_events WHERE account_id = ${accountId}
        AND (payload #>> '{data,checkin,checkinId}')::bigint = ANY(${ids}::bigint[]) ORDER BY type`,
  );
  return rows.map((row) => row.type);
}

const EVERY_PERSON_EVENT = [
  'PERSON_BREAK_ENDED',
  'PERSON_BREAK_STARTED',
  'PERSON_CHECKIN_ENTERED',
  'PERSON_CHECKIN_EXITED',
  'PERSON_CHECKIN_PENDING',
  'PERSON_CHECKIN_STOPPED',
];

describe('nothing names the person afterwards', () => {
  it('after an erasure: no table, no event of any kind, no stored reply, alert or audit row', async () => {
    const { world } = harness;
    const person = personNamed('Erased');
    const { ids, owner } = await fullVisit(world, person);
    expect(await eventTypes(world.accountId, ids)).toEqual(EVERY_PERSON_EVENT);
    expect(Object.keys(await whereTheyAre(person))).toEqual(
      expect.arrayContaining(['idempotency_keys', 'outbox_events', 'person_checkins']),
    );
    const erased = await owner.post<{ anonymized: number }>('/v1/privacy/erasure', { email: person.email });
    expect(erased.body).toEqual({ anonymized: 2 });
    expect(await whereTheyAre(person)).toEqual({});
    // The replays answer what is stored now.
    const replay = await owner.post<{ subject: string }>(
      `/v1/alerts/person/${ids[1] ?? 0}/acknowledge`,
      {},
      { idempotencyKey: 'w-ack' },
    );
    expect(replay.status).toBe(200);
    expect(replay.text).not.toContain(person.firstName);
  });

  it('after a retention run: the same', async () => {
    const { world } = harness;
    const person = personNamed('Expired');
    const start = Date.now() - 3 * DAY;
    const { ids } = await fullVisit(world, person, (minutes) => new Date(start + minutes * 60_000).toISOString());
    expect(await eventTypes(world.accountId, ids)).toEqual(EVERY_PERSON_EVENT);
    await queryRows(
      harness.server.database,
      sql`UPDATE accounts SET person_data_days = 1 WHERE id = ${world.accountId}`,
    );
    const done = await anonymizeExpiredVisits(harness.server.database, new Date());
    expect(done.checkins).toBeGreaterThanOrEqual(2);
    expect(await whereTheyAre(person)).toEqual({});
  });

  it('every table the registry names exists, and says what it holds', async () => {
    for (const holder of personDataHolders) {
      const row = await queryOne<{ n: number }>(
        harness.server.database,
        sql`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = ${holder.table}`,
      );
      expect(row?.n, holder.table).toBe(1);
      expect(holder.holds.length, holder.table).toBeGreaterThan(10);
    }
  });

  it('migration 0024 cleans what earlier erasures left in break events and stored replies', async () => {
    const { world } = harness;
    const person = personNamed('Leftover');
    const { ids } = await fullVisit(world, person);
    // An erasure as it ran before: the check-in and its PERSON_CHECKIN_* events only.
    await queryRows(
      harness.server.database,
      sql`UPDATE person_checkins SET first_name = 'Deleted', last_name = 'Deleted', email = NULL, phone = NULL,
            company = NULL, host_name = NULL, purpose = NULL, custom_fields = '{}', anonymized_at = now()
          WHERE id = ANY(${ids}::bigint[])`,
    );
    expect(Object.keys(await whereTheyAre(person)).sort()).toEqual([
      'idempotency_keys',
      'outbox_events',
      'person_checkins',
    ]);
    expect(await runMigration(harness.server.sequelize, cleanMissed)).toEqual([]);
    expect(await whereTheyAre(person)).toEqual({});
  });
});

describe('a token from another account', () => {
  it('cannot erase this account’s visitors', async () => {
    const { world } = harness;
    const person = personNamed('Kept');
    await fullVisit(world, person);
    const stranger = await buildWorld(harness.server);
    const owner = (await staffClient(harness.server, { accountId: stranger.accountId, role: 'owner' })).api;
    expect((await owner.post<{ anonymized: number }>('/v1/privacy/erasure', { email: person.email })).body).toEqual({
      anonymized: 0,
    });
    expect(Object.keys(await whereTheyAre(person))).toContain('person_checkins');
  });
});
