import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../shared/src/schemas/alerts';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { VehicleCheckin } from '../../shared/src/schemas/vehicles';
import { defaultCheckinConfig } from '../../shared/src/schemas/sites';
import { putCheckinConfig } from '../support/checkinConfig';
import { buildToken, buildWorld, visitor } from '../support/factories';
import { apiClient } from '../support/http';
import { type TestServer, startTestServer } from '../support/testServer';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';
import { arrive, createVehicleLabel, registerVehicle, uniquePlate, visit } from '../support/vehicles';

const harness = serverAndWorld({ env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' } });
const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;
type AlertPage = { data: Alert[]; nextCursor: string | null; unacknowledged: number };

const staff = (role: 'owner' | 'manager' | 'reception' | 'security', siteIds?: number[]) =>
  staffClient(harness.server, {
    accountId: harness.world.accountId,
    role,
    siteIds: siteIds ?? [harness.world.siteId],
  }).then((s) => ({ ...s.api, userId: s.member.userId }));

describe('each role is refused what it may not do (403 INSUFFICIENT_SCOPE)', () => {
  it('reception: approves people, not vehicles; no audit log, no users, no site configuration', async () => {
    const reception = await staff('reception');
    const pending = await arrive(harness.world.api, harness.world.siteId, { licensePlate: uniquePlate() });
    expect((await reception.post<Problem>(`${visit(pending)}/deny`)).body).toMatchObject({
      status: 403,
      code: 'INSUFFICIENT_SCOPE',
    });
    expect((await reception.post<Problem>(`${visit(pending)}/approve`)).body).toMatchObject({ status: 403 });
    expect((await reception.get('/v1/audit-events')).status).toBe(403);
    expect((await reception.get('/v1/users')).status).toBe(403);
    expect(
      (
        await reception.put(`${people(harness.world.siteId)}/config`, {
          requiresApproval: false,
          fields: defaultCheckinConfig.fields,
        })
      ).status,
    ).toBe(403);
    expect((await reception.post(people(harness.world.siteId), visitor())).status).toBe(201);
  });

  it('security: no manual check-in of people, but vehicles, watchlist and approvals', async () => {
    const security = await staff('security');
    expect((await security.post<Problem>(people(harness.world.siteId), visitor())).body).toMatchObject({
      status: 403,
      code: 'INSUFFICIENT_SCOPE',
    });
    const pending = await arrive(harness.world.api, harness.world.siteId, { licensePlate: uniquePlate() });
    const denied = await security.post<VehicleCheckin>(`${visit(pending)}/deny`, { reason: 'No booking' });
    expect(denied.body).toMatchObject({ status: 'STOP', decidedBy: { type: 'user', id: security.userId } });
    expect(
      (await security.post('/v1/watchlist/people', { email: `w${Date.now()}@example.com`, reason: 'Banned' })).status,
    ).toBe(201);
    expect((await security.get('/v1/users')).status).toBe(403);
  });

  it('manager: no /v1/users, no webhooks; configures sites and reads the audit log', async () => {
    const manager = await staff('manager');
    expect((await manager.get<Problem>('/v1/users')).body).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE' });
    expect(
      (await manager.post('/v1/users', { email: 'x@example.com', name: 'X', role: 'owner', allSites: true })).status,
    ).toBe(403);
    expect((await manager.get('/v1/webhooks/subscriptions')).status).toBe(403);
    expect((await manager.get('/v1/audit-events')).status).toBe(200);
    expect(
      (
        await manager.put(`${people(harness.world.siteId)}/config`, {
          requiresApproval: false,
          fields: defaultCheckinConfig.fields,
        })
      ).status,
    ).toBe(200);
  });

  it('a session user of site 1 gets 404 on site 2’s check-ins, and sees only site 1 in lists', async () => {
    const reception = await staff('reception', [harness.world.siteId]);
    const elsewhere = await harness.world.api.post<PersonCheckin>(people(harness.world.otherSiteId), visitor());
    expect((await reception.get<Problem>(people(harness.world.otherSiteId))).body).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect((await reception.get(`${people(harness.world.otherSiteId)}/${elsewhere.body.checkinId}`)).status).toBe(404);
    expect((await reception.post(people(harness.world.otherSiteId), visitor())).status).toBe(404);
    const sites = await reception.get<{ data: Array<{ siteId: number }> }>('/v1/sites');
    expect(sites.body.data.map((site) => site.siteId)).toEqual([harness.world.siteId]);
  });
});

describe('who decided', () => {
  it('approve and deny record the actor and the time, by token or by session', async () => {
    await putCheckinConfig(
      { api: harness.world.api, siteId: harness.world.otherSiteId },
      defaultCheckinConfig.fields,
      true,
    );
    const first = await harness.world.api.post<PersonCheckin>(people(harness.world.otherSiteId), visitor());
    const second = await harness.world.api.post<PersonCheckin>(people(harness.world.otherSiteId), visitor());
    expect(first.body).toMatchObject({ status: 'PENDING', decidedBy: null, decidedAt: null });
    const byToken = await harness.world.api.post<PersonCheckin>(
      `${people(harness.world.otherSiteId)}/${first.body.checkinId}/approve`,
    );
    expect(byToken.body).toMatchObject({
      status: 'IN',
      decidedBy: { type: 'token', id: expect.any(Number), name: expect.any(String) },
      decidedAt: expect.any(String),
    });
    const reception = await staff('reception', [harness.world.otherSiteId]);
    const bySession = await reception.post<PersonCheckin>(
      `${people(harness.world.otherSiteId)}/${second.body.checkinId}/deny`,
      { reason: 'Unexpected' },
    );
    expect(bySession.body).toMatchObject({ status: 'STOP', decidedBy: { type: 'user', id: reception.userId } });
    await putCheckinConfig(
      { api: harness.world.api, siteId: harness.world.otherSiteId },
      defaultCheckinConfig.fields,
      false,
    );
  });
});

describe('alerts', () => {
  it('lists the STOPs of the caller’s sites with their reasons, newest first; acknowledging is idempotent and counted', async () => {
    const { api } = harness.world;
    const siteId = harness.world.siteId;
    const email = `watch${Date.now()}@example.com`;
    await api.post('/v1/watchlist/people', { email, reason: 'Trespass notice 2026-04' });
    const watched = await api.post<PersonCheckin>(
      people(siteId),
      visitor('Wanda', 'Watched', { person: { firstName: 'Wanda', lastName: 'Watched', email } }),
    );
    expect(watched.body.status).toBe('STOP');
    // The watchlist's reason is for staff: not in the public check-in.
    expect(JSON.stringify(watched.body)).not.toContain('Trespass');
    const label = await createVehicleLabel(api, { name: `Banned ${Date.now()}`, blocksEntry: true });
    const vehicle = await registerVehicle(api, { licensePlate: uniquePlate(), labelIds: [label.labelId] });
    const blocked = await arrive(api, siteId, { vehicleId: vehicle.vehicleId });
    expect(blocked.status).toBe('STOP');
    // A STOP on the other site is not for a user of this one.
    await api.post('/v1/watchlist/people', { firstName: 'Otto', lastName: `Other${Date.now()}`, reason: 'Elsewhere' });

    const security = await staff('security', [siteId]);
    const listed = await security.get<AlertPage>('/v1/alerts?limit=2');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((alert) => [alert.kind, alert.checkinId])).toEqual([
      ['vehicle', blocked.checkinId],
      ['person', watched.body.checkinId],
    ]);
    expect(listed.body.data[0]).toMatchObject({
      source: 'label',
      subject: vehicle.licensePlate,
      reason: expect.stringContaining(label.name),
      acknowledgedAt: null,
    });
    expect(listed.body.data[1]).toMatchObject({
      source: 'watchlist',
      subject: 'Wanda Watched',
      reason: 'Trespass notice 2026-04',
      siteId,
    });
    const rest = await security.get<AlertPage>(`/v1/alerts?limit=2&cursor=${listed.body.nextCursor}`);
    expect(rest.status).toBe(200);
    const ids = (page: AlertPage) => page.data.map((alert) => `${alert.kind}${alert.checkinId}`);
    expect(ids(rest.body).filter((id) => ids(listed.body).includes(id))).toEqual([]);
    const unread = listed.body.unacknowledged;
    expect(unread).toBeGreaterThanOrEqual(2);

    const acked = await security.post<Alert>(`/v1/alerts/person/${watched.body.checkinId}/acknowledge`);
    expect(acked.body).toMatchObject({
      acknowledgedAt: expect.any(String),
      acknowledgedBy: { type: 'user', id: security.userId },
    });
    const owner = await staff('owner');
    const again = await owner.post<Alert>(`/v1/alerts/person/${watched.body.checkinId}/acknowledge`);
    expect(again.body.acknowledgedAt).toBe(acked.body.acknowledgedAt);
    expect(again.body.acknowledgedBy).toEqual(acked.body.acknowledgedBy);
    expect((await security.get<AlertPage>('/v1/alerts')).body.unacknowledged).toBe(unread - 1);
    // Not a STOP, or not on the caller's sites: 404.
    const plain = await api.post<PersonCheckin>(people(siteId), visitor());
    expect((await security.post(`/v1/alerts/person/${plain.body.checkinId}/acknowledge`)).status).toBe(404);
    expect((await security.get(`/v1/alerts?siteIds=${harness.world.otherSiteId}`)).status).toBe(404);
  });

  it('a denial is an alert with the deny reason', async () => {
    const pending = await arrive(harness.world.api, harness.world.siteId, { licensePlate: uniquePlate() });
    await harness.world.api.post(`${visit(pending)}/deny`, { reason: 'Not on the list' });
    const alerts = await harness.world.api.get<AlertPage>('/v1/alerts');
    expect(alerts.status).toBe(403);
    const reception = await staff('reception');
    const listed = await reception.get<AlertPage>('/v1/alerts');
    expect(listed.body.data[0]).toMatchObject({
      kind: 'vehicle',
      checkinId: pending.checkinId,
      source: 'denied',
      reason: 'Not on the list',
    });
  });
});

describe('alerts are the last 24 hours (the server clock)', () => {
  let server: TestServer;
  let now = new Date('2026-11-20T08:00:00.000Z');
  beforeAll(async () => {
    server = await startTestServer({}, { clock: () => now });
  });
  afterAll(async () => server.close());

  it('a STOP leaves the list 24 hours after it stopped', async () => {
    const world = await buildWorld(server);
    await world.api.post('/v1/watchlist/people', { firstName: 'Old', lastName: 'Stop', reason: 'Yesterday' });
    const stopped = await world.api.post<PersonCheckin>(people(world.siteId), visitor('Old', 'Stop'));
    expect(stopped.body.status).toBe('STOP');
    // A token: a session would have ended after 12 idle hours.
    const token = await buildToken(server, { accountId: world.accountId, allSites: true, scopes: ['alerts:manage'] });
    const api = apiClient(server.baseUrl, token.token);
    now = new Date(now.getTime() + 23 * 3600_000);
    expect((await api.get<AlertPage>('/v1/alerts')).body).toMatchObject({
      data: [{ checkinId: stopped.body.checkinId }],
      unacknowledged: 1,
    });
    now = new Date(now.getTime() + 3600_000 + 1000);
    expect((await api.get<AlertPage>('/v1/alerts')).body).toEqual({ data: [], nextCursor: null, unacknowledged: 0 });
    // A STOP that arrives late (an offline kiosk's, two days after it happened) is an alert from its arrival.
    const late = await world.api.post<PersonCheckin>(
      people(world.siteId),
      visitor('Old', 'Stop', {
        occurredAt: new Date(now.getTime() - 48 * 3600_000).toISOString(),
      }),
    );
    expect(late.body.status).toBe('STOP');
    expect((await api.get<AlertPage>('/v1/alerts')).body.data).toMatchObject([
      { checkinId: late.body.checkinId, at: now.toISOString() },
    ]);
  });
});
