import { describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import { queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import { buildAccount, buildSite, buildToken } from '../support/factories';
import { apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { staffClient } from '../support/staff';

const harness = serverAndWorld({ env: { SIGNIN_FAILURES_PER_ADDRESS: '1000' }, worldPerTest: true });
interface TokenBody {
  tokenId: number;
  name: string;
  siteIds: number[];
  allSites: boolean;
  scopes: string[];
  channel: string;
  token?: string;
}
type TokenList = { data: TokenBody[]; nextCursor: string | null };
const owner = () => staffClient(harness.server, { accountId: harness.world.accountId, role: 'owner' });

describe('API tokens', () => {
  it('an owner creates one: the plaintext is shown once, never listed, never in the audit row or the logs', async () => {
    const { api } = await owner();
    const created = await api.post<TokenBody>('/v1/tokens', {
      name: 'Badge printer',
      siteIds: [harness.world.siteId],
      scopes: ['checkins:read'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Badge printer',
      siteIds: [harness.world.siteId],
      allSites: false,
      scopes: ['checkins:read'],
      channel: 'API',
    });
    const plaintext = created.body.token ?? '';
    expect(plaintext).toMatch(/^ck_/);
    const printer = apiClient(harness.server.baseUrl, plaintext);
    expect((await printer.get(`/v1/sites/${harness.world.siteId}/checkins/people`)).status).toBe(200);
    expect(
      (
        await printer.post(`/v1/sites/${harness.world.siteId}/checkins/people`, {
          person: { firstName: 'A', lastName: 'B' },
        })
      ).status,
    ).toBe(403);
    const list = await api.get<TokenList>('/v1/tokens');
    expect(list.body.data[0]?.tokenId).toBe(created.body.tokenId);
    expect(list.text).not.toContain(plaintext);
    const audit = await queryRows<{ row: unknown }>(
      harness.server.database,
      sql`SELECT to_jsonb(a) AS row FROM audit_events a WHERE account_id = ${harness.world.accountId}`,
    );
    expect(JSON.stringify(audit)).toContain('token.create');
    expect(JSON.stringify(audit)).not.toContain(plaintext);
    expect(JSON.stringify(harness.server.logs)).not.toContain(plaintext);
  });

  it('without scopes a token gets the API defaults the caller has; never a scope the caller lacks', async () => {
    const { server, world } = harness;
    const manager = await buildToken(server, {
      accountId: world.accountId,
      allSites: true,
      scopes: ['tokens:manage', 'checkins:read'],
    });
    const api = apiClient(server.baseUrl, manager.token);
    const defaults = await api.post<TokenBody>('/v1/tokens', { name: 'Defaults', siteIds: [world.siteId] });
    expect(defaults.status).toBe(201);
    expect(defaults.body.scopes).toEqual(['checkins:read']);
    const other = await buildAccount(server);
    const otherSite = await buildSite(server, other.accountId);
    const refusals = await Promise.all([
      api.post<Problem>('/v1/tokens', {
        name: 'More scopes',
        siteIds: [world.siteId],
        scopes: ['checkins:read', 'checkins:write'],
      }),
      api.post<Problem>('/v1/tokens', {
        name: 'Other account',
        siteIds: [otherSite.siteId],
        scopes: ['checkins:read'],
      }),
      api.post<Problem>('/v1/tokens', { name: 'Past', siteIds: [world.siteId], expiresAt: '2020-01-01T00:00:00Z' }),
    ]);
    expect(refusals.map((answer) => [answer.status, answer.body.errors?.map((error) => error.path)])).toEqual([
      [422, ['scopes']],
      [422, ['siteIds']],
      [422, ['expiresAt']],
    ]);
  });

  it('is account-wide work: a caller with a site list gets 403 even with tokens:manage', async () => {
    const { server, world } = harness;
    const limited = await buildToken(server, {
      accountId: world.accountId,
      siteIds: [world.siteId],
      scopes: ['tokens:manage', 'checkins:read'],
    });
    const api = apiClient(server.baseUrl, limited.token);
    const answers = await Promise.all([
      api.get<Problem>('/v1/tokens'),
      api.post<Problem>('/v1/tokens', { name: 'Mine', siteIds: [world.siteId], scopes: ['checkins:read'] }),
      api.delete<Problem>(`/v1/tokens/${limited.tokenId}`),
    ]);
    expect(answers.map((answer) => [answer.status, answer.body.code])).toEqual([
      [403, 'INSUFFICIENT_SCOPE'],
      [403, 'INSUFFICIENT_SCOPE'],
      [403, 'INSUFFICIENT_SCOPE'],
    ]);
  });

  it("revoking answers 401 to the token's next request; revoking again, or another account's, is 404", async () => {
    const { api } = await owner();
    const created = (
      await api.post<TokenBody>('/v1/tokens', { name: 'Short-lived', allSites: true, scopes: ['checkins:read'] })
    ).body;
    expect((await api.delete(`/v1/tokens/${created.tokenId}`)).status).toBe(204);
    expect(
      (await apiClient(harness.server.baseUrl, created.token).get(`/v1/sites/${harness.world.siteId}/checkins/people`))
        .status,
    ).toBe(401);
    expect((await api.delete(`/v1/tokens/${created.tokenId}`)).status).toBe(404);
    expect((await api.get<TokenList>('/v1/tokens')).body.data.map((token) => token.tokenId)).not.toContain(
      created.tokenId,
    );
    const actions = await queryRows<{ action: string; target_id: string }>(
      harness.server.database,
      sql`SELECT action, target_id FROM audit_events WHERE account_id = ${harness.world.accountId} AND action = 'token.revoke'`,
    );
    expect(actions.map((row) => Number(row.target_id))).toEqual([created.tokenId]);
  });

  it('lists newest first in keyset pages, by channel if asked', async () => {
    const { api } = await owner();
    const names = ['First', 'Second', 'Third'];
    for (const name of names) await api.post('/v1/tokens', { name, allSites: true, scopes: ['checkins:read'] });
    const first = (await api.get<TokenList>('/v1/tokens?channel=API&limit=2')).body;
    expect(first.data.map((token) => token.name)).toEqual(['Third', 'Second']);
    const second = (await api.get<TokenList>(`/v1/tokens?channel=API&limit=2&cursor=${first.nextCursor}`)).body;
    expect(second.data.map((token) => token.name)[0]).toBe('First');
    expect(
      (await api.get<TokenList>('/v1/tokens?channel=KIOSK')).body.data.every((token) => token.channel === 'KIOSK'),
    ).toBe(true);
    // A cursor of one channel's list is refused on another's.
    expect((await api.get(`/v1/tokens?channel=KIOSK&cursor=${first.nextCursor}`)).status).toBe(400);
  });

  it('only owners manage tokens', async () => {
    const { world, server } = harness;
    for (const role of ['manager', 'reception', 'security'] as const) {
      const staff = (await staffClient(server, { accountId: world.accountId, role, siteIds: [world.siteId] })).api;
      expect((await staff.get('/v1/tokens')).status, role).toBe(403);
      expect((await staff.post('/v1/tokens', { name: 'X', siteIds: [world.siteId] })).status, role).toBe(403);
    }
  });
});
