import { beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../shared/src/schemas/alerts';
import type { AuditEvent } from '../../shared/src/schemas/audit';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { StaffUser } from '../../shared/src/schemas/staff';
import { buildToken, visitor } from '../support/factories';
import { type ApiClient, apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

// Tenant isolation of the staff and privacy endpoints: another account's token and another account's session see
// nothing of this account, and every id of it is a 404, the same as an unknown one.
const harness = serverAndWorld({ env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' }, stranger: true });

let userId: number;
let stopped: PersonCheckin;
let olderForm: PersonCheckin;
let kioskAlertId: number;
const outsiders: Array<{ name: string; api: ApiClient }> = [];

beforeAll(async () => {
  const { world, stranger, server } = harness;
  const owner = await staffClient(server, { accountId: world.accountId, role: 'owner' });
  userId = owner.member.userId;
  await owner.api.post('/v1/watchlist/people', { email: 'isolated@example.com', reason: 'Private reason' });
  stopped = (
    await owner.api.post<PersonCheckin>(
      `/v1/sites/${world.siteId}/checkins/people`,
      visitor('Iso', 'Lated', {
        person: { firstName: 'Iso', lastName: 'Lated', email: 'isolated@example.com' },
      }),
    )
  ).body;
  expect(stopped.status).toBe('STOP');
  // The alerts that are no STOP: a check-in on an older form, and a create refused to a kiosk.
  await world.api.put(`/v1/sites/${world.siteId}/checkins/people/config`, {
    requiresApproval: false,
    fields: [
      { name: 'firstName', label: 'First name', type: 'text', required: true },
      { name: 'lastName', label: 'Last name', type: 'text', required: true },
      { name: 'company', label: 'Company', type: 'text', required: true },
    ],
  });
  olderForm = (
    await world.api.post<PersonCheckin>(
      `/v1/sites/${world.siteId}/checkins/people`,
      visitor('Old', 'Form', { formVersion: 1 }),
    )
  ).body;
  expect(olderForm.incompleteFields).toEqual(['company']);
  const kiosk = await buildToken(server, {
    accountId: world.accountId,
    siteIds: [world.siteId],
    channel: 'KIOSK',
    mode: 'visitor',
  });
  const refused = await apiClient(server.baseUrl, kiosk.token).post(
    `/v1/sites/${world.siteId}/checkins/people`,
    visitor('Kio', 'Refused'),
  );
  expect(refused.status).toBe(422);
  const own = await owner.api.get<{ data: Alert[] }>('/v1/alerts');
  kioskAlertId = own.body.data.find((alert) => alert.kind === 'kiosk')?.checkinId ?? 0;
  expect(kioskAlertId).toBeGreaterThan(0);
  const token = await buildToken(server, {
    accountId: stranger.accountId,
    allSites: true,
    scopes: [
      'users:manage',
      'alerts:manage',
      'audit:read',
      'checkins:read',
      'checkins:write',
      'exports:read',
      'privacy:manage',
    ],
  });
  outsiders.push({ name: 'another account’s token', api: apiClient(server.baseUrl, token.token) });
  outsiders.push({
    name: 'another account’s owner session',
    api: (await staffClient(server, { accountId: stranger.accountId, role: 'owner' })).api,
  });
});

describe('tenant isolation of users, alerts, audit events and sessions (another account)', () => {
  it('users: not listed; read, change and reset by id are 404', async () => {
    for (const { name, api } of outsiders) {
      const list = await api.get<{ data: StaffUser[] }>('/v1/users');
      expect(list.status, name).toBe(200);
      expect(
        list.body.data.map((user) => user.userId),
        name,
      ).not.toContain(userId);
      expect((await api.get(`/v1/users/${userId}`)).status, name).toBe(404);
      expect((await api.patch(`/v1/users/${userId}`, { disabled: true })).status, name).toBe(404);
      expect((await api.post(`/v1/users/${userId}/password-reset`)).status, name).toBe(404);
      expect(
        (
          await api.post('/v1/users', {
            email: 'x@example.com',
            name: 'X',
            role: 'owner',
            siteIds: [harness.world.siteId],
          })
        ).status,
        name,
      ).toBe(422);
    }
  });

  it('alerts: not listed; acknowledging is 404; a site of the account is 404', async () => {
    for (const { name, api } of outsiders) {
      const list = await api.get<{ data: Alert[] }>('/v1/alerts');
      expect(list.status, name).toBe(200);
      expect(
        list.body.data.map((alert) => alert.checkinId),
        name,
      ).not.toContain(stopped.checkinId);
      expect(JSON.stringify(list.body)).not.toContain('Private reason');
      expect((await api.post(`/v1/alerts/person/${stopped.checkinId}/acknowledge`)).status, name).toBe(404);
      expect(
        list.body.data.filter((alert) => alert.kind === 'form' || alert.kind === 'kiosk'),
        name,
      ).toEqual([]);
      expect((await api.post(`/v1/alerts/form/${olderForm.checkinId}/acknowledge`)).status, name).toBe(404);
      expect((await api.post(`/v1/alerts/kiosk/${kioskAlertId}/acknowledge`)).status, name).toBe(404);
      expect((await api.get(`/v1/alerts?siteIds=${harness.world.siteId}`)).status, name).toBe(404);
    }
  });

  it('audit events: none of the account’s; its site is 404', async () => {
    for (const { name, api } of outsiders) {
      const list = await api.get<{ data: AuditEvent[] }>('/v1/audit-events?limit=200');
      expect(list.status, name).toBe(200);
      expect(
        list.body.data.filter((event) => event.target.id === userId || event.siteId === harness.world.siteId),
        name,
      ).toEqual([]);
      expect((await api.get(`/v1/audit-events?siteIds=${harness.world.siteId}`)).status, name).toBe(404);
    }
  });

  it('exports: the account’s site is 404; their own export holds none of its rows', async () => {
    for (const { name, api } of outsiders) {
      for (const path of ['/v1/checkins/people/export', '/v1/checkins/vehicles/export']) {
        const range = 'from=2020-01-01&to=2030-12-31';
        expect((await api.get(`${path}?siteIds=${harness.world.siteId}&${range}`)).status, name).toBe(404);
        const own = await api.get(`${path}?${range}`);
        expect(own.status, name).toBe(200);
        expect(own.text, name).not.toContain('Lated');
      }
    }
  });

  it('retention and erasure: another account sets its own retention and erases only its own visitors', async () => {
    const { world, server } = harness;
    const owner = (await staffClient(server, { accountId: world.accountId, role: 'owner' })).api;
    expect((await owner.put('/v1/account/retention', { personDataDays: 365 })).status).toBe(200);
    for (const { name, api } of outsiders) {
      expect((await api.put('/v1/account/retention', { personDataDays: 2 })).status, name).toBe(200);
      const erased = await api.post<{ anonymized: number }>('/v1/privacy/erasure', {
        email: 'isolated@example.com',
        firstName: 'Iso',
        lastName: 'Lated',
      });
      expect(erased.status, name).toBe(200);
      expect(erased.body.anonymized, name).toBe(0);
    }
    expect((await owner.get('/v1/account/retention')).body).toEqual({ personDataDays: 365 });
    const ours = await owner.get<PersonCheckin>(`/v1/sites/${world.siteId}/checkins/people/${stopped.checkinId}`);
    expect(ours.body.person.email).toBe('isolated@example.com');
  });

  it('check-ins: the account’s sites are 404 for another account’s session', async () => {
    const api = outsiders[1]?.api;
    if (!api) throw new Error('no session');
    expect((await api.get(`/v1/sites/${harness.world.siteId}/checkins/people`)).status).toBe(404);
    expect((await api.get(`/v1/sites/${harness.world.siteId}/checkins/people/${stopped.checkinId}`)).status).toBe(404);
    expect((await api.post(`/v1/sites/${harness.world.siteId}/checkins/people`, visitor())).status).toBe(404);
    const own = await api.get<{ user: StaffUser }>('/v1/session');
    expect(own.body.user.userId).not.toBe(userId);
  });
});
