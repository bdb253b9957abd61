import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { PersonCheckin } from '../../shared/src/schemas/personCheckins';
import type { StaffUser } from '../../shared/src/schemas/staff';
import { buildWorld, visitor } from '../support/factories';
import { apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { STAFF_PASSWORD, buildStaffUser, sessionCookieOf, signedInClient, staffClient } from '../support/staff';
import { type TestServer, startTestServer } from '../support/testServer';

// Sign-in failures of the whole file come from one address: its budget is raised here and tested elsewhere.
const harness = serverAndWorld({ env: { SIGNIN_FAILURES_PER_ADDRESS: '1000', TRUST_PROXY: 'true' } });
const people = (siteId: number) => `/v1/sites/${siteId}/checkins/people`;

describe('POST /v1/session: signing in', () => {
  it('sets gh_session: 43 base64url characters, HttpOnly, SameSite=Strict, Path=/, not Secure over plain HTTP', async () => {
    const member = await buildStaffUser(harness.server, { accountId: harness.world.accountId, role: 'reception' });
    const response = await apiClient(harness.server.baseUrl).post<{ user: StaffUser }>('/v1/session', {
      email: member.email.toUpperCase(),
      password: member.password,
    });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({
      userId: member.userId,
      email: member.email,
      role: 'reception',
      disabled: false,
      lastSignInAt: expect.any(String),
    });
    const [header] = response.headers.getSetCookie();
    expect(header).toMatch(/^gh_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/$/);
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('adds Secure when the request came over HTTPS through a trusted proxy', async () => {
    const member = await buildStaffUser(harness.server, { accountId: harness.world.accountId, role: 'reception' });
    const response = await apiClient(harness.server.baseUrl).post(
      '/v1/session',
      { email: member.email, password: member.password },
      {
        headers: { 'X-Forwarded-Proto': 'https' },
      },
    );
    expect(response.headers.getSetCookie()[0]).toMatch(/; Secure$/);
  });

  it('says the same for an unknown email and a wrong password, and takes about as long', async () => {
    const members = await Promise.all(
      [1, 2, 3, 4, 5].map(() =>
        buildStaffUser(harness.server, { accountId: harness.world.accountId, role: 'security' }),
      ),
    );
    const anonymous = apiClient(harness.server.baseUrl);
    const timed = async (email: string) => {
      const started = performance.now();
      const response = await anonymous.post<Problem>('/v1/session', { email, password: 'not the password at all' });
      return { response, ms: performance.now() - started };
    };
    const wrong = [];
    const unknown = [];
    for (const [index, member] of members.entries()) {
      wrong.push(await timed(member.email));
      unknown.push(await timed(`nobody${index}.${Date.now()}@example.com`));
    }
    for (const { response } of [...wrong, ...unknown]) {
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ code: 'UNAUTHENTICATED', detail: 'Email or password is incorrect' });
    }
    const median = (samples: Array<{ ms: number }>) => samples.map((s) => s.ms).sort((a, b) => a - b)[2] ?? 0;
    // Both verify one scrypt hash; without the dummy hash an unknown email answers many times faster.
    const ratio = median(unknown) / median(wrong);
    expect(ratio).toBeGreaterThan(0.4);
    expect(ratio).toBeLessThan(2.5);
  });

  it('a disabled user cannot sign in, with the same answer', async () => {
    const owner = await staffClient(harness.server, { accountId: harness.world.accountId, role: 'owner' });
    const member = await buildStaffUser(harness.server, { accountId: harness.world.accountId, role: 'reception' });
    expect((await owner.api.patch(`/v1/users/${member.userId}`, { disabled: true })).status).toBe(200);
    const response = await apiClient(harness.server.baseUrl).post<Problem>('/v1/session', {
      email: member.email,
      password: member.password,
    });
    expect(response.body).toMatchObject({ status: 401, detail: 'Email or password is incorrect' });
  });
});

describe('secrets stay out of the logs', () => {
  it('no password, session id or link code is logged', async () => {
    const logged = JSON.stringify(harness.server.logs);
    expect(logged.length).toBeGreaterThan(100);
    expect(logged).not.toContain(STAFF_PASSWORD);
    expect(logged).not.toContain('not the password at all');
    expect(logged).not.toMatch(/gh_session=/);
  });
});

describe('a session', () => {
  it('GET /v1/session answers the user; DELETE signs out and the cookie stops working', async () => {
    const { member, api } = await staffClient(harness.server, { accountId: harness.world.accountId, role: 'manager' });
    const me = await api.get<{ user: StaffUser }>('/v1/session');
    expect(me.body.user).toMatchObject({ userId: member.userId, role: 'manager' });
    const out = await api.delete('/v1/session');
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie()[0]).toMatch(/^gh_session=; .*Max-Age=0/);
    expect((await api.get<Problem>('/v1/session')).body).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect((await api.get(people(harness.world.siteId))).status).toBe(401);
  });

  it('a bearer token is not a session: GET /v1/session is 401', async () => {
    expect((await harness.world.api.get('/v1/session')).status).toBe(401);
  });

  it('changing the password ends every other session; this one gets a fresh cookie', async () => {
    const member = await buildStaffUser(harness.server, { accountId: harness.world.accountId, role: 'reception' });
    const first = await signedInClient(harness.server, member);
    const second = await signedInClient(harness.server, member);
    const newPassword = 'a much better passphrase 42';
    const weak = await first.put<Problem>('/v1/session/password', {
      currentPassword: member.password,
      newPassword: 'Unbelievable',
    });
    expect(weak.body).toMatchObject({ status: 422, errors: [{ path: 'newPassword' }] });
    const wrong = await first.put<Problem>('/v1/session/password', { currentPassword: 'not it at all!', newPassword });
    expect(wrong.body).toMatchObject({ status: 422, errors: [{ path: 'currentPassword' }] });
    const changed = await first.put('/v1/session/password', { currentPassword: member.password, newPassword });
    expect(changed.status).toBe(204);
    const fresh = sessionCookieOf(changed.headers);
    expect(fresh).toBeDefined();
    expect((await second.get('/v1/session')).status).toBe(401);
    expect((await first.get('/v1/session')).status).toBe(401);
    const renewed = apiClient(harness.server.baseUrl, undefined, { Cookie: fresh ?? '' });
    expect((await renewed.get('/v1/session')).status).toBe(200);
    expect(
      (
        await signedInClient(harness.server, { email: member.email, password: newPassword }).then((api) =>
          api.get('/v1/session'),
        )
      ).status,
    ).toBe(200);
  });

  it('uses the session on /v1: writes default to MANUAL and record who decided', async () => {
    const { member, api } = await staffClient(harness.server, {
      accountId: harness.world.accountId,
      role: 'reception',
      siteIds: [harness.world.siteId],
    });
    const created = await api.post<PersonCheckin>(people(harness.world.siteId), visitor('Manual', 'Entry'));
    expect(created.status).toBe(201);
    expect(created.body.entry.source).toBe('MANUAL');
    expect(created.body.decidedBy).toEqual({ type: 'user', id: member.userId, name: expect.any(String) });
    expect(created.body.decidedAt).toBe(created.body.createdAt);
    const out = await api.post<PersonCheckin>(`${people(harness.world.siteId)}/${created.body.checkinId}/checkout`);
    expect(out.body.exit?.source).toBe('MANUAL');
    // A token's create decides nothing.
    const byToken = await harness.world.api.post<PersonCheckin>(people(harness.world.siteId), visitor());
    expect(byToken.body).toMatchObject({ decidedBy: null, decidedAt: null, entry: { source: 'API' } });
  });
});

describe('CSRF', () => {
  it('a cookie write from another origin is 403 CSRF_REJECTED; from our own origin it works', async () => {
    const { api } = await staffClient(harness.server, { accountId: harness.world.accountId, role: 'reception' });
    const forged = await api.post<Problem>(people(harness.world.siteId), visitor(), {
      headers: { Origin: 'https://evil.example' },
    });
    expect(forged.body).toMatchObject({ status: 403, code: 'CSRF_REJECTED' });
    const crossSite = await api.post<Problem>(people(harness.world.siteId), visitor(), {
      headers: { Origin: '', 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(crossSite.body).toMatchObject({ status: 403, code: 'CSRF_REJECTED' });
    expect((await api.get(people(harness.world.siteId), { headers: { Origin: 'https://evil.example' } })).status).toBe(
      200,
    );
    expect((await api.post(people(harness.world.siteId), visitor())).status).toBe(201);
  });

  it('a bearer write from any origin still works', async () => {
    const response = await harness.world.api.post(people(harness.world.siteId), visitor(), {
      headers: { Origin: 'https://evil.example' },
    });
    expect(response.status).toBe(201);
  });
});

describe('session expiry (the server clock)', () => {
  let server: TestServer;
  let now = new Date('2026-11-20T08:00:00.000Z');
  beforeAll(async () => {
    server = await startTestServer({}, { clock: () => now });
  });
  afterAll(async () => server.close());

  it('ends after 12 idle hours, and 7 days after sign-in however busy', async () => {
    const world = await buildWorld(server);
    const member = await buildStaffUser(server, {
      accountId: world.accountId,
      role: 'owner',
      password: STAFF_PASSWORD,
    });
    const idle = await signedInClient(server, member);
    now = new Date(now.getTime() + 11 * 3600_000);
    expect((await idle.get('/v1/session')).status).toBe(200);
    now = new Date(now.getTime() + 11 * 3600_000);
    expect((await idle.get('/v1/session')).status).toBe(200);
    now = new Date(now.getTime() + 12 * 3600_000 + 1000);
    expect((await idle.get('/v1/session')).status).toBe(401);

    const busy = await signedInClient(server, member);
    for (let hours = 0; hours < 7 * 24 - 10; hours += 10) {
      now = new Date(now.getTime() + 10 * 3600_000);
      expect((await busy.get('/v1/session')).status).toBe(200);
    }
    now = new Date(now.getTime() + 11 * 3600_000);
    expect((await busy.get('/v1/session')).status).toBe(401);
  });
});

describe('sessions and the address budget', () => {
  let server: TestServer;
  const fixed = new Date('2026-11-22T10:00:05.000Z');
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '6' }, { clock: () => fixed });
  });
  afterAll(async () => server.close());

  it('sign-in spends the address budget; a valid session vouches for itself past it', async () => {
    const world = await buildWorld(server);
    const member = await buildStaffUser(server, { accountId: world.accountId, role: 'reception' });
    const signedIn = await signedInClient(server, member);
    // Seen valid once, the session skips the address's budget from then on (as a token does).
    expect((await signedIn.get('/v1/session')).status).toBe(200);
    const anonymous = apiClient(server.baseUrl);
    for (let i = 0; i < 5; i += 1) expect((await anonymous.get('/v1/sites')).status).toBe(401);
    const refused = await anonymous.post<Problem>('/v1/session', { email: member.email, password: member.password });
    expect(refused.body).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect((await signedIn.get('/v1/session')).status).toBe(200);
  });
});
