import { beforeAll, describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { Site } from '../../shared/src/schemas/sites';
import { buildToken, visitor } from '../support/factories';
import { type ApiClient, apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

// Tenant isolation of badges: another account, and a token, user or kiosk of another site of the same account,
// get a 404 for a badge of this site (the same as an unknown check-in), never the PDF; nor can they read or
// change the site's badge settings.
const harness = serverAndWorld({ env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' }, stranger: true });
const outsiders: Array<{ name: string; api: ApiClient }> = [];
let checkin: PersonCheckin;
const badgePath = () => `/v1/sites/${checkin.siteId}/checkins/people/${checkin.checkinId}/badge.pdf`;

beforeAll(async () => {
  const { world, stranger, server } = harness;
  await world.api.patch(`/v1/sites/${world.siteId}`, { badge: { enabled: true } });
  checkin = (await world.api.post<PersonCheckin>(`/v1/sites/${world.siteId}/checkins/people`, visitor())).body;
  const theirs = await buildToken(server, {
    accountId: stranger.accountId,
    allSites: true,
    scopes: ['checkins:read', 'sites:configure'],
  });
  outsiders.push({ name: 'another account’s token', api: apiClient(server.baseUrl, theirs.token) });
  outsiders.push({
    name: 'another account’s owner session',
    api: (await staffClient(server, { accountId: stranger.accountId, role: 'owner' })).api,
  });
  const otherSite = await buildToken(server, {
    accountId: world.accountId,
    siteIds: [world.otherSiteId],
    scopes: ['checkins:read', 'sites:configure'],
  });
  outsiders.push({ name: 'a token of the other site', api: apiClient(server.baseUrl, otherSite.token) });
  const otherKiosk = await buildToken(server, {
    accountId: world.accountId,
    siteIds: [world.otherSiteId],
    channel: 'KIOSK', mode: 'visitor',
  });
  outsiders.push({ name: 'a kiosk of the other site', api: apiClient(server.baseUrl, otherKiosk.token) });
  outsiders.push({
    name: 'a manager of the other site',
    api: (await staffClient(server, { accountId: world.accountId, role: 'manager', siteIds: [world.otherSiteId] })).api,
  });
});

describe('tenant isolation of badges', () => {
  it('a badge of this site is a 404 to everyone else, as is the same check-in through their own site', async () => {
    await harness.world.api.patch(`/v1/sites/${harness.world.otherSiteId}`, { badge: { enabled: true } });
    const { world } = harness;
    for (const { name, api } of outsiders) {
      const answer = await api.get(badgePath());
      expect(answer.status, name).toBe(404);
      expect(answer.headers.get('content-type'), name).toMatch(/^application\/problem\+json/);
      expect(answer.text, name).not.toContain('%PDF');
    }
    // The check-in's id under a site the caller does have: still not theirs.
    const otherSite = outsiders.find((outsider) => outsider.name === 'a token of the other site');
    const through = await otherSite?.api.get(
      `/v1/sites/${world.otherSiteId}/checkins/people/${checkin.checkinId}/badge.pdf`,
    );
    expect(through?.status).toBe(404);
    expect((await world.api.get(badgePath())).status).toBe(200);
  });

  it("the site's badge settings cannot be read or changed by another account or another site's principal", async () => {
    const { world } = harness;
    for (const { name, api } of outsiders) {
      expect((await api.get(`/v1/sites/${world.siteId}`)).status, name).toBe(404);
      // A kiosk may not configure any site: refused for its scope before the site is looked at.
      expect([403, 404], name).toContain(
        (await api.patch(`/v1/sites/${world.siteId}`, { badge: { enabled: false } })).status,
      );
    }
    expect((await world.api.get<Site>(`/v1/sites/${world.siteId}`)).body.badge.enabled).toBe(true);
  });
});
