import { beforeAll, describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { defaultCheckinConfig } from '../../shared/src/schemas/sites';
import { queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import { parseCsv } from '../support/csv';
import { buildToken, visitor } from '../support/factories';
import { type ApiClient, apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';
import { arrive, uniquePlate, visit } from '../support/vehicles';

const harness = serverAndWorld({ env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' }, stranger: true });
const PEOPLE = '/v1/checkins/people/export';
const VEHICLES = '/v1/checkins/vehicles/export';
// 25 October 2026 in Berlin: summer time (+02:00) ends at 03:00, the day has 25 hours.
const DAY = 'from=2026-10-25&to=2026-10-25';

/** The export as raw bytes (fetch's text() would drop the byte order mark) and as records keyed by header. */
async function exportOf(
  api: ApiClient,
  path: string,
): Promise<{
  status: number;
  type: string | null;
  bom: boolean;
  rows: Array<Record<string, string>>;
  header: string[];
}> {
  const response = await api.get(path);
  const raw = await fetch(`${harness.server.baseUrl}${path}`, { headers: authHeaders.get(api) ?? {} });
  const bytes = new Uint8Array(await raw.arrayBuffer());
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  if (response.status !== 200)
    return { status: response.status, type: response.headers.get('content-type'), bom, rows: [], header: [] };
  const [header = [], ...records] = parseCsv(response.text.replace(/^\uFEFF/, ''));
  const rows = records.map((record) => Object.fromEntries(header.map((name, index) => [name, record[index] ?? ''])));
  return { status: 200, type: response.headers.get('content-type'), bom, rows, header };
}
const authHeaders = new Map<ApiClient, Record<string, string>>();

let exporter: ApiClient;
const ids: Record<string, number> = {};

async function place(table: 'person_checkins' | 'vehicle_checkins', id: number, entryAt: string, exitAt?: string) {
  const at = sql`${entryAt}::timestamptz`;
  await queryRows(
    harness.server.database,
    table === 'person_checkins'
      ? sql`UPDATE person_checkins SET entry_at = ${at}, exit_at = coalesce(${exitAt ?? null}::timestamptz, exit_at) WHERE id = ${id}`
      : sql`UPDATE vehicle_checkins SET entry_at = ${at}, exit_at = coalesce(${exitAt ?? null}::timestamptz, exit_at) WHERE id = ${id}`,
  );
}

beforeAll(async () => {
  const { world, server } = harness;
  await queryRows(server.database, sql`UPDATE sites SET timezone = 'Europe/Berlin' WHERE id = ${world.siteId}`);
  const fields = [...defaultCheckinConfig.fields, { name: 'badge', label: 'Badge', type: 'text', required: false }];
  expect(
    (await world.api.put(`/v1/sites/${world.siteId}/checkins/people/config`, { requiresApproval: false, fields }))
      .status,
  ).toBe(200);
  const token = await buildToken(server, { accountId: world.accountId, allSites: true, scopes: ['exports:read'] });
  exporter = apiClient(server.baseUrl, token.token);
  authHeaders.set(exporter, { Authorization: `Bearer ${token.token}` });
  const people = `/v1/sites/${world.siteId}/checkins/people`;
  const create = async (name: string, body: Record<string, unknown>, entryAt: string, exitAt?: string) => {
    const created = await world.api.post<PersonCheckin>(people, body);
    expect(created.status, name).toBe(201);
    if (exitAt) expect((await world.api.post(`${people}/${created.body.checkinId}/checkout`)).status).toBe(200);
    await place('person_checkins', created.body.checkinId, entryAt, exitAt);
    ids[name] = created.body.checkinId;
  };
  await create(
    'overnight',
    visitor('Night', 'Owl', { customFields: { badge: 'B-7' } }),
    '2026-10-24T20:00:00Z',
    '2026-10-25T09:00:00Z',
  );
  await create('leftBefore', visitor('Early', 'Bird'), '2026-10-24T08:00:00Z', '2026-10-24T12:00:00Z');
  await create('formula', visitor('=HYPERLINK("http://evil")', 'Sum'), '2026-10-25T12:00:00Z');
  await create('tricky', visitor('Quote', 'Comma', { purpose: 'Talks, "demo"\nand lunch' }), '2026-10-25T13:00:00Z');
  const breaks = `${people}/${ids.tricky}/breaks`;
  expect((await world.api.post(`${breaks}/start`)).status).toBe(200);
  expect((await world.api.post(`${breaks}/end`)).status).toBe(200);
  await queryRows(
    server.database,
    sql`UPDATE person_breaks SET started_at = '2026-10-25T13:10:00Z', ended_at = '2026-10-25T13:25:00Z' WHERE checkin_id = ${ids.tricky ?? 0}`,
  );
  await create('nextDay', visitor('Late', 'Comer'), '2026-10-25T23:30:00Z');
  const car = await arrive(world.api, world.siteId, { licensePlate: uniquePlate(), notes: '+1 trailer' });
  expect((await world.api.post(`${visit(car)}/checkout`)).status).toBeLessThan(300);
  await place('vehicle_checkins', car.checkinId, '2026-10-25T00:30:00Z', '2026-10-25T01:30:00Z');
  ids.car = car.checkinId;
});

describe('CSV export of person check-ins', () => {
  it('exports the visits overlapping the site-local days, with site-local times across a DST change', async () => {
    const result = await exportOf(exporter, `${PEOPLE}?siteIds=${harness.world.siteId}&${DAY}`);
    expect(result.status).toBe(200);
    expect(result.type).toBe('text/csv; charset=utf-8');
    expect(result.bom).toBe(true);
    expect(result.header).toEqual([
      'checkinId',
      'site',
      'status',
      'firstName',
      'lastName',
      'email',
      'phone',
      'company',
      'host',
      'purpose',
      'Badge',
      'entrySource',
      'entryTime',
      'exitSource',
      'exitTime',
      'breaks',
      'minutesOnBreak',
      'decidedBy',
    ]);
    const exported = result.rows.map((row) => Number(row.checkinId));
    expect(exported).toEqual([ids.overnight, ids.formula, ids.tricky]);
    const overnight = result.rows[0];
    expect(overnight).toMatchObject({
      firstName: 'Night',
      status: 'OUT',
      Badge: 'B-7',
      breaks: '0',
      minutesOnBreak: '0',
    });
    expect(overnight?.entryTime).toBe('2026-10-24T22:00:00+02:00');
    expect(overnight?.exitTime).toBe('2026-10-25T10:00:00+01:00');
  });

  it('neutralizes a formula and round-trips commas, quotes and line breaks', async () => {
    const result = await exportOf(exporter, `${PEOPLE}?${DAY}`);
    const byId = new Map(result.rows.map((row) => [Number(row.checkinId), row]));
    expect(byId.get(ids.formula ?? 0)?.firstName).toBe('\'=HYPERLINK("http://evil")');
    expect(byId.get(ids.tricky ?? 0)).toMatchObject({
      purpose: 'Talks, "demo"\nand lunch',
      breaks: '1',
      minutesOnBreak: '15',
    });
  });

  it('takes RFC 3339 instants as the range', async () => {
    const result = await exportOf(exporter, `${PEOPLE}?from=2026-10-24T07:00:00Z&to=2026-10-24T09:00:00Z`);
    expect(result.rows.map((row) => Number(row.checkinId))).toEqual([ids.leftBefore]);
  });

  it('is recorded in the audit log without personal data', async () => {
    await exportOf(exporter, `${PEOPLE}?${DAY}`);
    const rows = await queryRows<{ action: string; target_type: string; actor_name: string }>(
      harness.server.database,
      sql`SELECT action, target_type, actor_name FROM audit_events WHERE account_id = ${harness.world.accountId} ORDER BY id DESC LIMIT 1`,
    );
    expect(rows[0]).toMatchObject({ action: 'checkins.exported', target_type: 'account' });
  });

  it('needs exports:read: a token without it is 403; a manager session may export, reception may not', async () => {
    expect((await harness.world.api.get(`${PEOPLE}?${DAY}`)).status).toBe(403);
    const manager = await staffClient(harness.server, {
      accountId: harness.world.accountId,
      role: 'manager',
      siteIds: [harness.world.siteId],
    });
    const managed = await manager.api.get(`${PEOPLE}?${DAY}`);
    expect(managed.status).toBe(200);
    expect(managed.text).toContain('Night');
    expect((await manager.api.get(`${PEOPLE}?siteIds=${harness.world.otherSiteId}&${DAY}`)).status).toBe(404);
    const reception = await staffClient(harness.server, {
      accountId: harness.world.accountId,
      role: 'reception',
      siteIds: [harness.world.siteId],
    });
    expect((await reception.api.get(`${PEOPLE}?${DAY}`)).status).toBe(403);
  });

  it('streams every row across several pages, once each, in id order', async () => {
    const { world, server } = harness;
    await queryRows(
      server.database,
      sql`
      INSERT INTO person_checkins (account_id, site_id, status, first_name, last_name, entry_source, entry_at, last_event_at, created_at, updated_at)
      SELECT ${world.accountId}, ${world.otherSiteId}, 'IN', 'Bulk', 'Visitor ' || n, 'API', '2026-10-25T10:00:00Z', now(), now(), now()
        FROM generate_series(1, 1201) AS n`,
    );
    const result = await exportOf(exporter, `${PEOPLE}?siteIds=${world.otherSiteId}&${DAY}`);
    const exported = result.rows.map((row) => Number(row.checkinId));
    expect(exported).toHaveLength(1201);
    expect(exported).toEqual([...exported].sort((a, b) => a - b));
    expect(new Set(exported).size).toBe(1201);
  });

  it('refuses a bad range with a 400', async () => {
    expect((await exporter.get(`${PEOPLE}?from=2026-10-25`)).status).toBe(400);
    expect((await exporter.get(`${PEOPLE}?from=yesterday&to=2026-10-25`)).status).toBe(400);
    const reversed = await exporter.get<{ detail: string }>(`${PEOPLE}?from=2026-10-26&to=2026-10-25`);
    expect(reversed.status).toBe(400);
    expect(reversed.body.detail).toContain('before');
  });
});

describe('CSV export of vehicle check-ins', () => {
  it('exports the visit with site-local times and a neutralized note', async () => {
    const result = await exportOf(exporter, `${VEHICLES}?siteIds=${harness.world.siteId}&${DAY}`);
    expect(result.status).toBe(200);
    expect(result.bom).toBe(true);
    expect(result.header).toEqual([
      'checkinId',
      'site',
      'status',
      'licensePlate',
      'driver',
      'notes',
      'entrySource',
      'entryTime',
      'exitSource',
      'exitTime',
      'stopReason',
      'decidedBy',
    ]);
    expect(result.rows).toHaveLength(1);
    expect(result.rows[0]).toMatchObject({ checkinId: String(ids.car), status: 'OUT', notes: "'+1 trailer" });
    // 00:30 UTC is 02:30 summer time; 01:30 UTC is 02:30 again, winter time.
    expect(result.rows[0]?.entryTime).toBe('2026-10-25T02:30:00+02:00');
    expect(result.rows[0]?.exitTime).toBe('2026-10-25T02:30:00+01:00');
  });
});

describe('tenant isolation of the exports (another account)', () => {
  it('this account’s site is 404; its own export never shows this account’s rows', async () => {
    const { stranger, server } = harness;
    const token = await buildToken(server, { accountId: stranger.accountId, allSites: true, scopes: ['exports:read'] });
    const outsider = apiClient(server.baseUrl, token.token);
    for (const path of [PEOPLE, VEHICLES]) {
      expect((await outsider.get(`${path}?siteIds=${harness.world.siteId}&${DAY}`)).status).toBe(404);
      const own = await outsider.get(`${path}?${DAY}`);
      expect(own.status).toBe(200);
      expect(own.text.trim().split('\r\n')).toHaveLength(1);
    }
  });
});
