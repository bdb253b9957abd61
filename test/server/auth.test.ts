import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { CreatedToken } from '../../shared/src/schemas/admin';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { Site } from '../../shared/src/schemas/sites';
import { generateToken } from '../../server/src/auth/tokenFormat';
import { apiClient } from '../support/http';
import { buildAccount, buildSite, buildToken, visitor } from '../support/factories';
import { serverForFile } from '../support/serverAndWorld';
import { TEST_ADMIN_TOKEN } from '../support/testServer';

type Page<T> = { data: T[]; nextCursor: string | null };
type CreatedTokenBody = z.infer<typeof CreatedToken>;

const harness = serverForFile();
// Every site has a visit code (docs/api.md, Visit codes): random, so matched by its form.
const visitCode: unknown = expect.stringMatching(/^[2-9A-HJ-NP-Z]{10}$/);
let accountId: number;
let siteA: number;
let siteB: number;
let foreignSiteId: number;
let foreignAccountId: number;

beforeAll(async () => {
  const account = await buildAccount(harness.server);
  accountId = account.accountId;
  siteA = (await buildSite(harness.server, accountId)).siteId;
  siteB = (await buildSite(harness.server, accountId)).siteId;
  const foreign = await buildAccount(harness.server);
  foreignAccountId = foreign.accountId;
  foreignSiteId = (await buildSite(harness.server, foreignAccountId)).siteId;
});

const admin = () => apiClient(harness.server.baseUrl, TEST_ADMIN_TOKEN);
const anonymous = () => apiClient(harness.server.baseUrl);
const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;

async function clientFor(input: Parameters<typeof buildToken>[1]) {
  const token = await buildToken(harness.server, input);
  return { ...token, api: apiClient(harness.server.baseUrl, token.token) };
}

function expectUnauthenticated(response: { status: number; headers: Headers; body: Problem }, tokenSent: boolean) {
  expect(response.status).toBe(401);
  expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
  expect(response.body).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  const challenge = response.headers.get('www-authenticate') ?? '';
  expect(challenge).toMatch(/^Bearer\b/);
  if (tokenSent) expect(challenge).toContain('error="invalid_token"');
  else expect(challenge).not.toContain('error=');
}

describe('401 UNAUTHENTICATED', () => {
  it('without an Authorization header: WWW-Authenticate: Bearer (no error attribute)', async () => {
    const response = await anonymous().get<Problem>('/v1/sites');
    expectUnauthenticated(response, false);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    const siteScoped = await anonymous().get<Problem>(`/v1/sites/${siteA}`);
    expectUnauthenticated(siteScoped, false);
  });

  it('with an Authorization header that is not a Bearer token', async () => {
    const response = await anonymous().get<Problem>('/v1/sites', { headers: { Authorization: 'Basic dXNlcjpwYXNz' } });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('UNAUTHENTICATED');
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('with a malformed token', async () => {
    for (const token of ['not-a-token', 'ck_short', `ck_${'a'.repeat(36)}`]) {
      const response = await apiClient(harness.server.baseUrl, token).get<Problem>('/v1/sites');
      expectUnauthenticated(response, true);
    }
  });

  it('with a well-formed token that was never issued', async () => {
    const response = await apiClient(harness.server.baseUrl, generateToken()).get<Problem>('/v1/sites');
    expectUnauthenticated(response, true);
    const siteScoped = await apiClient(harness.server.baseUrl, generateToken()).post<Problem>(people(siteA), visitor());
    expectUnauthenticated(siteScoped, true);
  });

  it('with an expired token', async () => {
    const { api } = await clientFor({
      accountId,
      allSites: true,
      expiresAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expectUnauthenticated(await api.get<Problem>('/v1/sites'), true);
    expectUnauthenticated(await api.get<Problem>(people(siteA)), true);
  });

  it('a token with a future expiresAt still works', async () => {
    const { api } = await clientFor({
      accountId,
      allSites: true,
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect((await api.get('/v1/sites')).status).toBe(200);
  });

  it('with a token revoked through the management API, from the very next request', async () => {
    const { api, tokenId } = await clientFor({ accountId, allSites: true });
    expect((await api.get('/v1/sites')).status).toBe(200);
    const revoked = await admin().delete(`/v1/admin/tokens/${tokenId}`);
    expect(revoked.status).toBe(204);
    expectUnauthenticated(await api.get<Problem>('/v1/sites'), true);
    expectUnauthenticated(await api.post<Problem>(people(siteA), visitor()), true);
  });
});

describe('403 INSUFFICIENT_SCOPE', () => {
  it('a read-only token may read but not create', async () => {
    const { api } = await clientFor({ accountId, allSites: true, scopes: ['checkins:read'] });
    expect((await api.get(people(siteA))).status).toBe(200);
    const response = await api.post<Problem>(people(siteA), visitor());
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(response.body).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE', instance: people(siteA) });
  });

  it('a write-only token may not list', async () => {
    const { api } = await clientFor({ accountId, allSites: true, scopes: ['checkins:write'] });
    const response = await api.get<Problem>(people(siteA));
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('INSUFFICIENT_SCOPE');
  });
});

describe('404 for sites the token cannot view (no existence leak)', () => {
  const comparable = (problem: Problem) => {
    const { instance: _instance, requestId: _requestId, detail: _detail, ...rest } = problem;
    return rest;
  };

  it('answers the same for an own site outside siteIds, another account’s site and a nonexistent site', async () => {
    const { api } = await clientFor({ accountId, siteIds: [siteA] });
    expect((await api.get<Site>(`/v1/sites/${siteA}`)).status).toBe(200);
    for (const path of [
      (id: number) => `/v1/sites/${id}`,
      (id: number) => people(id),
      (id: number) => `${people(id)}/config`,
    ]) {
      const responses = await Promise.all(
        [siteB, foreignSiteId, 2_000_000_000].map((id) => api.get<Problem>(path(id))),
      );
      for (const response of responses) {
        expect(response.status).toBe(404);
        expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
        expect(response.body).toMatchObject({ status: 404, code: 'NOT_FOUND' });
      }
      const [own, foreign, missing] = responses.map((response) => comparable(response.body));
      expect(foreign).toEqual(own);
      expect(missing).toEqual(own);
      expect(own).toMatchObject({ type: expect.any(String), title: expect.any(String) });
    }
  });

  it('refuses a create on a site outside the token with the same 404', async () => {
    const { api } = await clientFor({ accountId, siteIds: [siteA] });
    const responses = await Promise.all(
      [siteB, foreignSiteId, 2_000_000_000].map((id) => api.post<Problem>(people(id), visitor())),
    );
    for (const response of responses) expect(response.status).toBe(404);
    const [own, foreign, missing] = responses.map((response) => comparable(response.body));
    expect(own).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(foreign).toEqual(own);
    expect(missing).toEqual(own);
  });

  it('an all-sites token still cannot reach another account’s site', async () => {
    const { api } = await clientFor({ accountId, allSites: true });
    const response = await api.get<Problem>(`/v1/sites/${foreignSiteId}`);
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('NOT_FOUND');
  });

  it('a path id that is not a positive integer is a 404', async () => {
    const { api } = await clientFor({ accountId, allSites: true });
    for (const id of ['0', '-1', 'abc', '1.5']) {
      const response = await api.get<Problem>(`/v1/sites/${id}`);
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('NOT_FOUND');
    }
  });

  it('a site removed from a token through PATCH /v1/admin/tokens/{id} is a 404 on the very next request', async () => {
    const { api, tokenId } = await clientFor({ accountId, siteIds: [siteA, siteB] });
    expect((await api.get(`/v1/sites/${siteB}`)).status).toBe(200);
    const atB = await api.post<PersonCheckin>(people(siteB), visitor());
    expect(atB.status).toBe(201);
    const searchedBefore = await api.post<Page<PersonCheckin>>('/v1/checkins/people/search', {});
    expect(searchedBefore.body.data.map((visit) => visit.checkinId)).toContain(atB.body.checkinId);
    const patched = await admin().patch(`/v1/admin/tokens/${tokenId}`, { siteIds: [siteA] });
    expect(patched.status).toBe(200);
    const read = await api.get<Problem>(`/v1/sites/${siteB}`);
    expect(read.status).toBe(404);
    expect(read.body.code).toBe('NOT_FOUND');
    expect((await api.post<Problem>(people(siteB), visitor())).status).toBe(404);
    expect((await api.get(`/v1/sites/${siteA}`)).status).toBe(200);
    const listed = await api.get<Page<Site>>('/v1/sites');
    expect(listed.body.data.map((site) => site.siteId)).toEqual([siteA]);
    // The search too: the site is gone from "every site I can view", and naming it is a 404.
    const searched = await api.post<Page<PersonCheckin>>('/v1/checkins/people/search', {});
    expect(searched.status).toBe(200);
    expect(searched.body.data.every((visit) => visit.siteId === siteA)).toBe(true);
    expect((await api.post<Problem>('/v1/checkins/people/search', { siteIds: [siteB] })).status).toBe(404);
  });
});

describe('GET /v1/sites and /v1/sites/{siteId}', () => {
  it('lists exactly the sites of an explicit list', async () => {
    const { api } = await clientFor({ accountId, siteIds: [siteB] });
    const response = await api.get<Page<Site>>('/v1/sites');
    expect(response.status).toBe(200);
    expect(response.body.data.map((site) => site.siteId)).toEqual([siteB]);
    expect(response.body.nextCursor).toBeNull();
  });

  it('an all-sites token lists every site of its account, including one created afterwards, and none of another', async () => {
    const account = await buildAccount(harness.server);
    const first = await buildSite(harness.server, account.accountId);
    const second = await buildSite(harness.server, account.accountId);
    const { api } = await clientFor({ accountId: account.accountId, allSites: true });
    const before = await api.get<Page<Site>>('/v1/sites');
    expect(before.body.data.map((site) => site.siteId)).toEqual([first.siteId, second.siteId]);
    const later = await buildSite(harness.server, account.accountId, 'Built later');
    const after = await api.get<Page<Site>>('/v1/sites');
    expect(after.body.data.map((site) => site.siteId)).toEqual([first.siteId, second.siteId, later.siteId]);
    expect(after.body.data).not.toContainEqual(expect.objectContaining({ siteId: foreignSiteId }));
    const read = await api.get<Site>(`/v1/sites/${later.siteId}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      siteId: later.siteId,
      name: 'Built later',
      timezone: 'UTC',
      archivedAt: null,
      badge: { enabled: false, size: '62x100' },
      defaultLanguage: 'en',
      visit: { code: visitCode, requiresApproval: false },
    });
  });

  it('an explicit list does not grow with sites created afterwards', async () => {
    const { api } = await clientFor({ accountId, siteIds: [siteA] });
    const later = await buildSite(harness.server, accountId);
    const listed = await api.get<Page<Site>>('/v1/sites');
    expect(listed.body.data.map((site) => site.siteId)).toEqual([siteA]);
    expect((await api.get<Problem>(`/v1/sites/${later.siteId}`)).status).toBe(404);
  });

  it('paginates with limit=1 and nextCursor, visiting every site once', async () => {
    const account = await buildAccount(harness.server);
    const ids: number[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await buildSite(harness.server, account.accountId)).siteId);
    const { api } = await clientFor({ accountId: account.accountId, allSites: true });
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=1&cursor=${encodeURIComponent(cursor)}` : '?limit=1';
      const response = await api.get<Page<Site>>(`/v1/sites${query}`);
      expect(response.status).toBe(200);
      expect(response.body.data).toHaveLength(1);
      seen.push(...response.body.data.map((site) => site.siteId));
      cursor = response.body.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids);
  });

  it('refuses a bad limit or cursor with 400 INVALID_QUERY', async () => {
    const { api } = await clientFor({ accountId, allSites: true });
    for (const query of ['?limit=0', '?limit=201', '?limit=abc', '?cursor=%21%21not-a-cursor']) {
      const response = await api.get<Problem>(`/v1/sites${query}`);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_QUERY');
    }
  });

  it('reads one site as {siteId, name, timezone, archivedAt, badge, defaultLanguage, visit}', async () => {
    const { api } = await clientFor({ accountId, siteIds: [siteA] });
    const response = await api.get<Site>(`/v1/sites/${siteA}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      siteId: siteA,
      name: expect.any(String),
      timezone: 'UTC',
      archivedAt: null,
      badge: { enabled: false, size: '62x100' },
      defaultLanguage: 'en',
      visit: { code: visitCode, requiresApproval: false },
    });
  });
});

describe('token format', () => {
  it('is ck_ + 36 base62 characters, different every time, as the management API returns it', async () => {
    const tokens: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await admin().post<CreatedTokenBody>(`/v1/admin/accounts/${accountId}/tokens`, {
        name: `format ${i}`,
        allSites: true,
      });
      expect(response.status).toBe(201);
      expect(response.body.token).toMatch(/^ck_[0-9A-Za-z]{36}$/);
      tokens.push(response.body.token);
    }
    expect(new Set(tokens).size).toBe(3);
    const first = tokens[0] ?? '';
    expect((await apiClient(harness.server.baseUrl, first).get('/v1/sites')).status).toBe(200);
    // A single changed character breaks the checksum: rejected as any unknown token.
    const last = first.slice(-1) === 'a' ? 'b' : 'a';
    const tampered = `${first.slice(0, -1)}${last}`;
    expectUnauthenticated(await apiClient(harness.server.baseUrl, tampered).get<Problem>('/v1/sites'), true);
  });
});

describe('the token channel sets entry.source and the default exit.source', () => {
  it('a KIOSK token records KIOSK on entry and on a checkout that names no source', async () => {
    const { api } = await clientFor({ accountId, siteIds: [siteA], channel: 'KIOSK', mode: 'visitor' });
    const created = await api.post<PersonCheckin>(people(siteA), visitor('Kiosk', 'Visitor'));
    expect(created.status).toBe(201);
    expect(created.body.entry.source).toBe('KIOSK');
    const out = await api.patch<PersonCheckin>(`${people(siteA)}/${created.body.checkinId}`, {});
    expect(out.status).toBe(200);
    expect(out.body.exit?.source).toBe('KIOSK');

    const another = await api.post<PersonCheckin>(people(siteA), visitor('Kiosk', 'Again'));
    const outByPost = await api.post<PersonCheckin>(`${people(siteA)}/${another.body.checkinId}/checkout`);
    expect(outByPost.body.exit?.source).toBe('KIOSK');
    const explicit = await api.post<PersonCheckin>(people(siteA), visitor('Kiosk', 'Manual'));
    const manual = await api.patch<PersonCheckin>(`${people(siteA)}/${explicit.body.checkinId}`, {
      exit: { source: 'MANUAL' },
    });
    expect(manual.body.exit?.source).toBe('MANUAL');
  });

  it('an API token records API on entry and on checkout', async () => {
    const { api } = await clientFor({ accountId, allSites: true, channel: 'API' });
    const created = await api.post<PersonCheckin>(people(siteA), visitor('Api', 'Visitor'));
    expect(created.status).toBe(201);
    expect(created.body.entry.source).toBe('API');
    const out = await api.patch<PersonCheckin>(`${people(siteA)}/${created.body.checkinId}`, {});
    expect(out.body.exit?.source).toBe('API');
  });

  it('a body that tries to set entry.source is refused (422)', async () => {
    const { api } = await clientFor({ accountId, siteIds: [siteA], channel: 'KIOSK', mode: 'visitor' });
    const response = await api.post<Problem>(people(siteA), visitor('Sneaky', 'Source', { entry: { source: 'API' } }));
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('VALIDATION_FAILED');
  });
});
