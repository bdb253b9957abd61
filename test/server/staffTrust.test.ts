import { describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/src/schemas/common';
import type { LinkInfo } from '../../shared/src/schemas/staff';
import { needsRehash, verifyPassword } from '../../server/src/auth/password';
import { checkSignInBudget, slowdownMs } from '../../server/src/auth/signInThrottle';
import { queryOne, queryRows } from '../../server/src/db/query';
import { sql } from '../../server/src/db/sql';
import { buildAccount } from '../support/factories';
import { apiClient } from '../support/http';
import { serverAndWorld } from '../support/serverAndWorld';
import { buildStaffUser, hashWithEarlierParameters, staffClient } from '../support/staff';

// The audit's reproductions of issue 31 for staff accounts: each failed before its fix. Addresses come from
// X-Forwarded-For (TRUST_PROXY), so one test file can sign in from several.
const harness = serverAndWorld({ env: { SIGNIN_FAILURES_PER_ADDRESS: '20', TRUST_PROXY: 'true' } });
const codeOf = (url: string) => new URL(url).searchParams.get('code') ?? '';
const from = (address: string) => apiClient(harness.server.baseUrl, undefined, { 'X-Forwarded-For': address });

async function invitationCode(
  name = 'Nina Newton',
  accountId = harness.world.accountId,
): Promise<{ code: string; email: string }> {
  const { api } = await staffClient(harness.server, { accountId, role: 'owner' });
  const email = `nina.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`;
  const created = await api.post<{ invitationUrl: string }>('/v1/users', {
    email,
    name,
    role: 'reception',
    allSites: true,
  });
  expect(created.status).toBe(201);
  return { code: codeOf(created.body.invitationUrl), email };
}

describe('passwords (M2)', () => {
  it.each([
    ['password1234', /commonly used password/],
    ['aaaaaaaaaaaa', /Repeated characters/],
    ['            ', /only spaces/],
    ['qwertyuiopas', /./],
  ])('%j is refused with a reason in words at `password`', async (password, reason) => {
    const { code } = await invitationCode();
    const refused = await from('192.0.2.10').post<Problem>('/v1/session/invitation', { code, password });
    expect(refused.body).toMatchObject({ status: 422, code: 'VALIDATION_FAILED', errors: [{ path: 'password' }] });
    expect(refused.body.errors?.[0]?.message).toMatch(reason);
  });

  it("the user's own email, name and the account's name are refused", async () => {
    const account = await buildAccount(harness.server, `Analytical Engines ${Date.now()}`);
    const { code, email } = await invitationCode('Maximilian Longname', account.accountId);
    const api = from('192.0.2.11');
    for (const password of [email, 'Maximilian Longname', 'maximilian  longname', account.name.toUpperCase()]) {
      const refused = await api.post<Problem>('/v1/session/invitation', { code, password });
      expect(refused.body, password).toMatchObject({ status: 422, errors: [{ path: 'password' }] });
    }
    expect((await api.post('/v1/session/invitation', { code, password: 'a long and unusual passphrase' })).status).toBe(
      200,
    );
  });

  it('a hash of the earlier parameters signs in, and is upgraded to OWASP’s current ones', async () => {
    const member = await buildStaffUser(harness.server, { accountId: harness.world.accountId, role: 'reception' });
    await queryRows(
      harness.server.database,
      sql`UPDATE staff_users SET password_hash = ${hashWithEarlierParameters(member.password)} WHERE id = ${member.userId}`,
    );
    const signedIn = await from('192.0.2.12').post('/v1/session', { email: member.email, password: member.password });
    expect(signedIn.status).toBe(200);
    const row = await queryOne<{ password_hash: string }>(
      harness.server.database,
      sql`SELECT password_hash FROM staff_users WHERE id = ${member.userId}`,
    );
    expect(row?.password_hash).toMatch(/^scrypt\$32768\$8\$3\$/);
    expect(needsRehash(row?.password_hash ?? '')).toBe(false);
    expect(await verifyPassword(member.password, row?.password_hash ?? null)).toBe(true);
  });
});

describe('lockout without denial of service', () => {
  it('5 wrong passwords from one address do not refuse the right one from another address', async () => {
    const member = await buildStaffUser(harness.server, { accountId: harness.world.accountId, role: 'reception' });
    const guesser = from('203.0.113.50');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await guesser.post('/v1/session', { email: member.email, password: `wrong guess ${attempt}!` });
      expect(wrong.status).toBe(401);
    }
    // The guesser's own address is refused for that email, even with the right password…
    const blocked = await guesser.post<Problem>('/v1/session', { email: member.email, password: member.password });
    expect(blocked.body).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // …while its owner, from an address that has not failed, signs in.
    const owner = await from('198.51.100.7').post('/v1/session', { email: member.email, password: member.password });
    expect(owner.status).toBe(200);
  });

  it('failures for an email from many addresses slow its sign-ins down, step by step, up to a cap', async () => {
    const member = await buildStaffUser(harness.server, { accountId: harness.world.accountId, role: 'reception' });
    const now = new Date();
    const ask = (address: string) =>
      checkSignInBudget(harness.server.database, { email: member.email, address, now }, 20);
    expect((await ask('198.51.100.8')).delayMs).toBe(0);
    await queryRows(
      harness.server.database,
      sql`INSERT INTO signin_failures (email, address, at)
          SELECT ${member.email.toLowerCase()}, '203.0.113.' || n, ${now} FROM generate_series(1, 8) AS n`,
    );
    const slowed = (await ask('198.51.100.8')).delayMs;
    expect(slowed).toBe(slowdownMs(8));
    expect(slowed).toBeGreaterThan(0);
    expect(slowdownMs(4)).toBe(0);
    expect(slowdownMs(6)).toBeGreaterThan(slowdownMs(5));
    expect(slowdownMs(1000)).toBe(slowdownMs(100));
  });
});

describe('one-time links', () => {
  it('a new reset link cancels the earlier unused one (M2: an older reset link stayed valid)', async () => {
    const { api } = await staffClient(harness.server, { accountId: harness.world.accountId, role: 'owner' });
    const member = await buildStaffUser(harness.server, { accountId: harness.world.accountId, role: 'security' });
    const first = await api.post<{ resetUrl: string }>(`/v1/users/${member.userId}/password-reset`);
    const second = await api.post<{ resetUrl: string }>(`/v1/users/${member.userId}/password-reset`);
    const anonymous = from('192.0.2.20');
    expect((await anonymous.get(`/v1/session/links/${codeOf(first.body.resetUrl)}`)).status).toBe(404);
    expect(
      (
        await anonymous.post('/v1/session/invitation', {
          code: codeOf(first.body.resetUrl),
          password: 'a long and unusual passphrase',
        })
      ).status,
    ).toBe(404);
    expect((await anonymous.get<LinkInfo>(`/v1/session/links/${codeOf(second.body.resetUrl)}`)).body).toMatchObject({
      kind: 'reset',
      email: member.email,
    });
  });
});
