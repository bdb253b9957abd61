import { beforeAll, describe, expect, it } from 'vitest';
import type { Host, HostImportResult } from '../../shared/src/schemas/hosts';
import type { Notification } from '../../shared/src/schemas/notifications';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import { buildToken, visitor } from '../support/factories';
import { type ApiClient, apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

// Tenant isolation of hosts and notifications: another account's token or session, and a token of another
// site of the same account, see nothing of them; every id is a 404 or an empty list, never data.
const harness = serverAndWorld({ env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' }, stranger: true });

let host: Host;
let visit: PersonCheckin;
const outsiders: Array<{ name: string; api: ApiClient }> = [];

beforeAll(async () => {
  const { world, stranger, server } = harness;
  host = (
    await world.api.post<Host>('/v1/hosts', { name: 'Grace', email: 'grace@example.com', siteIds: [world.siteId] })
  ).body;
  visit = (
    await world.api.post<PersonCheckin>(
      `/v1/sites/${world.siteId}/checkins/people`,
      visitor('Ada', 'L', { hostId: host.hostId }),
    )
  ).body;
  expect(visit.hostId).toBe(host.hostId);
  const token = await buildToken(server, {
    accountId: stranger.accountId,
    allSites: true,
    scopes: ['hosts:manage', 'checkins:read', 'checkins:write'],
  });
  outsiders.push({ name: 'another account’s token', api: apiClient(server.baseUrl, token.token) });
  outsiders.push({
    name: 'another account’s owner session',
    api: (await staffClient(server, { accountId: stranger.accountId, role: 'owner' })).api,
  });
});

describe('tenant isolation of hosts (another account)', () => {
  it('lists none of them; read, change and delete by id are 404; the kiosk list of a site is 404', async () => {
    for (const { name, api } of outsiders) {
      const list = await api.get<{ data: Host[] }>('/v1/hosts');
      expect(list.status, name).toBe(200);
      expect(
        list.body.data.map((item) => item.hostId),
        name,
      ).not.toContain(host.hostId);
      expect((await api.get(`/v1/hosts/${host.hostId}`)).status, name).toBe(404);
      expect((await api.patch(`/v1/hosts/${host.hostId}`, { name: 'Taken over' })).status, name).toBe(404);
      expect((await api.delete(`/v1/hosts/${host.hostId}`)).status, name).toBe(404);
      expect((await api.get(`/v1/sites/${harness.world.siteId}/kiosk/hosts`)).status, name).toBe(404);
      // Giving a host this account's site: that site is none of theirs.
      expect((await api.post('/v1/hosts', { name: 'X', siteIds: [harness.world.siteId] })).status, name).toBe(404);
    }
    expect((await harness.world.api.get<Host>(`/v1/hosts/${host.hostId}`)).body.name).toBe('Grace');
  });

  it('an import cannot reach this account’s hosts or sites', async () => {
    for (const { name, api } of outsiders) {
      const imported = await api.request<HostImportResult>('POST', '/v1/hosts/import', {
        rawBody: `name,email,phone,sites\nGrace Again,grace@example.com,,${harness.world.siteId}\n`,
        headers: { 'Content-Type': 'text/csv' },
      });
      expect(imported.status, name).toBe(200);
      expect(imported.body.created + imported.body.updated, name).toBe(0);
      expect(imported.body.errors, name).toHaveLength(1);
    }
    const rows = await queryRows<{ name: string }>(
      harness.server.database,
      sql`SELECT name FROM hosts WHERE lower(email) = 'grace@example.com'`,
    );
    expect(rows.map((row) => row.name).sort()).toEqual(['Grace']);
  });

  it('a check-in cannot name another account’s host', async () => {
    const { stranger } = harness;
    const response = await stranger.api.post<{ errors: Array<{ path: string }> }>(
      `/v1/sites/${stranger.siteId}/checkins/people`,
      visitor('Eve', 'S', { hostId: host.hostId }),
    );
    expect(response.status).toBe(422);
    expect(response.body.errors.map((error) => error.path)).toEqual(['hostId']);
  });
});

describe('tenant isolation of notifications', () => {
  it('another account, and a token of another site, see none of a visit’s notifications', async () => {
    const { world, server } = harness;
    const own = await world.api.get<{ data: Notification[] }>(`/v1/notifications?checkinId=${visit.checkinId}`);
    expect(own.body.data.map((item) => item.checkinId)).toEqual([visit.checkinId]);
    const otherSite = await buildToken(server, {
      accountId: world.accountId,
      siteIds: [world.otherSiteId],
      scopes: ['checkins:read'],
    });
    const viewers = [
      ...outsiders,
      { name: 'a token of another site', api: apiClient(server.baseUrl, otherSite.token) },
    ];
    for (const { name, api } of viewers) {
      const byVisit = await api.get<{ data: Notification[] }>(`/v1/notifications?checkinId=${visit.checkinId}`);
      expect(byVisit.status, name).toBe(200);
      expect(byVisit.body.data, name).toEqual([]);
      const all = await api.get<{ data: Notification[] }>('/v1/notifications');
      expect(
        all.body.data.map((item) => item.checkinId),
        name,
      ).not.toContain(visit.checkinId);
    }
  });
});
