import { describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { type CheckinConfig, type Site, defaultCheckinConfig } from '../../shared/src/schemas/sites';
import { queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import { buildToken, visitor } from '../support/factories';
import { apiClient } from '../support/http';
import { type OpenApiDocument, documentValidator } from '../support/openApiValidator';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';
import { arrive, uniquePlate, visits } from '../support/vehicles';

const harness = serverAndWorld({ env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' }, worldPerTest: true });
const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;
type SitePage = { data: Site[]; nextCursor: string | null };

async function actions(accountId: number) {
  const rows = await queryRows<{ action: string; site_id: number | null }>(
    harness.server.database,
    sql`SELECT action, site_id FROM audit_events WHERE account_id = ${accountId} ORDER BY id`,
  );
  return rows.map((row) => row.action);
}

describe('sites made and changed by staff', () => {
  it('an owner or an all-sites token adds a site with the default form; a manager or a one-site token cannot', async () => {
    const { world, server } = harness;
    const { api } = await staffClient(server, { accountId: world.accountId, role: 'owner' });
    const created = await api.post<Site>('/v1/sites', { name: 'Depot', timezone: 'Europe/Berlin' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Depot', timezone: 'Europe/Berlin', archivedAt: null });
    const config = await api.get<CheckinConfig>(`${people(created.body.siteId)}/config`);
    expect(config.body.fields).toEqual(defaultCheckinConfig.fields);
    expect((await world.api.post<Site>('/v1/sites', { name: 'Annex' })).body.timezone).toBe('UTC');
    expect(await actions(world.accountId)).toEqual(['site.create', 'site.create']);
    const manager = (
      await staffClient(server, { accountId: world.accountId, role: 'manager', siteIds: [world.siteId] })
    ).api;
    const refused = await manager.post<Problem>('/v1/sites', { name: 'Mine' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('INSUFFICIENT_SCOPE');
    expect(refused.body.detail).toContain('all sites');
    const oneSite = await buildToken(server, {
      accountId: world.accountId,
      siteIds: [world.siteId],
      scopes: ['sites:configure'],
    });
    expect((await apiClient(server.baseUrl, oneSite.token).post('/v1/sites', { name: 'Mine' })).status).toBe(403);
  });

  it('renames a site and moves its time zone; a manager only on their sites', async () => {
    const { world, server } = harness;
    const manager = (
      await staffClient(server, { accountId: world.accountId, role: 'manager', siteIds: [world.siteId] })
    ).api;
    const renamed = await manager.patch<Site>(`/v1/sites/${world.siteId}`, {
      name: 'Front office',
      timezone: 'America/New_York',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      siteId: world.siteId,
      name: 'Front office',
      timezone: 'America/New_York',
      archivedAt: null,
    });
    expect((await manager.patch(`/v1/sites/${world.otherSiteId}`, { name: 'Not mine' })).status).toBe(404);
    expect((await manager.patch(`/v1/sites/${world.siteId}`, { timezone: 'Mars/Olympus' })).status).toBe(422);
    const reception = (
      await staffClient(server, { accountId: world.accountId, role: 'reception', siteIds: [world.siteId] })
    ).api;
    expect((await reception.patch(`/v1/sites/${world.siteId}`, { name: 'X' })).status).toBe(403);
    expect(await actions(world.accountId)).toEqual(['site.update']);
  });

  it('an archived site refuses new check-ins (people and vehicles) while visits in progress finish; restoring reopens it', async () => {
    const { world } = harness;
    const api = world.api;
    const inside = (await api.post<PersonCheckin>(people(world.siteId), visitor())).body;
    const van = await arrive(api, world.siteId, { licensePlate: uniquePlate() });
    const archived = await api.patch<Site>(`/v1/sites/${world.siteId}`, { archived: true });
    expect(archived.body.archivedAt).not.toBeNull();
    const person = await api.post<Problem>(people(world.siteId), visitor('Late', 'Comer'));
    expect(person.status).toBe(409);
    expect(person.body.code).toBe('SITE_ARCHIVED');
    const vehicle = await api.post<Problem>(visits(world.siteId), { licensePlate: uniquePlate() });
    expect(vehicle.status).toBe(409);
    expect(vehicle.body.code).toBe('SITE_ARCHIVED');
    expect((await api.post(`${people(world.siteId)}/${inside.checkinId}/breaks/start`)).status).toBe(200);
    expect((await api.post(`${people(world.siteId)}/${inside.checkinId}/checkout`)).status).toBe(200);
    expect((await api.post(`${visits(world.siteId)}/${van.checkinId}/checkout`)).status).toBe(200);
    expect((await api.get(`${people(world.siteId)}/config`)).status).toBe(200);
    const listed = (await api.get<SitePage>('/v1/sites')).body.data.map((site) => site.siteId);
    expect(listed).not.toContain(world.siteId);
    const withArchived = (await api.get<SitePage>('/v1/sites?archived=true')).body.data;
    expect(withArchived.find((site) => site.siteId === world.siteId)?.archivedAt).toBe(archived.body.archivedAt);
    // Archiving again keeps the first time.
    expect((await api.patch<Site>(`/v1/sites/${world.siteId}`, { archived: true })).body.archivedAt).toBe(
      archived.body.archivedAt,
    );
    const restored = await api.patch<Site>(`/v1/sites/${world.siteId}`, { archived: false });
    expect(restored.body.archivedAt).toBeNull();
    expect((await api.post(people(world.siteId), visitor())).status).toBe(201);
  });
});

describe('the form PUT with If-Match', () => {
  it('saves when the ETag is current; a stale one is 412 with the current form and its ETag', async () => {
    const { world } = harness;
    const path = `${people(world.siteId)}/config`;
    const read = await world.api.get<CheckinConfig>(path);
    const etag = read.headers.get('etag') ?? '';
    const mine = { requiresApproval: true, fields: defaultCheckinConfig.fields };
    const saved = await world.api.put<CheckinConfig>(path, mine, { headers: { 'If-Match': etag } });
    expect(saved.status).toBe(200);
    const current = saved.headers.get('etag');
    expect(current).not.toBe(etag);
    const theirs = { requiresApproval: false, fields: defaultCheckinConfig.fields.slice(0, 2) };
    const stale = await world.api.put<Problem>(path, theirs, { headers: { 'If-Match': etag } });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('PRECONDITION_FAILED');
    expect(stale.body.current).toMatchObject({ siteId: world.siteId, requiresApproval: true });
    expect(stale.headers.get('etag')).toBe(current);
    // The refusal is one the API reference describes.
    const doc = (await apiClient(harness.server.baseUrl).get<OpenApiDocument>('/v1/openapi.json')).body;
    expect(
      documentValidator(doc).responseErrors('PUT /sites/{siteId}/checkins/people/config', 412, stale.body),
    ).toEqual([]);
    expect((await world.api.get<CheckinConfig>(path)).body.requiresApproval).toBe(true);
    // Without If-Match it replaces as before.
    expect((await world.api.put(path, theirs)).status).toBe(200);
  });
});
