import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../shared/src/schemas/admin';
import { up } from '../../server/src/db/migrations/0013_watchlist_scope';
import type { WatchlistDigest } from '../../shared/src/schemas/watchlist';
import { buildAccount, buildSite, buildToken } from '../support/factories';
import { apiClient } from '../support/http';
import { runMigration } from '../support/migration';
import { type TestServer, startTestServer } from '../support/testServer';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const scopesOf = async (tokenId: number) => {
  const [rows] = await server.sequelize.query('SELECT scopes FROM api_tokens WHERE id = $1', { bind: [tokenId] });
  return [...((rows as Array<{ scopes: Scope[] }>)[0]?.scopes ?? [])].sort();
};

describe('migration 0013 (watchlist:manage)', () => {
  it('gives watchlist:manage to API tokens that had checkins:approve, not to KIOSK tokens or the others', async () => {
    const account = await buildAccount(server);
    const site = await buildSite(server, account.accountId);
    const old: Scope[] = [
      'checkins:read',
      'checkins:write',
      'checkins:approve',
      'vehicles:read',
      'vehicles:write',
      'labels:write',
    ];
    const integrator = await buildToken(server, { accountId: account.accountId, scopes: old, channel: 'API' });
    const reader = await buildToken(server, {
      accountId: account.accountId,
      scopes: ['checkins:read'],
      channel: 'API',
    });
    // A kiosk token as it was then (the §16 defaults); today's rules give a KIOSK token only its mode's scope.
    const tablet = await buildToken(server, { accountId: account.accountId, siteIds: [site.siteId], scopes: old });
    await server.sequelize.query(`UPDATE api_tokens SET channel = 'KIOSK' WHERE id = $1`, { bind: [tablet.tokenId] });
    // The database as it was before: no watchlist scope anywhere, no digest key.
    await server.sequelize.query(`UPDATE api_tokens SET scopes = array_remove(scopes, 'watchlist:manage')`);
    await server.sequelize.query('ALTER TABLE accounts DROP COLUMN watchlist_digest_key');

    expect(await runMigration(server.sequelize, up)).toEqual([]);

    expect(await scopesOf(integrator.tokenId)).toEqual([...old, 'watchlist:manage'].sort());
    expect(await scopesOf(reader.tokenId)).toEqual(['checkins:read']);
    expect(await scopesOf(tablet.tokenId)).toEqual([...old].sort());

    // What it means over HTTP: the integrator still manages the watchlist; the tablet no longer reads it.
    const managed = await apiClient(server.baseUrl, integrator.token).post('/v1/watchlist/people', {
      email: 'after@example.com',
      reason: 'Kept',
    });
    expect(managed.status).toBe(201);
    expect((await apiClient(server.baseUrl, integrator.token).get('/v1/watchlist/people')).status).toBe(200);
    expect((await apiClient(server.baseUrl, tablet.token).get('/v1/watchlist/people')).status).toBe(403);

    // Every account got its own digest key, and the kiosk reads the digest with it.
    const [keys] = await server.sequelize.query('SELECT DISTINCT watchlist_digest_key FROM accounts');
    const [accounts] = await server.sequelize.query('SELECT count(*)::int AS n FROM accounts');
    expect(keys).toHaveLength((accounts as Array<{ n: number }>)[0]?.n ?? -1);
    const digest = await apiClient(server.baseUrl, tablet.token).get<WatchlistDigest>(
      `/v1/sites/${site.siteId}/kiosk/watchlist-digest`,
    );
    expect(digest.status).toBe(200);
    expect(digest.body.email).toHaveLength(1);
  });
});
