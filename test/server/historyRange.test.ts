import { beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { VehicleCheckin } from '../../shared/src/schemas/vehicles';
import { queryOne, queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import { personCheckinSearchSql } from '../../server/src/queries/personCheckinSearch';
import { overlapSql } from '../../server/src/queries/visitFilters';
import { buildAccount, buildSite, buildToken, visitor } from '../support/factories';
import { type ApiClient, apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { VEHICLE_SEARCH, arrive, expectProblem, uniquePlate, visit } from '../support/vehicles';

// The overlap filter of the search and `q` of the export: what the console's History lists and downloads.
const harness = serverAndWorld({ stranger: true });
const SEARCH = '/v1/checkins/people/search';
const EXPORT = '/v1/checkins/people/export';
const FROM = '2026-10-20T00:00:00Z';
const TO = '2026-10-21T00:00:00Z';
const RANGE = { overlapsFrom: FROM, overlapsTo: TO };

const ids: Record<string, number> = {};
const carIds: Record<string, number> = {};
let exporter: ApiClient;

async function place(table: 'person' | 'vehicle', id: number, entryAt: string, exitAt?: string) {
  const exit = sql`coalesce(${exitAt ?? null}::timestamptz, exit_at)`;
  await queryRows(
    harness.server.database,
    table === 'person'
      ? sql`UPDATE person_checkins SET entry_at = ${entryAt}::timestamptz, exit_at = ${exit} WHERE id = ${id}`
      : sql`UPDATE vehicle_checkins SET entry_at = ${entryAt}::timestamptz, exit_at = ${exit} WHERE id = ${id}`,
  );
}

/** Every page of a search, following its cursors, `limit` rows at a time. */
async function allPages<T extends { checkinId: number }>(
  path: string,
  body: Record<string, unknown>,
  limit: number,
): Promise<number[]> {
  const seen: number[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const response = await harness.world.api.post<{ data: T[]; nextCursor: string | null }>(path, {
      ...body,
      limit,
      ...(cursor ? { cursor } : {}),
    });
    expect(response.status).toBe(200);
    seen.push(...response.body.data.map((row) => row.checkinId));
    if (!response.body.nextCursor) return seen;
    cursor = response.body.nextCursor;
  }
  throw new Error('more than 20 pages');
}

beforeAll(async () => {
  const { world, server } = harness;
  const token = await buildToken(server, { accountId: world.accountId, allSites: true, scopes: ['exports:read'] });
  exporter = apiClient(server.baseUrl, token.token);
  const people = `/v1/sites/${world.siteId}/checkins/people`;
  const create = async (name: string, first: string, entryAt: string, exitAt?: string) => {
    const created = await world.api.post<PersonCheckin>(people, visitor(first, name));
    expect(created.status, name).toBe(201);
    if (exitAt) expect((await world.api.post(`${people}/${created.body.checkinId}/checkout`)).status).toBe(200);
    await place('person', created.body.checkinId, entryAt, exitAt);
    ids[name] = created.body.checkinId;
  };
  await create('spanning', 'Span', '2026-10-19T06:00:00Z', '2026-10-22T06:00:00Z');
  await create('stillOnSite', 'Still', '2026-10-19T10:00:00Z');
  await create('endedInside', 'Overnight', '2026-10-19T20:00:00Z', '2026-10-20T09:00:00Z');
  await create('inside', 'Inside', '2026-10-20T12:00:00Z', '2026-10-20T13:00:00Z');
  await create('leftBefore', 'Early', '2026-10-19T08:00:00Z', '2026-10-19T12:00:00Z');
  await create('atTheEnd', 'Late', TO);
  await create('after', 'Later', '2026-10-21T08:00:00Z', '2026-10-21T09:00:00Z');
  // Nothing keeps an exit after its entry (offline clocks): such a row is stored, and simply not listed.
  await create('backwards', 'Skewed', '2026-10-19T10:00:00Z', '2026-10-19T09:00:00Z');
  const arriveAt = async (name: string, entryAt: string, exitAt?: string) => {
    const car = await arrive(world.api, world.siteId, { licensePlate: uniquePlate() });
    if (exitAt) expect((await world.api.post(`${visit(car)}/checkout`)).status).toBeLessThan(300);
    await place('vehicle', car.checkinId, entryAt, exitAt);
    carIds[name] = car.checkinId;
  };
  await arriveAt('endedInside', '2026-10-19T22:00:00Z', '2026-10-20T01:00:00Z');
  await arriveAt('stillOnSite', '2026-10-18T22:00:00Z');
  await arriveAt('leftBefore', '2026-10-19T01:00:00Z', '2026-10-19T02:00:00Z');
});

/** Newest entry first: the order of the search. */
const expected = () => [ids.inside, ids.endedInside, ids.stillOnSite, ids.spanning];

describe('search: overlapsFrom and overlapsTo', () => {
  it('lists the visits that overlap the range: begun before it and ended inside, still on site, inside, spanning', async () => {
    const response = await harness.world.api.post<{ data: PersonCheckin[] }>(SEARCH, {
      siteIds: [harness.world.siteId],
      ...RANGE,
    });
    expect(response.status).toBe(200);
    expect(response.body.data.map((row) => row.checkinId)).toEqual(expected());
  });

  it('pages through them with the same cursors, once each, in order', async () => {
    expect(await allPages<PersonCheckin>(SEARCH, RANGE, 1)).toEqual(expected());
    expect(await allPages<PersonCheckin>(SEARCH, RANGE, 3)).toEqual(expected());
  });

  it('combines with q and with an open end', async () => {
    const found = await harness.world.api.post<{ data: PersonCheckin[] }>(SEARCH, { ...RANGE, q: 'overnight' });
    expect(found.body.data.map((row) => row.checkinId)).toEqual([ids.endedInside]);
    const since = await harness.world.api.post<{ data: PersonCheckin[] }>(SEARCH, { overlapsFrom: TO });
    expect(since.body.data.map((row) => row.checkinId)).toEqual([
      ids.after,
      ids.atTheEnd,
      ids.stillOnSite,
      ids.spanning,
    ]);
  });

  it('refuses a range that ends before it starts (422)', async () => {
    const response = await harness.world.api.post<Problem>(SEARCH, { overlapsFrom: TO, overlapsTo: FROM });
    expectProblem(response, 422, 'VALIDATION_FAILED');
    expectProblem(
      await harness.world.api.post<Problem>(VEHICLE_SEARCH, { overlapsFrom: 'yesterday' }),
      422,
      'VALIDATION_FAILED',
    );
  });

  it('works for vehicles the same way, with and without a plate', async () => {
    expect(await allPages<VehicleCheckin>(VEHICLE_SEARCH, RANGE, 1)).toEqual([carIds.endedInside, carIds.stillOnSite]);
    const car = await harness.world.api.get<VehicleCheckin>(
      `/v1/sites/${harness.world.siteId}/checkins/vehicles/${carIds.stillOnSite}`,
    );
    const byPlate = await harness.world.api.post<{ data: VehicleCheckin[] }>(VEHICLE_SEARCH, {
      ...RANGE,
      licensePlate: car.body.licensePlate,
    });
    expect(byPlate.body.data.map((row) => row.checkinId)).toEqual([carIds.stillOnSite]);
  });
});

/** Scan nodes of a JSON plan, and how many rows they read (kept or filtered out). */
function scansOf(plan: unknown, found = { rowsRead: 0, seqScans: 0 }): { rowsRead: number; seqScans: number } {
  if (Array.isArray(plan)) for (const item of plan) scansOf(item, found);
  else if (plan && typeof plan === 'object') {
    const node = plan as Record<string, unknown>;
    const type = typeof node['Node Type'] === 'string' ? node['Node Type'] : '';
    if (type === 'Seq Scan') found.seqScans++;
    if (/Scan$/.test(type) && !type.startsWith('Bitmap Index')) {
      for (const key of ['Actual Rows', 'Rows Removed by Filter', 'Rows Removed by Index Recheck'])
        found.rowsRead += Number(node[key] ?? 0);
    }
    for (const value of Object.values(node)) if (typeof value === 'object') scansOf(value, found);
  }
  return found;
}

describe('search: the overlap is read from indexes', () => {
  it('reads a day two weeks deep from indexes, about a row per answer, not the history; the rows of the plain rule', async () => {
    const { accountId } = await buildAccount(harness.server);
    const { siteId } = await buildSite(harness.server, accountId);
    const db = harness.server.database;
    // 40,000 visits a minute apart, 90 minutes each; 1 in 5,000 never left.
    await queryOne(
      db,
      sql`
      INSERT INTO person_checkins (account_id, site_id, status, first_name, last_name, entry_source, entry_at,
        exit_source, exit_at, last_event_at, created_at, updated_at)
      SELECT ${accountId}, ${siteId}, CASE WHEN g % 5000 = 0 THEN 'IN' ELSE 'OUT' END, 'Bulk', 'Visitor' || g, 'KIOSK',
        now() - g * interval '1 minute', CASE WHEN g % 5000 = 0 THEN NULL ELSE 'KIOSK' END,
        CASE WHEN g % 5000 = 0 THEN NULL ELSE now() - g * interval '1 minute' + interval '90 minutes' END, now(), now(), now()
      FROM generate_series(1, 40000) AS g`,
    );
    await queryOne(db, sql`ANALYZE person_checkins`);
    const start = new Date(Date.now() - 14 * 86_400_000);
    const end = new Date(start.getTime() + 86_400_000);
    // A page larger than the answer: every part is read to its end.
    const filter = { accountId, siteIds: [siteId], overlapsFrom: start, overlapsTo: end, limit: 2000 };
    const plain = await queryRows<{ id: number }>(
      db,
      sql`SELECT c.id FROM person_checkins c
      WHERE c.account_id = ${accountId} AND ${overlapSql(sql`${start}::timestamptz`, sql`${end}::timestamptz`)}
      ORDER BY c.entry_at DESC, c.id DESC`,
    );
    expect(plain.length).toBeGreaterThan(1440);
    const { statement } = personCheckinSearchSql(filter);
    const explained = await queryOne<{ 'QUERY PLAN': unknown }>(db, sql`EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`);
    const scans = scansOf(explained?.['QUERY PLAN']);
    expect(scans.seqScans).toBe(0);
    // Walking back from the start for the visits that spanned it would read some 20,000 rows.
    expect(scans.rowsRead).toBeLessThan(plain.length + 100);
    // The three parts together are the rule itself.
    const rows = await queryRows<{ id: number }>(db, statement);
    expect(rows.map((row) => row.id)).toEqual(plain.map((row) => row.id));
  });
});

describe('export: q', () => {
  const exported = async (query: string) => {
    const response = await exporter.get(`${EXPORT}?${query}`);
    expect(response.status).toBe(200);
    const [, ...lines] = response.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    return lines.map((line) => Number(line.split(',')[0])).sort((a, b) => a - b);
  };

  it('exports the same visits as the search lists, with or without q', async () => {
    const sorted = (list: Array<number | undefined>) => [...list].map(Number).sort((a, b) => a - b);
    expect(await exported(`siteIds=${harness.world.siteId}&from=${FROM}&to=${TO}`)).toEqual(sorted(expected()));
    expect(await exported(`from=${FROM}&to=${TO}&q=Still`)).toEqual([ids.stillOnSite]);
    expect(await exported(`from=${FROM}&to=${TO}&q=overnight%20l`)).toEqual([]);
    expect(await exported(`from=${FROM}&to=${TO}&q=endedinside`)).toEqual([ids.endedInside]);
  });

  it('refuses an empty q (400); the vehicle export takes no q', async () => {
    expect((await exporter.get(`${EXPORT}?from=${FROM}&to=${TO}&q=`)).status).toBe(400);
    expect((await exporter.get(`/v1/checkins/vehicles/export?from=${FROM}&to=${TO}&q=x`)).status).toBe(400);
  });

  it('exports the vehicles the search lists, and by plate (normalized) that plate’s only', async () => {
    const vehicles = async (query: string) => {
      const response = await exporter.get(`/v1/checkins/vehicles/export?from=${FROM}&to=${TO}${query}`);
      expect(response.status).toBe(200);
      const [, ...lines] = response.text
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      return lines.map((line) => Number(line.split(',')[0])).sort((a, b) => a - b);
    };
    expect(await vehicles('')).toEqual([carIds.endedInside, carIds.stillOnSite].map(Number).sort((a, b) => a - b));
    const car = await harness.world.api.get<VehicleCheckin>(
      `/v1/sites/${harness.world.siteId}/checkins/vehicles/${carIds.stillOnSite}`,
    );
    const spaced = car.body.licensePlate.toLowerCase().replace(/-/g, ' ');
    expect(await vehicles(`&licensePlate=${encodeURIComponent(spaced)}`)).toEqual([carIds.stillOnSite]);
    expect((await exporter.get(`/v1/checkins/vehicles/export?from=${FROM}&to=${TO}&licensePlate=--`)).status).toBe(400);
  });
});

describe('tenant isolation of the overlap filter and q (another account)', () => {
  it('another account’s search and export over the same range find none of this account’s visits', async () => {
    const { stranger, server } = harness;
    const people = await stranger.api.post<{ data: PersonCheckin[] }>(SEARCH, { ...RANGE, q: 'Still' });
    expect(people.status).toBe(200);
    expect(people.body.data).toEqual([]);
    const vehicles = await stranger.api.post<{ data: VehicleCheckin[] }>(VEHICLE_SEARCH, RANGE);
    expect(vehicles.body.data).toEqual([]);
    expect((await stranger.api.post(SEARCH, { ...RANGE, siteIds: [harness.world.siteId] })).status).toBe(404);
    const token = await buildToken(server, { accountId: stranger.accountId, allSites: true, scopes: ['exports:read'] });
    const file = await apiClient(server.baseUrl, token.token).get(`${EXPORT}?from=${FROM}&to=${TO}&q=Still`);
    expect(file.status).toBe(200);
    expect(file.text.trim().split('\r\n')).toHaveLength(1);
  });
});
