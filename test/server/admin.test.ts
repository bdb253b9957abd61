import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  type Account,
  type AdminSite,
  type CreatedToken,
  type Token,
  defaultScopes,
  scopes,
} from '../../shared/src/schemas/admin';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { Site } from '../../shared/src/schemas/sites';
import { type ApiClient, apiClient } from '../support/http';
import { buildAccount, buildSite, buildToken, visitor } from '../support/factories';
import { serverForFile } from '../support/serverAndWorld';
import { TEST_ADMIN_TOKEN } from '../support/testServer';

type AccountBody = z.infer<typeof Account>;
type SiteBody = z.infer<typeof AdminSite>;
type TokenBody = z.infer<typeof Token>;
type CreatedTokenBody = z.infer<typeof CreatedToken>;
type Page<T> = { data: T[]; nextCursor: string | null };

const harness = serverForFile();
// Every site has a visit code (docs/api.md, Visit codes): random, so matched by its form.
const visitCode: unknown = expect.stringMatching(/^[2-9A-HJ-NP-Z]{10}$/);
let admin: ApiClient;

beforeAll(() => {
  admin = apiClient(harness.server.baseUrl, TEST_ADMIN_TOKEN);
});

async function newAccount(name = 'Acme'): Promise<AccountBody> {
  const response = await admin.post<AccountBody>('/v1/admin/accounts', { name });
  expect(response.status).toBe(201);
  return response.body;
}

async function newSite(accountId: number, body: Record<string, unknown> = { name: 'Lobby' }): Promise<SiteBody> {
  const response = await admin.post<SiteBody>(`/v1/admin/accounts/${accountId}/sites`, body);
  expect(response.status).toBe(201);
  return response.body;
}

async function newToken(accountId: number, body: Record<string, unknown>): Promise<CreatedTokenBody> {
  const response = await admin.post<CreatedTokenBody>(`/v1/admin/accounts/${accountId}/tokens`, {
    name: 'Integration',
    ...body,
  });
  expect(response.status).toBe(201);
  return response.body;
}

function expectValidationFailed(response: { status: number; body: Problem }) {
  expect(response.status).toBe(422);
  expect(response.body.code).toBe('VALIDATION_FAILED');
  expect(response.body.errors?.length ?? 0).toBeGreaterThan(0);
}

describe('with ADMIN_TOKEN unset the management API does not exist', () => {
  const disabled = serverForFile({ ADMIN_TOKEN: '' });

  it('answers 404 NOT_FOUND on every /v1/admin/* route, with or without a bearer', async () => {
    expect(disabled.server.env.ADMIN_TOKEN).toBeUndefined();
    const account = await buildAccount(disabled.server);
    const token = await buildToken(disabled.server, { accountId: account.accountId, allSites: true });
    const routes: Array<[string, string, unknown]> = [
      ['POST', '/v1/admin/accounts', { name: 'Nope' }],
      ['POST', `/v1/admin/accounts/${account.accountId}/sites`, { name: 'Nope' }],
      ['POST', `/v1/admin/accounts/${account.accountId}/tokens`, { name: 'Nope', allSites: true }],
      ['PATCH', `/v1/admin/tokens/${token.tokenId}`, { scopes: ['checkins:read'] }],
      ['DELETE', `/v1/admin/tokens/${token.tokenId}`, undefined],
    ];
    for (const client of [
      apiClient(disabled.server.baseUrl),
      apiClient(disabled.server.baseUrl, TEST_ADMIN_TOKEN),
      apiClient(disabled.server.baseUrl, token.token),
    ]) {
      for (const [method, path, body] of routes) {
        const response = await client.request<Problem>(method, path, { body });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
        expect(response.body.code).toBe('NOT_FOUND');
        expect(response.headers.get('www-authenticate')).toBeNull();
      }
    }
    // Nothing happened: the token still works, with its original scopes.
    const still = await apiClient(disabled.server.baseUrl, token.token).post<PersonCheckin>(
      `/v1/sites/${(await buildSite(disabled.server, account.accountId)).siteId}/checkins/people`,
      visitor(),
    );
    expect(still.status).toBe(201);
  });
});

describe('admin authentication', () => {
  it('refuses a missing bearer with 401 and WWW-Authenticate: Bearer', async () => {
    const response = await apiClient(harness.server.baseUrl).post<Problem>('/v1/admin/accounts', { name: 'X' });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(response.body.code).toBe('UNAUTHENTICATED');
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('refuses a wrong bearer (including an API token) with 401 error="invalid_token", on every route', async () => {
    const account = await newAccount();
    const site = await newSite(account.accountId);
    const issued = await newToken(account.accountId, {
      allSites: true,
      scopes: scopes.filter((scope) => !scope.startsWith('kiosk:')),
    });
    const routes: Array<[string, string, unknown]> = [
      ['POST', '/v1/admin/accounts', { name: 'Nope' }],
      ['POST', `/v1/admin/accounts/${account.accountId}/sites`, { name: 'Nope' }],
      ['POST', `/v1/admin/accounts/${account.accountId}/tokens`, { name: 'Nope', siteIds: [site.siteId] }],
      ['PATCH', `/v1/admin/tokens/${issued.tokenId}`, { scopes: ['checkins:read'] }],
      ['DELETE', `/v1/admin/tokens/${issued.tokenId}`, undefined],
    ];
    for (const wrong of [`${TEST_ADMIN_TOKEN}x`, TEST_ADMIN_TOKEN.slice(0, -1), 'wrong', issued.token]) {
      for (const [method, path, body] of routes) {
        const response = await apiClient(harness.server.baseUrl, wrong).request<Problem>(method, path, { body });
        expect(response.status, `${method} ${path}`).toBe(401);
        expect(response.body.code).toBe('UNAUTHENTICATED');
        expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
      }
    }
    // The refused PATCH and DELETE changed nothing.
    const api = apiClient(harness.server.baseUrl, issued.token);
    expect((await api.post(`/v1/sites/${site.siteId}/checkins/people`, visitor())).status).toBe(201);
  });

  it('the admin token is not an API token', async () => {
    const response = await admin.get<Problem>('/v1/sites');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('UNAUTHENTICATED');
  });
});

describe('POST /v1/admin/accounts', () => {
  it('creates an account: 201 {accountId, name}', async () => {
    const response = await admin.post<AccountBody>('/v1/admin/accounts', { name: 'Globex' });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(response.body).toEqual({ accountId: expect.any(Number), name: 'Globex' });
    expect(Number.isInteger(response.body.accountId) && response.body.accountId > 0).toBe(true);
    const second = await newAccount('Initech');
    expect(second.accountId).not.toBe(response.body.accountId);
  });

  it('refuses a missing or empty name and unknown fields (422 VALIDATION_FAILED)', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'Ok', plan: 'gold' }]) {
      expectValidationFailed(await admin.post<Problem>('/v1/admin/accounts', body));
    }
  });
});

describe('POST /v1/admin/accounts/{accountId}/sites', () => {
  it('creates a site with timezone UTC by default, 201 {siteId, accountId, name, timezone}', async () => {
    const account = await newAccount();
    const response = await admin.post<SiteBody>(`/v1/admin/accounts/${account.accountId}/sites`, { name: 'Main gate' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      siteId: expect.any(Number),
      accountId: account.accountId,
      name: 'Main gate',
      timezone: 'UTC',
    });
  });

  it('keeps a valid IANA timezone', async () => {
    const account = await newAccount();
    const site = await newSite(account.accountId, { name: 'Berlin office', timezone: 'Europe/Berlin' });
    expect(site.timezone).toBe('Europe/Berlin');
    const token = await newToken(account.accountId, { siteIds: [site.siteId] });
    const read = await apiClient(harness.server.baseUrl, token.token).get<Site>(`/v1/sites/${site.siteId}`);
    expect(read.body).toEqual({
      siteId: site.siteId,
      name: 'Berlin office',
      timezone: 'Europe/Berlin',
      archivedAt: null,
      badge: { enabled: false, size: '62x100' },
      defaultLanguage: 'en',
      visit: { code: visitCode, requiresApproval: false },
    });
  });

  it('refuses an unknown timezone with 422 naming timezone', async () => {
    const account = await newAccount();
    for (const timezone of ['Mars/Olympus_Mons', 'utc+2', '']) {
      const response = await admin.post<Problem>(`/v1/admin/accounts/${account.accountId}/sites`, {
        name: 'X',
        timezone,
      });
      expectValidationFailed(response);
      expect(response.body.errors?.map((error) => error.path)).toContain('timezone');
    }
  });

  it('answers 404 for an unknown account', async () => {
    const response = await admin.post<Problem>('/v1/admin/accounts/2000000000/sites', { name: 'Nowhere' });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('NOT_FOUND');
    const notAnId = await admin.post<Problem>('/v1/admin/accounts/abc/sites', { name: 'Nowhere' });
    expect(notAnId.status).toBe(404);
  });
});

describe('POST /v1/admin/accounts/{accountId}/tokens', () => {
  it('issues a token with its plaintext once, default scopes and channel API', async () => {
    const account = await newAccount();
    const site = await newSite(account.accountId);
    const response = await admin.post<CreatedTokenBody>(`/v1/admin/accounts/${account.accountId}/tokens`, {
      name: 'Front desk integration',
      siteIds: [site.siteId],
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      tokenId: expect.any(Number),
      accountId: account.accountId,
      name: 'Front desk integration',
      siteIds: [site.siteId],
      allSites: false,
      channel: 'API',
      expiresAt: null,
    });
    expect(response.body.token).toMatch(/^ck_[0-9A-Za-z]{36}$/);
    expect([...response.body.scopes].sort()).toEqual([...defaultScopes].sort());
    expect(response.body.scopes).not.toContain('webhooks:manage');
    expect(response.body.scopes).not.toContain('sites:configure');
    // The integrator's defaults: every scope but those that manage the account or read it whole.
    expect([...response.body.scopes].sort()).toEqual([
      'checkins:approve',
      'checkins:read',
      'checkins:write',
      'labels:write',
      'vehicles:read',
      'vehicles:write',
      'watchlist:manage',
    ]);
    expect(response.body.scopes).toContain('watchlist:manage');
    expect(JSON.stringify(response.body)).not.toMatch(/hash/i);
  });

  it("a KIOSK-channel token gets its mode's one scope, for exactly one site (issue 31)", async () => {
    const account = await newAccount();
    const site = await newSite(account.accountId);
    const lobby = await newToken(account.accountId, { siteIds: [site.siteId], channel: 'KIOSK', mode: 'visitor' });
    expect(lobby.scopes).toEqual(['kiosk:visitor']);
    const gate = await newToken(account.accountId, { siteIds: [site.siteId], channel: 'KIOSK', mode: 'gate' });
    expect(gate.scopes).toEqual(['kiosk:gate']);
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ siteIds: [site.siteId], channel: 'KIOSK' }, 'mode'],
      [{ allSites: true, channel: 'KIOSK', mode: 'visitor' }, 'siteIds'],
      [{ siteIds: [site.siteId], channel: 'KIOSK', mode: 'gate', scopes: ['vehicles:write'] }, 'scopes'],
      [{ siteIds: [site.siteId], mode: 'gate' }, 'mode'],
      [{ siteIds: [site.siteId], scopes: ['kiosk:visitor'] }, 'scopes'],
    ];
    for (const [body, path] of refusals) {
      const refused = await admin.post<Problem>(`/v1/admin/accounts/${account.accountId}/tokens`, {
        name: 'Kiosk',
        ...body,
      });
      expect(refused.body, JSON.stringify(body)).toMatchObject({ status: 422, errors: [{ path }] });
    }
    // Its scopes stay its mode's, and its site one: the management API cannot widen a kiosk's token.
    const widened = await admin.patch<Problem>(`/v1/admin/tokens/${gate.tokenId}`, { scopes: ['vehicles:write'] });
    expect(widened.status).toBe(422);
    expect((await admin.patch<Problem>(`/v1/admin/tokens/${gate.tokenId}`, { allSites: true })).status).toBe(422);
  });

  it('keeps given scopes, channel and expiresAt', async () => {
    const account = await newAccount();
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const token = await newToken(account.accountId, {
      allSites: true,
      scopes: ['checkins:read', 'sites:configure'],
      channel: 'API',
      expiresAt,
    });
    expect(token).toMatchObject({ allSites: true, siteIds: [], channel: 'API', expiresAt });
    expect([...token.scopes].sort()).toEqual(['checkins:read', 'sites:configure']);
  });

  it('a new token works against GET /v1/sites, listing its sites', async () => {
    const account = await newAccount();
    const first = await newSite(account.accountId, { name: 'One' });
    const second = await newSite(account.accountId, { name: 'Two' });
    const explicit = await newToken(account.accountId, { siteIds: [second.siteId] });
    const listed = await apiClient(harness.server.baseUrl, explicit.token).get<Page<Site>>('/v1/sites');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      data: [
        {
          siteId: second.siteId,
          name: 'Two',
          timezone: 'UTC',
          archivedAt: null,
          badge: { enabled: false, size: '62x100' },
          defaultLanguage: 'en',
          visit: { code: visitCode, requiresApproval: false },
        },
      ],
      nextCursor: null,
    });
    const all = await newToken(account.accountId, { allSites: true });
    const listedAll = await apiClient(harness.server.baseUrl, all.token).get<Page<Site>>('/v1/sites');
    expect(listedAll.body.data.map((site) => site.siteId)).toEqual([first.siteId, second.siteId]);
  });

  it('refuses siteIds of another account (422)', async () => {
    const account = await newAccount();
    const other = await newAccount();
    const own = await newSite(account.accountId);
    const foreign = await newSite(other.accountId);
    for (const siteIds of [[foreign.siteId], [own.siteId, foreign.siteId], [2_000_000_000]]) {
      const response = await admin.post<Problem>(`/v1/admin/accounts/${account.accountId}/tokens`, {
        name: 'X',
        siteIds,
      });
      expectValidationFailed(response);
      expect(response.body.errors?.map((error) => error.path)).toContain('siteIds');
    }
  });

  it('refuses both siteIds and allSites, and neither (422)', async () => {
    const account = await newAccount();
    const site = await newSite(account.accountId);
    const path = `/v1/admin/accounts/${account.accountId}/tokens`;
    expectValidationFailed(await admin.post<Problem>(path, { name: 'Both', siteIds: [site.siteId], allSites: true }));
    expectValidationFailed(await admin.post<Problem>(path, { name: 'Neither' }));
    expectValidationFailed(await admin.post<Problem>(path, { name: 'False', allSites: false }));
  });

  it('refuses unknown scopes, an unknown channel, a bad expiresAt and unknown fields (422)', async () => {
    const account = await newAccount();
    const path = `/v1/admin/accounts/${account.accountId}/tokens`;
    for (const extra of [{ scopes: ['everything'] }, { channel: 'WEB' }, { expiresAt: 'tomorrow' }, { owner: 'me' }]) {
      expectValidationFailed(await admin.post<Problem>(path, { name: 'Bad', allSites: true, ...extra }));
    }
    expectValidationFailed(await admin.post<Problem>(path, { allSites: true }));
    const past = await admin.post<Problem>(path, {
      name: 'Stale',
      allSites: true,
      expiresAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expectValidationFailed(past);
    expect(past.body.errors).toEqual([{ path: 'expiresAt', message: 'Must be in the future' }]);
  });

  it('answers 404 for an unknown account', async () => {
    const response = await admin.post<Problem>('/v1/admin/accounts/2000000000/tokens', { name: 'X', allSites: true });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('NOT_FOUND');
  });
});

describe('PATCH /v1/admin/tokens/{tokenId}', () => {
  it('a removed scope is a 403 on the next request; an added one works at once', async () => {
    const account = await newAccount();
    const site = await newSite(account.accountId);
    const token = await newToken(account.accountId, {
      siteIds: [site.siteId],
      scopes: ['checkins:read', 'checkins:write'],
    });
    const api = apiClient(harness.server.baseUrl, token.token);
    const people = `/v1/sites/${site.siteId}/checkins/people`;
    expect((await api.post(people, visitor())).status).toBe(201);

    const patched = await admin.patch<TokenBody>(`/v1/admin/tokens/${token.tokenId}`, { scopes: ['checkins:read'] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      tokenId: token.tokenId,
      scopes: ['checkins:read'],
      siteIds: [site.siteId],
      allSites: false,
    });
    expect(JSON.stringify(patched.body)).not.toContain(token.token);
    const refused = await api.post<Problem>(people, visitor());
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('INSUFFICIENT_SCOPE');
    expect((await api.get(people)).status).toBe(200);

    const config = `${people}/config`;
    const before = await api.get<{ requiresApproval: boolean; fields: unknown[] }>(config);
    expect((await api.put<Problem>(config, { requiresApproval: false, fields: before.body.fields })).status).toBe(403);
    await admin.patch(`/v1/admin/tokens/${token.tokenId}`, { scopes: ['checkins:read', 'sites:configure'] });
    expect((await api.put(config, { requiresApproval: false, fields: before.body.fields })).status).toBe(200);
  });

  it('changes the site list: explicit → allSites → explicit', async () => {
    const account = await newAccount();
    const one = await newSite(account.accountId);
    const two = await newSite(account.accountId);
    const token = await newToken(account.accountId, { siteIds: [one.siteId] });
    const api = apiClient(harness.server.baseUrl, token.token);
    expect((await api.get(`/v1/sites/${two.siteId}`)).status).toBe(404);

    const all = await admin.patch<TokenBody>(`/v1/admin/tokens/${token.tokenId}`, { allSites: true });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ allSites: true, siteIds: [] });
    expect((await api.get(`/v1/sites/${two.siteId}`)).status).toBe(200);

    const back = await admin.patch<TokenBody>(`/v1/admin/tokens/${token.tokenId}`, { siteIds: [two.siteId] });
    expect(back.body).toMatchObject({ allSites: false, siteIds: [two.siteId] });
    expect((await api.get(`/v1/sites/${one.siteId}`)).status).toBe(404);
    const listed = await api.get<Page<Site>>('/v1/sites');
    expect(listed.body.data.map((site) => site.siteId)).toEqual([two.siteId]);

    const grown = await admin.patch<TokenBody>(`/v1/admin/tokens/${token.tokenId}`, {
      siteIds: [one.siteId, two.siteId],
    });
    expect(grown.body.siteIds).toEqual([one.siteId, two.siteId]);
    expect((await api.get(`/v1/sites/${one.siteId}`)).status).toBe(200);
    expect((await api.get(`/v1/sites/${two.siteId}`)).status).toBe(200);
  });

  it('refuses invalid changes (422) and unknown tokens (404)', async () => {
    const account = await newAccount();
    const other = await newAccount();
    const site = await newSite(account.accountId);
    const foreign = await newSite(other.accountId);
    const token = await newToken(account.accountId, { siteIds: [site.siteId] });
    const path = `/v1/admin/tokens/${token.tokenId}`;
    expectValidationFailed(await admin.patch<Problem>(path, { siteIds: [foreign.siteId] }));
    expectValidationFailed(await admin.patch<Problem>(path, { siteIds: [site.siteId], allSites: true }));
    expectValidationFailed(await admin.patch<Problem>(path, { scopes: ['root'] }));
    expectValidationFailed(await admin.patch<Problem>(path, { name: 'renamed' }));
    // The refused changes left the token as it was.
    const api = apiClient(harness.server.baseUrl, token.token);
    expect((await api.get(`/v1/sites/${site.siteId}`)).status).toBe(200);

    const missing = await admin.patch<Problem>('/v1/admin/tokens/2000000000', { scopes: ['checkins:read'] });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
  });
});

describe('DELETE /v1/admin/tokens/{tokenId}', () => {
  it('revokes at once: 204 with no body, then 401 with the token, and a second delete is 404', async () => {
    const account = await newAccount();
    await newSite(account.accountId);
    const token = await newToken(account.accountId, { allSites: true });
    const api = apiClient(harness.server.baseUrl, token.token);
    expect((await api.get('/v1/sites')).status).toBe(200);

    const revoked = await admin.delete(`/v1/admin/tokens/${token.tokenId}`);
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe('');

    const refused = await api.get<Problem>('/v1/sites');
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('UNAUTHENTICATED');
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');

    const again = await admin.delete<Problem>(`/v1/admin/tokens/${token.tokenId}`);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('NOT_FOUND');
    const patchRevoked = await admin.patch<Problem>(`/v1/admin/tokens/${token.tokenId}`, { scopes: ['checkins:read'] });
    expect(patchRevoked.status).toBe(404);
  });

  it('answers 404 for an unknown token id', async () => {
    const response = await admin.delete<Problem>('/v1/admin/tokens/2000000000');
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('NOT_FOUND');
    expect((await admin.delete<Problem>('/v1/admin/tokens/0')).status).toBe(404);
  });

  it('revoking one token leaves the others of the account working', async () => {
    const account = await newAccount();
    await newSite(account.accountId);
    const first = await newToken(account.accountId, { allSites: true });
    const second = await newToken(account.accountId, { allSites: true });
    expect((await admin.delete(`/v1/admin/tokens/${first.tokenId}`)).status).toBe(204);
    expect((await apiClient(harness.server.baseUrl, second.token).get('/v1/sites')).status).toBe(200);
  });
});
