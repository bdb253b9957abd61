import { beforeAll, describe, expect, it } from 'vitest';
import type { Invitation, InvitationImportResult, PassKeyList } from '../../shared/src/schemas/invitations';
import { queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import { buildToken } from '../support/factories';
import { type ApiClient, apiClient } from '../support/http';
import { invite } from '../support/invitations';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

// Tenant isolation of invitations, passes and pass keys (issue 34): another account's token or session, and
// a token or a receptionist of another site of the same account, see nothing of them and change nothing;
// every id is a 404 or an empty list, never data.
const harness = serverAndWorld({ env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' }, stranger: true });

let invitation: Invitation;
const outsiders: Array<{ name: string; api: ApiClient; siteId: number }> = [];

beforeAll(async () => {
  const { world, stranger, server } = harness;
  invitation = await invite(world.api, world.siteId, {
    person: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
  });
  const strangerToken = await buildToken(server, {
    accountId: stranger.accountId,
    allSites: true,
    scopes: ['invitations:read', 'invitations:write', 'checkins:read', 'tokens:manage'],
  });
  const otherSiteToken = await buildToken(server, {
    accountId: world.accountId,
    siteIds: [world.otherSiteId],
    scopes: ['invitations:read', 'invitations:write', 'checkins:read'],
  });
  outsiders.push(
    { name: 'another account’s token', api: apiClient(server.baseUrl, strangerToken.token), siteId: stranger.siteId },
    {
      name: 'another account’s owner session',
      api: (await staffClient(server, { accountId: stranger.accountId, role: 'owner' })).api,
      siteId: stranger.siteId,
    },
    {
      name: 'a token of another site',
      api: apiClient(server.baseUrl, otherSiteToken.token),
      siteId: world.otherSiteId,
    },
    {
      name: 'a receptionist of another site',
      api: (await staffClient(server, { accountId: world.accountId, role: 'reception', siteIds: [world.otherSiteId] }))
        .api,
      siteId: world.otherSiteId,
    },
  );
});

describe('tenant isolation of invitations', () => {
  it('lists none; read, change, cancel, resend and its pass by id are 404; nothing changed', async () => {
    const id = invitation.invitationId;
    for (const { name, api } of outsiders) {
      const list = await api.get<{ data: Invitation[] }>('/v1/invitations');
      expect(list.status, name).toBe(200);
      expect(
        list.body.data.map((item) => item.invitationId),
        name,
      ).not.toContain(id);
      expect((await api.get(`/v1/invitations/${id}`)).status, name).toBe(404);
      expect((await api.patch(`/v1/invitations/${id}`, { purpose: 'Taken over' })).status, name).toBe(404);
      expect((await api.post(`/v1/invitations/${id}/cancel`, {})).status, name).toBe(404);
      expect((await api.post(`/v1/invitations/${id}/resend`, {})).status, name).toBe(404);
      const pass = await api.get<Record<string, unknown>>(`/v1/invitations/${id}/pass`);
      expect(pass.status, name).toBe(404);
      expect(pass.text, name).not.toContain('eyJ');
      // Inviting someone to this site: none of theirs.
      const created = await api.post('/v1/invitations', {
        siteId: harness.world.siteId,
        person: { firstName: 'Eve', lastName: 'Outsider' },
        expectedAt: new Date().toISOString(),
      });
      expect([403, 404, 422], name).toContain(created.status);
      expect((await api.get(`/v1/sites/${harness.world.siteId}/kiosk/passes`)).status, name).toBe(404);
    }
    const after = await harness.world.api.get<Invitation>(`/v1/invitations/${id}`);
    expect([after.body.status, after.body.purpose]).toEqual(['expected', invitation.purpose]);
    const outsiderInvites = await queryRows<{ count: string }>(
      harness.server.database,
      sql`SELECT count(*)::text AS count FROM invitations WHERE last_name = 'Outsider'`,
    );
    expect(outsiderInvites[0]?.count).toBe('0');
  });

  it('an import cannot reach this account’s site', async () => {
    for (const { name, api } of outsiders) {
      const imported = await api.request<InvitationImportResult>('POST', '/v1/invitations/import', {
        rawBody: `site,firstName,lastName,expectedAt\n${harness.world.siteId},Eve,Imported,${new Date().toISOString()}\n`,
        headers: { 'Content-Type': 'text/csv' },
      });
      expect(imported.status, name).toBe(200);
      expect(imported.body.created, name).toBe(0);
      expect(imported.body.errors, name).toHaveLength(1);
    }
    const rows = await queryRows<{ count: string }>(
      harness.server.database,
      sql`SELECT count(*)::text AS count FROM invitations WHERE last_name = 'Imported'`,
    );
    expect(rows[0]?.count).toBe('0');
  });

  it('another account’s pass keys are its own: none of this account’s is published to it', async () => {
    const { world } = harness;
    const own = await world.api.get<PassKeyList>('/v1/pass-keys');
    const ownKids = own.body.keys.map((key) => key.kid);
    expect(ownKids.length).toBeGreaterThan(0);
    const stranger = outsiders[0];
    if (!stranger) throw new Error('no outsider');
    const theirs = await stranger.api.get<PassKeyList>('/v1/pass-keys');
    expect(theirs.status).toBe(200);
    expect(theirs.body.keys.map((key) => key.kid).filter((kid) => ownKids.includes(kid))).toEqual([]);
    // Rotating theirs leaves this account's keys as they were.
    expect((await stranger.api.post('/v1/pass-keys/rotate', {})).status).toBe(201);
    expect((await world.api.get<PassKeyList>('/v1/pass-keys')).body.keys.map((key) => key.kid)).toEqual(ownKids);
  });
});
