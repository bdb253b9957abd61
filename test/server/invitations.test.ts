import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../shared/src/schemas/audit';
import type { Host } from '../../shared/src/schemas/hosts';
import type { Invitation } from '../../shared/src/schemas/invitations';
import { invite } from '../support/invitations';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

const harness = serverAndWorld({ env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' } });
const HOUR = 3_600_000;

describe('invitations: create, read, list, change', () => {
  it('creates an expected invitation with its defaults, and reads it back as created', async () => {
    const { world } = harness;
    const host = (await world.api.post<Host>('/v1/hosts', { name: 'Grace Hopper', siteIds: [world.siteId] })).body;
    const created = await invite(world.api, world.siteId, {
      person: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', company: 'ACME' },
      hostId: host.hostId,
      purpose: 'Design review',
      sendEmail: false,
    });
    expect(created).toMatchObject({
      siteId: world.siteId,
      person: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: null, company: 'ACME' },
      hostId: host.hostId,
      hostName: 'Grace Hopper',
      purpose: 'Design review',
      // None chosen: the email speaks the site's default language (invitationEmail.test.ts).
      language: null,
      status: 'expected',
      checkinId: null,
      arrivedAt: null,
      createdBy: { type: 'token' },
      passEmail: null,
    });
    // Validity is kept to the second, as the pass states it.
    expect(created.validFrom.endsWith('.000Z')).toBe(true);
    const read = await world.api.get<Invitation>(`/v1/invitations/${created.invitationId}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);
  });

  it('gives a pass the expected day at the site when no validity is sent', async () => {
    const { world, server } = harness;
    const site = await world.api.post<{ siteId: number }>(
      `/v1/admin/accounts/${world.accountId}/sites`,
      {
        name: 'Tokyo office',
        timezone: 'Asia/Tokyo',
      },
      { headers: { Authorization: `Bearer ${server.env.ADMIN_TOKEN}` } },
    );
    expect(site.status, site.text).toBe(201);
    // 10:00 in Tokyo tomorrow-ish: the day there runs from 15:00Z the day before to 15:00Z.
    const expectedAt = new Date(Date.now() + 48 * HOUR);
    expectedAt.setUTCHours(1, 0, 0, 0);
    const response = await world.api.post<Invitation>('/v1/invitations', {
      siteId: site.body.siteId,
      person: { firstName: 'Kenji', lastName: 'Sato' },
      expectedAt: expectedAt.toISOString(),
    });
    expect(response.status, response.text).toBe(201);
    const dayBefore = new Date(expectedAt.getTime() - 24 * HOUR);
    expect(response.body.validFrom).toBe(`${dayBefore.toISOString().slice(0, 10)}T15:00:00.000Z`);
    expect(response.body.validUntil).toBe(`${expectedAt.toISOString().slice(0, 10)}T15:00:00.000Z`);
  });

  it('refuses times that cannot be, a host of another site, and an unknown site', async () => {
    const { world } = harness;
    const now = Date.now();
    const base = { siteId: world.siteId, person: { firstName: 'A', lastName: 'B' } };
    const paths = async (body: Record<string, unknown>) => {
      const response = await world.api.post<{ errors?: Array<{ path: string }> }>('/v1/invitations', body);
      expect(response.status, response.text).toBe(422);
      return (response.body.errors ?? []).map((error) => error.path);
    };
    expect(await paths({ ...base, expectedAt: new Date(now - 48 * HOUR).toISOString() })).toContain('validUntil');
    expect(
      await paths({
        ...base,
        expectedAt: new Date(now + 5 * HOUR).toISOString(),
        validFrom: new Date(now).toISOString(),
        validUntil: new Date(now + 2 * HOUR).toISOString(),
      }),
    ).toEqual(['expectedAt']);
    expect(
      await paths({
        ...base,
        expectedAt: new Date(now).toISOString(),
        validFrom: new Date(now - HOUR).toISOString(),
        validUntil: new Date(now + 400 * 24 * HOUR).toISOString(),
      }),
    ).toEqual(['validUntil']);
    const elsewhere = (await world.api.post<Host>('/v1/hosts', { name: 'Elsewhere', siteIds: [world.otherSiteId] }))
      .body;
    expect(await paths({ ...base, expectedAt: new Date(now).toISOString(), hostId: elsewhere.hostId })).toEqual([
      'hostId',
    ]);
    const unknown = await world.api.post('/v1/invitations', {
      ...base,
      siteId: 999_999,
      expectedAt: new Date(now).toISOString(),
    });
    expect(unknown.status).toBe(404);
  });

  it('lists a day of the chosen sites, earliest expected first, by status, a page at a time', async () => {
    const { world } = harness;
    const day = new Date(Date.now() + 5 * 24 * HOUR);
    day.setUTCHours(0, 0, 0, 0);
    const at = (hour: number) => new Date(day.getTime() + hour * HOUR).toISOString();
    const times = { validFrom: at(0), validUntil: at(24) };
    const later = await invite(world.api, world.siteId, {
      person: { firstName: 'Later', lastName: 'L' },
      expectedAt: at(15),
      ...times,
    });
    const early = await invite(world.api, world.siteId, {
      person: { firstName: 'Early', lastName: 'E' },
      expectedAt: at(9),
      ...times,
    });
    const other = await invite(world.api, world.otherSiteId, {
      person: { firstName: 'Other', lastName: 'O' },
      expectedAt: at(10),
      ...times,
    });
    const cancelled = await invite(world.api, world.siteId, {
      person: { firstName: 'Gone', lastName: 'G' },
      expectedAt: at(11),
      ...times,
    });
    expect((await world.api.post(`/v1/invitations/${cancelled.invitationId}/cancel`)).status).toBe(200);
    const list = async (query: string) => {
      const response = await world.api.get<{ data: Invitation[]; nextCursor: string | null }>(
        `/v1/invitations?${query}`,
      );
      expect(response.status, response.text).toBe(200);
      return response.body;
    };
    const range = `from=${at(0)}&to=${at(24)}`;
    expect((await list(range)).data.map((item) => item.person.firstName)).toEqual(['Early', 'Other', 'Gone', 'Later']);
    expect(
      (await list(`${range}&siteIds=${world.siteId}&status=expected`)).data.map((item) => item.invitationId),
    ).toEqual([early.invitationId, later.invitationId]);
    expect((await list(`${range}&status=cancelled`)).data.map((item) => item.status)).toEqual(['cancelled']);
    const first = await list(`${range}&limit=2`);
    expect(first.data.map((item) => item.invitationId)).toEqual([early.invitationId, other.invitationId]);
    expect(first.nextCursor).not.toBeNull();
    const second = await list(`${range}&limit=2&cursor=${first.nextCursor}`);
    expect(second.data.map((item) => item.invitationId)).toEqual([cancelled.invitationId, later.invitationId]);
    expect(second.nextCursor).toBeNull();
    // A cursor belongs to its filters.
    expect((await world.api.get(`/v1/invitations?status=expected&limit=2&cursor=${first.nextCursor}`)).status).toBe(
      400,
    );
    expect((await world.api.get(`/v1/invitations?status=maybe`)).status).toBe(400);
  });

  it("keeps the language of the visitor's email: one Gatehouse speaks, changed or cleared (null) by PATCH", async () => {
    const { world } = harness;
    const created = await invite(world.api, world.siteId, { language: 'zh' });
    expect(created.language).toBe('zh');
    const path = `/v1/invitations/${created.invitationId}`;
    expect((await world.api.patch<Invitation>(path, { language: 'ar' })).body.language).toBe('ar');
    expect((await world.api.patch<Invitation>(path, { purpose: 'Interview' })).body.language).toBe('ar');
    expect((await world.api.patch<Invitation>(path, { language: null })).body.language).toBeNull();
    const refused = await world.api.post<{ code: string; errors: Array<{ path: string }> }>('/v1/invitations', {
      siteId: world.siteId,
      person: { firstName: 'Ada', lastName: 'Lovelace' },
      expectedAt: new Date().toISOString(),
      language: 'zh-TW',
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((error) => error.path)).toContain('language');
  });

  it('changes what is sent; a new expected time alone moves the validity to its day; closed ones are 409', async () => {
    const { world } = harness;
    const created = await invite(world.api, world.siteId, { purpose: 'Interview' });
    const tomorrow = new Date(Date.now() + 30 * HOUR);
    const changed = await world.api.patch<Invitation>(`/v1/invitations/${created.invitationId}`, {
      person: { company: 'Analytical Engines' },
      purpose: null,
      expectedAt: tomorrow.toISOString(),
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ person: { company: 'Analytical Engines' }, purpose: null });
    expect(changed.body.validFrom).toBe(`${tomorrow.toISOString().slice(0, 10)}T00:00:00.000Z`);
    expect((await world.api.post(`/v1/invitations/${created.invitationId}/cancel`)).status).toBe(200);
    const again = await world.api.patch<{ code: string; current: Invitation }>(
      `/v1/invitations/${created.invitationId}`,
      {
        purpose: 'Too late',
      },
    );
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('INVITATION_CLOSED');
    expect(again.body.current.status).toBe('cancelled');
    expect((await world.api.post(`/v1/invitations/${created.invitationId}/cancel`)).status).toBe(409);
    expect((await world.api.post(`/v1/invitations/${created.invitationId}/resend`)).status).toBe(409);
    expect((await world.api.get(`/v1/invitations/${created.invitationId}/pass`)).status).toBe(409);
  });

  it('resend needs an email; every write is audited with the invitation and its site', async () => {
    const { world, server } = harness;
    const { api: owner } = await staffClient(server, { accountId: world.accountId, role: 'owner' });
    const created = await invite(owner, world.siteId);
    const resend = await owner.post<{ code: string }>(`/v1/invitations/${created.invitationId}/resend`);
    expect(resend.status).toBe(409);
    expect(resend.body.code).toBe('NO_EMAIL');
    expect(
      (await owner.patch(`/v1/invitations/${created.invitationId}`, { person: { email: 'ada@example.com' } })).status,
    ).toBe(200);
    expect((await owner.post(`/v1/invitations/${created.invitationId}/resend`)).status).toBe(200);
    expect((await owner.post(`/v1/invitations/${created.invitationId}/cancel`)).status).toBe(200);
    const audit = await owner.get<{ data: AuditEvent[] }>(`/v1/audit-events?action=invitation`);
    const mine = (await owner.get<{ data: AuditEvent[] }>('/v1/audit-events?limit=200')).body.data.filter(
      (event) => event.target.type === 'invitation' && event.target.id === created.invitationId,
    );
    expect(audit.status).toBe(200);
    expect(mine.map((event) => event.action).reverse()).toEqual([
      'invitation.created',
      'invitation.updated',
      'invitation.resent',
      'invitation.cancelled',
    ]);
    expect(mine.every((event) => event.siteId === world.siteId)).toBe(true);
  });
});

describe('who may invite', () => {
  it('reception, managers and owners read and write; security does not; tokens only with the scopes', async () => {
    const { world, server } = harness;
    for (const role of ['reception', 'manager', 'owner'] as const) {
      const { api } = await staffClient(server, { accountId: world.accountId, role, siteIds: [world.siteId] });
      const created = await invite(api, world.siteId);
      expect((await api.get(`/v1/invitations/${created.invitationId}`)).status, role).toBe(200);
    }
    const { api: security } = await staffClient(server, { accountId: world.accountId, role: 'security' });
    expect((await security.get('/v1/invitations')).status).toBe(403);
  });
});
