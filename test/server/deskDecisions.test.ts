import { describe, expect, it } from 'vitest';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import { defaultCheckinConfig } from '../../shared/src/schemas/sites';
import { putCheckinConfig } from '../support/checkinConfig';
import { buildSite, visitor } from '../support/factories';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

// What the people at the desk may do on their own (docs/api.md, Who decided; docs/running-a-site.md, Roles).
const harness = serverAndWorld({ env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' } });
const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;

async function approvalSite(): Promise<number> {
  const { siteId } = await buildSite(harness.server, harness.world.accountId);
  await putCheckinConfig({ api: harness.world.api, siteId }, defaultCheckinConfig.fields, true);
  return siteId;
}

describe('a manual check-in at a site that requires approval', () => {
  it('by a user who may approve there is decided by them at once: IN, decidedBy that user', async () => {
    const siteId = await approvalSite();
    for (const role of ['reception', 'manager', 'owner'] as const) {
      const { member, api } = await staffClient(harness.server, {
        accountId: harness.world.accountId,
        role,
        siteIds: [siteId],
      });
      const created = await api.post<PersonCheckin>(people(siteId), visitor('Walk', `In ${role}`));
      expect(created.status, role).toBe(201);
      expect(created.body, role).toMatchObject({
        status: 'IN',
        entry: { source: 'MANUAL' },
        decidedBy: { type: 'user', id: member.userId },
      });
      expect(created.body.decidedAt, role).not.toBeNull();
    }
  });

  it('by a token (a kiosk, an integrator) still waits for a person: PENDING, nobody decided', async () => {
    const siteId = await approvalSite();
    const created = await harness.world.api.post<PersonCheckin>(people(siteId), visitor('Token', 'Made'));
    expect(created.body).toMatchObject({ status: 'PENDING', decidedBy: null });
  });

  it('of a watchlisted person is still a STOP, whoever makes it', async () => {
    const siteId = await approvalSite();
    expect(
      (await harness.world.api.post('/v1/watchlist/people', { firstName: 'Mallory', lastName: 'Desk', reason: 'No' }))
        .status,
    ).toBe(201);
    const { api } = await staffClient(harness.server, {
      accountId: harness.world.accountId,
      role: 'reception',
      siteIds: [siteId],
    });
    expect((await api.post<PersonCheckin>(people(siteId), visitor('Mallory', 'Desk'))).body.status).toBe('STOP');
  });
});

describe('reception looks up past visits', () => {
  it('searches any day of their sites (the History page) but cannot export', async () => {
    const { siteId, otherSiteId } = harness.world;
    const created = await harness.world.api.post<PersonCheckin>(people(siteId), visitor('Yester', 'Day'));
    await harness.world.api.post(`${people(siteId)}/${created.body.checkinId}/checkout`);
    const { api } = await staffClient(harness.server, {
      accountId: harness.world.accountId,
      role: 'reception',
      siteIds: [siteId],
    });
    const range = {
      overlapsFrom: new Date(Date.now() - 2 * 24 * 3_600_000).toISOString(),
      overlapsTo: new Date(Date.now() + 60_000).toISOString(),
    };
    const found = await api.post<{ data: PersonCheckin[] }>('/v1/checkins/people/search', { ...range, q: 'Yester' });
    expect(found.status).toBe(200);
    expect(found.body.data.map((visit) => [visit.checkinId, visit.status])).toEqual([[created.body.checkinId, 'OUT']]);
    expect((await api.post('/v1/checkins/vehicles/search', range)).status).toBe(200);
    expect((await api.post('/v1/checkins/people/search', { ...range, siteIds: [otherSiteId] })).status).toBe(404);
    const exported = await api.get(`/v1/checkins/people/export?siteIds=${siteId}&from=2026-01-01&to=2026-01-02`);
    expect(exported.status).toBe(403);
  });
});
