import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { erasureHashText, erasureIdentifiers } from '../../shared/src/domain/privacy';
import type { AuditEvent } from '../../shared/src/schemas/audit';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { defaultCheckinConfig } from '../../shared/src/schemas/sites';
import { queryOne, queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import { anonymizeExpiredVisits } from '../../server/src/jobs/personDataRetention';
import { type World, buildToken, buildWorld, visitor } from '../support/factories';
import { type ApiClient, apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

// Retention and erasure of visitors' personal data (docs/privacy.md), over HTTP on a real database.
const harness = serverAndWorld({ env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' }, stranger: true });
const DAY = 86_400_000;
const NOW = new Date();
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();
const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;

const fields = [
  ...defaultCheckinConfig.fields,
  { name: 'phone', label: 'Phone', type: 'phone', required: false },
  { name: 'hostName', label: 'Host', type: 'text', required: false },
  { name: 'purpose', label: 'Purpose', type: 'text', required: false },
  { name: 'badge', label: 'Badge', type: 'text', required: false },
] as const;

async function openForms(world: World) {
  for (const siteId of [world.siteId, world.otherSiteId]) {
    expect((await world.api.put(`${people(siteId)}/config`, { requiresApproval: false, fields })).status).toBe(200);
  }
}

/** A visit with every kind of person data, made at `entry` (and left at `exit`), under an Idempotency-Key. */
async function visit(
  world: World,
  siteId: number,
  name: string,
  times: { entry: string; exit?: string },
  person: Record<string, string> = {},
) {
  const body = visitor(name, 'Visitor', {
    person: {
      firstName: name,
      lastName: 'Visitor',
      email: `${name.toLowerCase()}@example.com`,
      phone: '+44 20 7946 0000',
      company: 'Acme',
      ...person,
    },
    hostName: 'Hilda Host',
    purpose: 'Meeting',
    customFields: { badge: 'B-7' },
  });
  const created = await world.api.post<PersonCheckin>(people(siteId), body, {
    idempotencyKey: `create-${name}-${siteId}`,
  });
  expect(created.status, name).toBe(201);
  const id = created.body.checkinId;
  if (times.exit) {
    expect((await world.api.post(`${people(siteId)}/${id}/breaks/start`)).status).toBe(200);
    expect((await world.api.post(`${people(siteId)}/${id}/checkout`)).status).toBe(200);
  }
  await queryRows(
    harness.server.database,
    sql`UPDATE person_checkins SET entry_at = ${times.entry}::timestamptz,
    exit_at = coalesce(${times.exit ?? null}::timestamptz, exit_at) WHERE id = ${id}`,
  );
  return { id, siteId, body, key: `create-${name}-${siteId}` };
}
type Visit = Awaited<ReturnType<typeof visit>>;

const read = (world: World, v: Visit) => world.api.get<PersonCheckin>(`${people(v.siteId)}/${v.id}`);

/** The webhook events' copies of a check-in (every person event carries it whole). */
async function eventCopies(accountId: number, checkinId: number) {
  const rows = await queryRows<{ checkin: PersonCheckin }>(
    harness.server.database,
    sql`SELECT payload #> '{data,checkin}' AS checkin FROM outbox_events
        WHERE account_id = ${accountId} AND (payload #>> '{data,checkin,checkinId}')::bigint = ${checkinId} AND type LIKE 'PERSON_CHECKIN_%'`,
  );
  return rows.map((row) => row.checkin);
}

function expectAnonymous(checkin: PersonCheckin) {
  expect(checkin.person).toEqual({
    firstName: 'Deleted',
    lastName: 'Deleted',
    email: null,
    phone: null,
    company: null,
  });
  expect(checkin.hostName).toBeNull();
  expect(checkin.purpose).toBeNull();
  expect(checkin.customFields).toEqual({});
}

function expectKept(checkin: PersonCheckin, name: string) {
  expect(checkin.person.firstName).toBe(name);
  expect(checkin.person.email).toBe(`${name.toLowerCase()}@example.com`);
  expect(checkin.hostName).toBe('Hilda Host');
  expect(checkin.customFields).toEqual({ badge: 'B-7' });
}

let owner: ApiClient;

beforeAll(async () => {
  const { world, stranger, server } = harness;
  owner = (await staffClient(server, { accountId: world.accountId, role: 'owner' })).api;
  await openForms(world);
  await openForms(stranger);
});

describe('retention setting', () => {
  it('is null until set; an owner sets and reads it; the change is audited', async () => {
    expect((await owner.get('/v1/account/retention')).body).toEqual({ personDataDays: null });
    const set = await owner.put('/v1/account/retention', { personDataDays: 30 });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ personDataDays: 30 });
    expect((await owner.get('/v1/account/retention')).body).toEqual({ personDataDays: 30 });
    const audit = await owner.get<{ data: AuditEvent[] }>('/v1/audit-events?action=account.retention');
    expect(audit.body.data[0]).toMatchObject({
      action: 'account.retention',
      target: { type: 'account', id: harness.world.accountId },
      siteId: null,
    });
  });

  it('refuses days outside 1..3650, fractions, text and a missing value with 422', async () => {
    for (const body of [
      { personDataDays: 0 },
      { personDataDays: 3651 },
      { personDataDays: 1.5 },
      { personDataDays: '30' },
      {},
      { personDataDays: 30, extra: 1 },
    ]) {
      const refused = await owner.put<{ code: string }>('/v1/account/retention', body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await owner.get('/v1/account/retention')).body).toEqual({ personDataDays: 30 });
  });

  it('is 403 without privacy:manage (a token, a manager), and for a token limited to some sites', async () => {
    const { world, server } = harness;
    const manager = (
      await staffClient(server, { accountId: world.accountId, role: 'manager', siteIds: [world.siteId] })
    ).api;
    const limited = await buildToken(server, {
      accountId: world.accountId,
      siteIds: [world.siteId],
      scopes: ['privacy:manage'],
    });
    for (const [name, api] of [
      ['token', world.api],
      ['manager', manager],
    ] as const) {
      expect((await api.get('/v1/account/retention')).status, name).toBe(403);
      expect((await api.put('/v1/account/retention', { personDataDays: 1 })).status, name).toBe(403);
      expect((await api.post('/v1/privacy/erasure', { email: 'a@example.com' })).status, name).toBe(403);
    }
    const limitedApi = apiClient(server.baseUrl, limited.token);
    expect((await limitedApi.put('/v1/account/retention', { personDataDays: 1 })).status).toBe(403);
    expect((await limitedApi.post('/v1/privacy/erasure', { email: 'a@example.com' })).status).toBe(403);
    expect((await owner.get('/v1/account/retention')).body).toEqual({ personDataDays: 30 });
  });
});

describe('the retention job', () => {
  let visits: Record<'leftLongAgo' | 'otherSite' | 'neverLeft' | 'leftLately' | 'today' | 'stranger', Visit>;

  beforeAll(async () => {
    const { world, stranger } = harness;
    visits = {
      leftLongAgo: await visit(world, world.siteId, 'Leftlong', { entry: daysAgo(40), exit: daysAgo(35) }),
      otherSite: await visit(world, world.otherSiteId, 'Othersite', { entry: daysAgo(32), exit: daysAgo(31) }),
      neverLeft: await visit(world, world.siteId, 'Neverleft', { entry: daysAgo(31) }),
      leftLately: await visit(world, world.siteId, 'Leftlately', { entry: daysAgo(40), exit: daysAgo(29) }),
      today: await visit(world, world.siteId, 'Today', { entry: daysAgo(0.1) }),
      // The other account keeps everything: it has no retention.
      stranger: await visit(stranger, stranger.siteId, 'Stranger', { entry: daysAgo(400), exit: daysAgo(399) }),
    };
  });

  it('anonymizes exactly the visits past the cut-off, with their webhook copies and stored replies; counts stay', async () => {
    const { world, stranger, server } = harness;
    const count = sql`SELECT count(*)::int AS n, count(DISTINCT site_id)::int AS sites, sum(extract(epoch FROM entry_at))::bigint AS entries
      FROM person_checkins WHERE account_id = ${world.accountId}`;
    const before = await queryOne(server.database, count);
    const beforeRead = (await read(world, visits.leftLongAgo)).body;

    const done = await anonymizeExpiredVisits(server.database, NOW);
    expect(done.checkins).toBe(3);

    for (const name of ['leftLongAgo', 'otherSite', 'neverLeft'] as const) {
      const checkin = (await read(world, visits[name])).body;
      expectAnonymous(checkin);
      const copies = await eventCopies(world.accountId, visits[name].id);
      expect(copies.length, name).toBeGreaterThan(0);
      for (const copy of copies) expectAnonymous(copy);
      // A replayed create answers what is stored now: the anonymized check-in.
      const replay = await world.api.post<PersonCheckin>(people(visits[name].siteId), visits[name].body, {
        idempotencyKey: visits[name].key,
      });
      expect(replay.status).toBe(201);
      expectAnonymous(replay.body);
    }
    const after = (await read(world, visits.leftLongAgo)).body;
    expect({ ...after, person: null, hostName: null, purpose: null, customFields: null, updatedAt: null }).toEqual({
      ...beforeRead,
      person: null,
      hostName: null,
      purpose: null,
      customFields: null,
      updatedAt: null,
    });
    expect(after.breaks).toHaveLength(1);
    expect((await read(world, visits.neverLeft)).body.status).toBe('IN');

    expectKept((await read(world, visits.leftLately)).body, 'Leftlately');
    expectKept((await read(world, visits.today)).body, 'Today');
    for (const copy of await eventCopies(world.accountId, visits.leftLately.id))
      expect(copy.person.firstName).toBe('Leftlately');
    expectKept((await read(stranger, visits.stranger)).body, 'Stranger');
    for (const copy of await eventCopies(stranger.accountId, visits.stranger.id))
      expect(copy.person.firstName).toBe('Stranger');
    expect(await queryOne(server.database, count)).toEqual(before);
  });

  it('never rewrites an anonymized visit: a second run changes nothing', async () => {
    const { server } = harness;
    const stamp = sql`SELECT anonymized_at FROM person_checkins WHERE id = ${visits.leftLongAgo.id}`;
    const first = await queryOne<{ anonymized_at: Date }>(server.database, stamp);
    expect(await anonymizeExpiredVisits(server.database, new Date(NOW.getTime() + 60_000))).toEqual({
      checkins: 0,
      copies: 0,
    });
    expect(await queryOne(server.database, stamp)).toEqual(first);
  });

  it('two runs at once share the work: every visit anonymized once, no error', async () => {
    const { server } = harness;
    const world = await buildWorld(server);
    await openForms(world);
    const owned = (await staffClient(server, { accountId: world.accountId, role: 'owner' })).api;
    expect((await owned.put('/v1/account/retention', { personDataDays: 1 })).status).toBe(200);
    const created = [];
    for (let i = 0; i < 40; i++)
      created.push(await visit(world, i % 2 ? world.siteId : world.otherSiteId, `Crowd${i}`, { entry: daysAgo(3) }));
    const runs = await Promise.all([1, 2, 3].map(() => anonymizeExpiredVisits(server.database, NOW, { batch: 3 })));
    expect(runs.reduce((sum, run) => sum + run.checkins, 0)).toBe(40);
    const left = await queryOne<{ n: number }>(
      server.database,
      sql`SELECT count(*)::int AS n FROM person_checkins
      WHERE account_id = ${world.accountId} AND (anonymized_at IS NULL OR first_name <> 'Deleted')`,
    );
    expect(left?.n).toBe(0);
  });
});

describe('erasure', () => {
  const identifiers = {
    email: 'Grace@Example.com ',
    phone: '+1 (555) 010-0199',
    firstName: 'grace',
    lastName: ' HOPPER ',
  };
  let ids: Record<'byEmail' | 'byPhone' | 'byName' | 'someoneElse' | 'otherAccount', Visit>;

  beforeAll(async () => {
    const { world, stranger } = harness;
    expect(
      (await world.api.post('/v1/watchlist/people', { email: 'grace@example.com', reason: 'Kept on the list' })).status,
    ).toBe(201);
    const recent = { entry: daysAgo(1) };
    ids = {
      byEmail: await visit(world, world.siteId, 'Byemail', recent, { email: 'GRACE@example.com' }),
      byPhone: await visit(world, world.otherSiteId, 'Byphone', recent, { phone: '1 555 010 0199' }),
      byName: await visit(world, world.siteId, 'Grace', recent, { lastName: 'Hopper', email: 'gh@example.org' }),
      someoneElse: await visit(world, world.otherSiteId, 'Someone', recent),
      otherAccount: await visit(stranger, stranger.siteId, 'Strangegrace', recent, { email: 'grace@example.com' }),
    };
  });

  it('anonymizes every matching visit on every site of the account, and no other account’s', async () => {
    const { world, stranger } = harness;
    const erased = await owner.post('/v1/privacy/erasure', identifiers, { idempotencyKey: 'erase-grace' });
    expect(erased.status).toBe(200);
    expect(erased.body).toEqual({ anonymized: 3 });
    for (const name of ['byEmail', 'byPhone', 'byName'] as const) {
      expectAnonymous((await read(world, ids[name])).body);
      for (const copy of await eventCopies(world.accountId, ids[name].id)) expectAnonymous(copy);
      expectAnonymous(
        (
          await world.api.post<PersonCheckin>(people(ids[name].siteId), ids[name].body, {
            idempotencyKey: ids[name].key,
          })
        ).body,
      );
    }
    expectKept((await read(world, ids.someoneElse)).body, 'Someone');
    const theirs = (await read(stranger, ids.otherAccount)).body;
    expect(theirs.person.email).toBe('grace@example.com');
    for (const copy of await eventCopies(stranger.accountId, ids.otherAccount.id))
      expect(copy.person.email).toBe('grace@example.com');
    const watchlist = await world.api.get<{ data: Array<{ email: string | null }> }>('/v1/watchlist/people');
    expect(watchlist.body.data.map((entry) => entry.email)).toContain('grace@example.com');
  });

  it('replays under its Idempotency-Key; asked again, finds nothing left', async () => {
    expect((await owner.post('/v1/privacy/erasure', identifiers, { idempotencyKey: 'erase-grace' })).body).toEqual({
      anonymized: 3,
    });
    expect((await owner.post('/v1/privacy/erasure', identifiers, { idempotencyKey: 'erase-grace-2' })).body).toEqual({
      anonymized: 0,
    });
  });

  it('is audited with a SHA-256 of the normalized identifiers, never the identifiers', async () => {
    const { server, world } = harness;
    const audit = await owner.get<{ data: AuditEvent[] }>('/v1/audit-events?action=privacy.erasure');
    const hash = createHash('sha256')
      .update(erasureHashText(erasureIdentifiers(identifiers)))
      .digest('hex');
    expect(audit.body.data[0]).toMatchObject({
      target: { type: 'account', id: world.accountId },
      detail: { identifiersHash: hash },
    });
    const stored = await queryRows(
      server.database,
      sql`SELECT to_jsonb(e)::text AS row FROM audit_events e WHERE account_id = ${world.accountId}`,
    );
    const text = JSON.stringify(stored).toLowerCase();
    for (const secret of ['grace', '5550100199', '555) 010', 'hopper']) expect(text).not.toContain(secret);
    const replies = await queryRows(
      server.database,
      sql`SELECT body FROM idempotency_keys WHERE key LIKE 'erase-grace%'`,
    );
    expect(JSON.stringify(replies).toLowerCase()).not.toContain('grace@');
  });

  it('refuses a request without an identifier, half a name, a phone without digits, a stray field: 422', async () => {
    for (const body of [
      {},
      { firstName: 'Grace' },
      { lastName: 'Hopper' },
      { phone: 'none' },
      { email: '  ' },
      { email: 'a@example.com', reason: 'x' },
    ]) {
      const refused = await owner.post<{ code: string }>('/v1/privacy/erasure', body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body.code).toBe('VALIDATION_FAILED');
    }
  });
});
