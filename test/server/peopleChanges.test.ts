import { describe, expect, it } from 'vitest';
import type { PeopleChanges, PersonVisitChange } from '../../shared/src/schemas/peopleChanges';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { defaultCheckinConfig } from '../../shared/src/schemas/sites';
import { queryOne, queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import { changedSql, onSiteSql } from '../../server/src/queries/peopleChanges';
import { putCheckinConfig } from '../support/checkinConfig';
import { type World, buildToken, buildWorld, visitor } from '../support/factories';
import { type ApiClient, type ApiResponse, apiClient } from '../support/http';
import { holdTransaction } from '../support/heldTransaction';
import { serverAndWorld } from '../support/serverAndWorld';
import { pairedKiosk } from '../support/kiosks';
import { staffClient } from '../support/staff';

const harness = serverAndWorld();
const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;

/** One page of the site's feed after `cursor`; expects 200. */
async function pull(api: ApiClient, siteId: number, cursor?: string, limit?: number): Promise<PeopleChanges> {
  const query = new URLSearchParams();
  if (cursor !== undefined) query.set('cursor', cursor);
  if (limit !== undefined) query.set('limit', String(limit));
  const response: ApiResponse<PeopleChanges> = await api.get(`${people(siteId)}/changes?${query}`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** Every page until `hasMore` is false: the visits in the order given, and the cursor to keep. */
async function pullAll(api: ApiClient, siteId: number, cursor?: string, limit?: number) {
  const visits: PersonVisitChange[] = [];
  let page = await pull(api, siteId, cursor, limit);
  let pages = 1;
  visits.push(...page.data);
  while (page.hasMore) {
    page = await pull(api, siteId, page.nextCursor, limit);
    visits.push(...page.data);
    pages += 1;
  }
  return { visits, cursor: page.nextCursor, pages };
}

async function checkIn(world: World, siteId: number, first: string, extra: Record<string, unknown> = {}) {
  const response = await world.api.post<PersonCheckin>(
    people(siteId),
    visitor(first, 'Visitor', { person: { firstName: first, lastName: 'Visitor', ...extra } }),
  );
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const act = async (world: World, checkin: PersonCheckin, action: string) =>
  expect((await world.api.post(`${people(checkin.siteId)}/${checkin.checkinId}/${action}`, {})).status).toBe(200);

describe('GET /v1/sites/{siteId}/checkins/people/changes', () => {
  it('without a cursor: the visits on site now (not those gone), with names and company only', async () => {
    const world = await buildWorld(harness.server);
    const here = await checkIn(world, world.siteId, 'Ada', {
      email: 'ada@example.com',
      phone: '+441',
      company: 'ACME',
    });
    const resting = await checkIn(world, world.siteId, 'Bea');
    await act(world, resting, 'breaks/start');
    const gone = await checkIn(world, world.siteId, 'Cy');
    await act(world, gone, 'checkout');
    await checkIn(world, world.otherSiteId, 'Elsewhere');
    const site = { api: world.api, siteId: world.siteId };
    await putCheckinConfig(site, defaultCheckinConfig.fields, true);
    const waiting = await checkIn(world, world.siteId, 'Dee');
    expect(waiting.status).toBe('PENDING');

    const first = await pull(world.api, world.siteId);
    expect(first.hasMore).toBe(true);
    expect(first.data.map((visit) => [visit.person.firstName, visit.status])).toEqual([
      ['Ada', 'IN'],
      ['Bea', 'ON_BREAK'],
      ['Dee', 'PENDING'],
    ]);
    expect(first.data[0]).toEqual({
      checkinId: here.checkinId,
      status: 'IN',
      person: { firstName: 'Ada', lastName: 'Visitor', company: 'ACME' },
      entry: here.entry,
      exit: null,
      breaks: [],
      badgeCode: here.badgeCode,
      createdAt: here.createdAt,
      updatedAt: here.updatedAt,
    });
    expect(first.data[1]?.breaks).toHaveLength(1);
    expect(JSON.stringify(first)).not.toMatch(/ada@example|\+441|email|phone|hostName|customFields/);
    // The reading done, the changes since it: none. An unchanged site answers nothing and the same cursor.
    const second = await pull(world.api, world.siteId, first.nextCursor);
    expect(second).toEqual({ data: [], nextCursor: second.nextCursor, hasMore: false });
    const third = await pull(world.api, world.siteId, second.nextCursor);
    expect(third).toEqual({ data: [], nextCursor: second.nextCursor, hasMore: false });
  });

  it('after a cursor: each visit changed since, once, as it is now, in the order of its last change (OUT too)', async () => {
    const world = await buildWorld(harness.server);
    const ada = await checkIn(world, world.siteId, 'Ada');
    const bea = await checkIn(world, world.siteId, 'Bea');
    const { cursor } = await pullAll(world.api, world.siteId);

    await act(world, ada, 'breaks/start');
    const cy = await checkIn(world, world.siteId, 'Cy');
    await act(world, bea, 'checkout');
    await act(world, ada, 'breaks/end');
    await checkIn(world, world.otherSiteId, 'Elsewhere');
    const { visits, cursor: next } = await pullAll(world.api, world.siteId, cursor);
    expect(visits.map((visit) => [visit.checkinId, visit.status])).toEqual([
      [cy.checkinId, 'IN'],
      [bea.checkinId, 'OUT'],
      [ada.checkinId, 'IN'],
    ]);
    expect(visits[1]?.exit?.source).toBe('API');
    expect(visits[2]?.breaks.map((item) => item.endedAt === null)).toEqual([false]);
    expect((await pull(world.api, world.siteId, next)).data).toEqual([]);
  });

  it('pages the first reading and the changes by `limit`, skipping and repeating nothing', async () => {
    const world = await buildWorld(harness.server);
    const made: number[] = [];
    for (const name of ['A', 'B', 'C', 'D', 'E']) made.push((await checkIn(world, world.siteId, name)).checkinId);
    const reading = await pullAll(world.api, world.siteId, undefined, 2);
    expect(reading.visits.map((visit) => visit.checkinId)).toEqual(made);
    expect(reading.pages).toBe(4);
    for (const checkinId of made)
      expect((await world.api.post(`${people(world.siteId)}/${checkinId}/checkout`, {})).status).toBe(200);
    const changed = await pullAll(world.api, world.siteId, reading.cursor, 2);
    expect(changed.visits.map((visit) => [visit.checkinId, visit.status])).toEqual(made.map((id) => [id, 'OUT']));
  });

  it('skips no change committed after a reader passed its number (a site’s changes are numbered in commit order)', async () => {
    const world = await buildWorld(harness.server);
    const slow = await checkIn(world, world.siteId, 'Slow');
    const fast = await checkIn(world, world.siteId, 'Fast');
    const { cursor } = await pullAll(world.api, world.siteId);
    // A writer that has checked `slow` out (and drawn its number) but not committed yet...
    const holder = await holdTransaction(harness.server.database);
    let pulling: Promise<PeopleChanges> | undefined;
    let pulledEarly = false;
    // Read before the writer commits: after the commit the pull may finish first, under load, before this test
    // gets to run again (the database wakes the waiting reader as it ends the writer's transaction).
    let pulledWhileOpen = true;
    try {
      await queryRows(
        holder.db,
        sql`UPDATE person_checkins SET status = 'OUT', exit_at = now(), exit_source = 'API', updated_at = now()
            WHERE account_id = ${world.accountId} AND id = ${slow.checkinId}`,
      );
      // ...does not hold up another writer of the site: `fast` checks out (a later number) and commits...
      const fastWrite = await world.api.post(`${people(world.siteId)}/${fast.checkinId}/checkout`, {});
      expect(fastWrite.status).toBe(200);
      // ...while a kiosk's pull waits for the writer that is still open, rather than pass `slow`'s number.
      pulling = pull(world.api, world.siteId, cursor);
      void pulling.then(() => (pulledEarly = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      pulledWhileOpen = pulledEarly;
    } finally {
      await holder.commit();
    }
    expect(pulledWhileOpen).toBe(false);
    const during = await pulling;
    if (!during) throw new Error('the pull was not sent');
    const after = await pullAll(world.api, world.siteId, during.nextCursor);
    const seen = [...during.data, ...after.visits].map((visit) => [visit.checkinId, visit.status]);
    expect(seen).toContainEqual([slow.checkinId, 'OUT']);
    expect(seen).toContainEqual([fast.checkinId, 'OUT']);
  });

  it('an erasure reaches the kiosks: the visit comes again, anonymized', async () => {
    const world = await buildWorld(harness.server);
    const erased = await checkIn(world, world.siteId, 'Erasable', { email: 'erase-me@example.com' });
    const { cursor } = await pullAll(world.api, world.siteId);
    const owner = await staffClient(harness.server, { accountId: world.accountId, role: 'owner' });
    expect((await owner.api.post('/v1/privacy/erasure', { email: 'erase-me@example.com' })).status).toBe(200);
    const { visits } = await pullAll(world.api, world.siteId, cursor);
    expect(visits.map((visit) => [visit.checkinId, visit.person.firstName])).toEqual([[erased.checkinId, 'Deleted']]);
  });

  it('a visitor kiosk reads its own site by it, badge codes too, and a refused visit only for a day', async () => {
    const { server } = harness;
    const world = await buildWorld(server);
    const here = await checkIn(world, world.siteId, 'Ada');
    const refused = await checkIn(world, world.siteId, 'Old');
    await queryOne(
      server.database,
      sql`UPDATE person_checkins SET status = 'STOP', last_event_at = now() - interval '25 hours'
          WHERE account_id = ${world.accountId} AND id = ${refused.checkinId}`,
    );
    const kiosk = await pairedKiosk(server, { accountId: world.accountId, siteId: world.siteId });
    const kioskApi = apiClient(server.baseUrl, kiosk.token);
    const { visits } = await pullAll(kioskApi, world.siteId);
    expect(visits.map((visit) => [visit.checkinId, visit.badgeCode])).toEqual([[here.checkinId, here.badgeCode]]);
    expect(here.badgeCode).toEqual(expect.any(String));
    // Staff still see every visit not OUT.
    expect((await pullAll(world.api, world.siteId)).visits.map((visit) => visit.checkinId)).toContain(
      refused.checkinId,
    );
    expect((await kioskApi.get(`${people(world.otherSiteId)}/changes`)).status).toBe(404);
    const gate = await pairedKiosk(server, { accountId: world.accountId, siteId: world.siteId, mode: 'gate' });
    expect((await apiClient(server.baseUrl, gate.token).get(`${people(world.siteId)}/changes`)).status).toBe(403);
  });

  it('needs checkins:read; 400 for a malformed cursor or a limit out of 1..500', async () => {
    const { server, world } = harness;
    const writer = await buildToken(server, { accountId: world.accountId, scopes: ['checkins:write'] });
    expect((await apiClient(server.baseUrl, writer.token).get(`${people(world.siteId)}/changes`)).status).toBe(403);
    for (const query of [
      'cursor=nope',
      'limit=0',
      'limit=501',
      `cursor=${Buffer.from('[1,null,"x"]').toString('base64url')}`,
    ]) {
      expect((await world.api.get(`${people(world.siteId)}/changes?${query}`)).status, query).toBe(400);
    }
  });
});

describe('the people feed at size', () => {
  /** Every index a plan reads, and whether it scans a table whole (EXPLAIN's JSON, walked). */
  function scansOf(plan: unknown, found: { indexes: string[]; seqScans: string[] } = { indexes: [], seqScans: [] }) {
    if (plan === null || typeof plan !== 'object') return found;
    const node = plan as Record<string, unknown>;
    if (typeof node['Index Name'] === 'string') found.indexes.push(node['Index Name']);
    if (node['Node Type'] === 'Seq Scan') found.seqScans.push(String(node['Relation Name']));
    for (const value of Object.values(node))
      for (const child of Array.isArray(value) ? value : [value]) scansOf(child, found);
    return found;
  }

  it('reads a page of one site by its indexes, whatever the history of the account', async () => {
    const world = await buildWorld(harness.server);
    const db = harness.server.database;
    // 30,000 visits that left, on both sites, each with its feed row; then a few on site.
    await queryOne(
      db,
      sql`INSERT INTO person_checkins (account_id, site_id, status, first_name, last_name, entry_source, entry_at,
            exit_source, exit_at, last_event_at, created_at, updated_at)
          SELECT ${world.accountId}, CASE WHEN g % 2 = 0 THEN ${world.siteId} ELSE ${world.otherSiteId} END::integer, 'OUT',
            'Old', 'Visitor', 'KIOSK', now() - g * interval '1 minute', 'KIOSK', now() - g * interval '1 minute' + interval '5 minutes',
            now(), now(), now()
          FROM generate_series(1, 30000) AS g`,
    );
    for (const name of ['A', 'B', 'C']) await checkIn(world, world.siteId, name);
    await queryOne(db, sql`ANALYZE person_checkins`);
    await queryOne(db, sql`ANALYZE person_feed`);
    const explain = async (statement: ReturnType<typeof onSiteSql>) =>
      scansOf((await queryOne<{ 'QUERY PLAN': unknown }>(db, sql`EXPLAIN (FORMAT JSON) ${statement}`))?.['QUERY PLAN']);
    const reading = await explain(onSiteSql(world.accountId, world.siteId, 0, 200));
    expect(reading.seqScans).toEqual([]);
    expect(reading.indexes).toContain('person_feed_order');
    const changed = await explain(changedSql(world.accountId, world.siteId, 10, 200));
    expect(changed.seqScans).toEqual([]);
    expect(changed.indexes).toContain('person_feed_order');
    expect(changed.indexes).toContain('person_checkins_pkey');
    // And the answer: the three on site, and the changes since (none).
    const { visits } = await pullAll(world.api, world.siteId);
    expect(visits.map((visit) => visit.person.firstName)).toEqual(['A', 'B', 'C']);
  });
});
