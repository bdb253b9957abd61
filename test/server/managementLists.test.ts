import { describe, expect, it } from 'vitest';
import { buildToken } from '../support/factories';
import { apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { TEST_ADMIN_TOKEN } from '../support/testServer';

const harness = serverAndWorld({ stranger: true });
const admin = () => apiClient(harness.server.baseUrl, TEST_ADMIN_TOKEN);
type Page<T> = { data: T[]; nextCursor: string | null };

describe('the management API lists accounts, their sites and tokens', () => {
  it('pages every account by id', async () => {
    const first = await admin().get<Page<{ accountId: number; name: string }>>('/v1/admin/accounts?limit=1');
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(1);
    const all: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: Page<{ accountId: number }> } = await admin().get(
        `/v1/admin/accounts?limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      all.push(...page.body.data.map((account) => account.accountId));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(all).toContain(harness.world.accountId);
    expect(all).toContain(harness.stranger.accountId);
    expect([...all].sort((a, b) => a - b)).toEqual(all);
  });

  it("lists one account's sites, archived ones too, and its live tokens without secrets", async () => {
    const { world, server } = harness;
    await world.api.patch(`/v1/sites/${world.otherSiteId}`, { archived: true });
    const sites = await admin().get<Page<{ siteId: number; accountId: number }>>(
      `/v1/admin/accounts/${world.accountId}/sites`,
    );
    expect(sites.body.data.map((site) => site.siteId)).toEqual([world.siteId, world.otherSiteId]);
    expect(sites.body.data.every((site) => site.accountId === world.accountId)).toBe(true);
    const revoked = await buildToken(server, { accountId: world.accountId, allSites: true });
    await admin().delete(`/v1/admin/tokens/${revoked.tokenId}`);
    const tokens = await admin().get<Page<{ tokenId: number; accountId: number }>>(
      `/v1/admin/accounts/${world.accountId}/tokens`,
    );
    expect(tokens.status).toBe(200);
    expect(tokens.body.data.length).toBeGreaterThan(0);
    expect(tokens.body.data.map((token) => token.tokenId)).not.toContain(revoked.tokenId);
    expect(tokens.body.data.every((token) => token.accountId === world.accountId)).toBe(true);
    expect(tokens.text).not.toContain(world.token);
  });

  it('an unknown account is 404; without the ADMIN_TOKEN, 401', async () => {
    expect((await admin().get('/v1/admin/accounts/999999/sites')).status).toBe(404);
    expect((await admin().get('/v1/admin/accounts/999999/tokens')).status).toBe(404);
    expect((await apiClient(harness.server.baseUrl, harness.world.token).get('/v1/admin/accounts')).status).toBe(401);
  });
});
