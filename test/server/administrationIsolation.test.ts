import { beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKiosk, Kiosk } from '../../shared/src/schemas/kiosks';
import type { Site } from '../../shared/src/schemas/sites';
import { defaultCheckinConfig } from '../../shared/src/schemas/sites';
import { buildToken } from '../support/factories';
import { type ApiClient, apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';
import { TEST_ADMIN_TOKEN } from '../support/testServer';

// Tenant isolation of sites, API tokens and kiosks: another account's token and another account's owner
// session see nothing of this account, and every id of it is a 404 (in a path) or a 422 (in a body).
const harness = serverAndWorld({ env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' }, stranger: true });
const outsiders: Array<{ name: string; api: ApiClient }> = [];
let kiosk: Kiosk;
let tokenId: number;
type Page<T> = { data: T[] };

beforeAll(async () => {
  const { world, stranger, server } = harness;
  const owner = (await staffClient(server, { accountId: world.accountId, role: 'owner' })).api;
  kiosk = (await owner.post<CreatedKiosk>('/v1/kiosks', { siteId: world.siteId, mode: 'visitor', name: 'Ours' })).body
    .kiosk;
  tokenId = (
    await owner.post<{ tokenId: number }>('/v1/tokens', { name: 'Ours', allSites: true, scopes: ['checkins:read'] })
  ).body.tokenId;
  const token = await buildToken(server, {
    accountId: stranger.accountId,
    allSites: true,
    scopes: ['tokens:manage', 'kiosks:manage', 'sites:configure', 'checkins:read'],
  });
  outsiders.push({ name: 'another account’s token', api: apiClient(server.baseUrl, token.token) });
  outsiders.push({
    name: 'another account’s owner session',
    api: (await staffClient(server, { accountId: stranger.accountId, role: 'owner' })).api,
  });
});

describe('tenant isolation of sites, API tokens and kiosks (another account)', () => {
  it('sites: not listed, even archived; changing one or its form is 404', async () => {
    const { world } = harness;
    for (const { name, api } of outsiders) {
      for (const path of ['/v1/sites', '/v1/sites?archived=true']) {
        const ids = (await api.get<Page<Site>>(path)).body.data.map((site) => site.siteId);
        expect(ids, name).not.toContain(world.siteId);
      }
      expect((await api.patch(`/v1/sites/${world.siteId}`, { archived: true })).status, name).toBe(404);
      const form = { requiresApproval: true, fields: defaultCheckinConfig.fields };
      expect(
        (await api.put(`/v1/sites/${world.siteId}/checkins/people/config`, form, { headers: { 'If-Match': '*' } }))
          .status,
        name,
      ).toBe(404);
    }
    expect((await world.api.get<Site>(`/v1/sites/${world.siteId}`)).body.archivedAt).toBeNull();
  });

  it('tokens: not listed; revoking is 404; a token for its sites is refused', async () => {
    for (const { name, api } of outsiders) {
      const ids = (await api.get<Page<{ tokenId: number }>>('/v1/tokens')).body.data.map((token) => token.tokenId);
      expect(ids, name).not.toContain(tokenId);
      expect(ids, name).not.toContain(kiosk.tokenId);
      expect((await api.delete(`/v1/tokens/${tokenId}`)).status, name).toBe(404);
      expect((await api.delete(`/v1/tokens/${kiosk.tokenId}`)).status, name).toBe(404);
      expect(
        (await api.post('/v1/tokens', { name: 'X', siteIds: [harness.world.siteId], scopes: ['checkins:read'] }))
          .status,
        name,
      ).toBe(422);
    }
  });

  it('kiosks: not listed; its site is 404 as a filter and 422 for a new kiosk; codes and revoking are 404; heartbeats touch nothing', async () => {
    const { world } = harness;
    for (const { name, api } of outsiders) {
      expect(
        (await api.get<Page<Kiosk>>('/v1/kiosks')).body.data.map((item) => item.kioskId),
        name,
      ).not.toContain(kiosk.kioskId);
      expect((await api.get(`/v1/kiosks?siteIds=${world.siteId}`)).status, name).toBe(404);
      expect(
        (await api.post('/v1/kiosks', { siteId: world.siteId, mode: 'visitor', name: 'Theirs' })).status,
        name,
      ).toBe(422);
      expect((await api.post(`/v1/kiosks/${kiosk.kioskId}/pairing-code`)).status, name).toBe(404);
      expect((await api.delete(`/v1/kiosks/${kiosk.kioskId}`)).status, name).toBe(404);
      expect((await api.post('/v1/kiosk/heartbeat', { pending: 9, attention: 9, appVersion: 'x' })).status, name).toBe(
        404,
      );
    }
    const owner = (await staffClient(harness.server, { accountId: world.accountId, role: 'owner' })).api;
    const ours = (await owner.get<Page<Kiosk>>('/v1/kiosks')).body.data.find((item) => item.kioskId === kiosk.kioskId);
    expect(ours).toMatchObject({ pending: null, lastSeenAt: null });
  });

  it('the management lists of one account hold nothing of another', async () => {
    const admin = apiClient(harness.server.baseUrl, TEST_ADMIN_TOKEN);
    const { stranger, world } = harness;
    const sites = (
      await admin.get<Page<{ siteId: number }>>(`/v1/admin/accounts/${stranger.accountId}/sites`)
    ).body.data.map((site) => site.siteId);
    expect(sites).not.toContain(world.siteId);
    const tokens = (
      await admin.get<Page<{ tokenId: number }>>(`/v1/admin/accounts/${stranger.accountId}/tokens`)
    ).body.data.map((token) => token.tokenId);
    expect(tokens).not.toContain(tokenId);
  });
});
