import { describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { buildToken, visitor } from '../support/factories';
import { apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';
import { phone, visitCodeOf } from '../support/visitPhone';

// Tenant isolation of the visitor's phone (docs/api.md, The visitor's phone): a visit key opens its own
// visit at its own site only; another account's or another site's principal cannot reach a site's code,
// poster or phone visits. Every refusal is a 404 (or 403 for a missing scope), never data.
const harness = serverAndWorld({ worldPerTest: true, stranger: true, env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' } });

const people = (siteId: number, checkinId: number) => `/v1/sites/${siteId}/checkins/people/${checkinId}`;

describe('a visit key opens its own visit only', () => {
  it('cannot read or change another visit, nor its own visit under another site’s code', async () => {
    const { world, server } = harness;
    const code = await visitCodeOf(world.api, world.siteId);
    const otherCode = await visitCodeOf(world.api, world.otherSiteId);
    const ada = phone(server.baseUrl);
    const grace = phone(server.baseUrl);
    const adaVisit = (await ada.checkIn(code, visitor('Ada', 'L'))).body;
    const graceVisit = (await grace.checkIn(code, visitor('Grace', 'H'))).body;
    for (const verb of ['breaks/start', 'breaks/end', 'checkout'] as const) {
      expect((await ada.act(code, graceVisit.checkinId, verb)).status, verb).toBe(404);
      expect((await ada.act(otherCode, adaVisit.checkinId, verb)).status, verb).toBe(404);
    }
    expect((await ada.read(code, graceVisit.checkinId)).status).toBe(404);
    expect((await ada.read(otherCode, adaVisit.checkinId)).status).toBe(404);
    // A key nobody holds opens nothing either.
    expect((await phone(server.baseUrl).read(code, adaVisit.checkinId)).status).toBe(404);
    const untouched = await world.api.get<PersonCheckin>(people(world.siteId, graceVisit.checkinId));
    expect(untouched.body.status).toBe('IN');
    expect(untouched.body.breaks).toEqual([]);
  });

  it("cannot reach another account's visit, and another account's token cannot reach a phone's visit", async () => {
    const { world, server } = harness;
    const code = await visitCodeOf(world.api, world.siteId);
    const mine = phone(server.baseUrl);
    const visit = (await mine.checkIn(code, visitor())).body;
    // The same key sent with another code (another account's site) opens nothing there.
    const { stranger } = harness;
    const strangerCode = await visitCodeOf(stranger.api, stranger.siteId);
    expect((await mine.read(strangerCode, visit.checkinId)).status).toBe(404);
    expect((await mine.act(strangerCode, visit.checkinId, 'checkout')).status).toBe(404);
    expect((await stranger.api.get(people(world.siteId, visit.checkinId))).status).toBe(404);
    expect((await stranger.api.post(`/v1/sites/${world.siteId}/visit-code`, {})).status).toBe(404);
    expect((await stranger.api.get(`/v1/sites/${world.siteId}/visit-poster.pdf`)).status).toBe(404);
  });

  it("the phone's Idempotency-Keys are apart from the account's: an integrator's key is not spoiled", async () => {
    const { world, server } = harness;
    const code = await visitCodeOf(world.api, world.siteId);
    const key = 'order-4711';
    const fromPhone = await phone(server.baseUrl).checkIn(code, visitor('Phone', 'First'), key);
    expect(fromPhone.status).toBe(201);
    const integrator = await world.api.post<PersonCheckin>(
      `/v1/sites/${world.siteId}/checkins/people`,
      visitor('Api', 'Second'),
      { idempotencyKey: key },
    );
    expect(integrator.status).toBe(201);
    expect(integrator.headers.get('Idempotent-Replayed')).toBeNull();
    // Another phone replaying that phone's key and body gets no answer of the first phone's.
    const thief = await phone(server.baseUrl).checkIn(code, visitor('Phone', 'First'), key);
    expect(thief.status).toBe(422);
    expect(thief.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
  });
});

describe("a site's code and poster belong to its own staff", () => {
  it('another account, a token of another site and a session of another account get 404, never the code', async () => {
    const { world, server, stranger } = harness;
    const otherSite = await buildToken(server, {
      accountId: world.accountId,
      siteIds: [world.otherSiteId],
      scopes: ['sites:configure', 'checkins:read'],
    });
    const outsiders = [
      { name: 'another account’s token', api: stranger.api },
      { name: 'a token of another site', api: apiClient(server.baseUrl, otherSite.token) },
      {
        name: 'another account’s owner session',
        api: (await staffClient(server, { accountId: stranger.accountId, role: 'owner' })).api,
      },
    ];
    const code = await visitCodeOf(world.api, world.siteId);
    for (const { name, api } of outsiders) {
      const site = await api.get(`/v1/sites/${world.siteId}`);
      expect(site.status, name).toBe(404);
      expect(site.text, name).not.toContain(code);
      expect((await api.post(`/v1/sites/${world.siteId}/visit-code`, {})).status, name).toBe(404);
      expect((await api.get(`/v1/sites/${world.siteId}/visit-poster.pdf`)).status, name).toBe(404);
      expect((await api.patch(`/v1/sites/${world.siteId}`, { visit: { requiresApproval: true } })).status, name).toBe(
        404,
      );
    }
    expect(await visitCodeOf(world.api, world.siteId)).toBe(code);
  });

  it("a token or session sent to a visit route is no visit key: it opens no phone's visit", async () => {
    const { world, server } = harness;
    const code = await visitCodeOf(world.api, world.siteId);
    const visit = (await phone(server.baseUrl).checkIn(code, visitor())).body;
    expect((await world.api.get(`/v1/visit/${code}/checkins/${visit.checkinId}`)).status).toBe(401);
    expect((await world.api.post(`/v1/visit/${code}/checkins/${visit.checkinId}/checkout`, {})).status).toBe(401);
    expect((await world.api.get<PersonCheckin>(people(world.siteId, visit.checkinId))).body.status).toBe('IN');
  });
});
