import { randomBytes, scryptSync } from 'node:crypto';
import type { Role } from '../../shared/src/schemas/staff';
import { hashPassword } from '../../server/src/auth/password';
import { createStaffUser } from '../../server/src/commands/staffUsers';
import { type ApiClient, apiClient } from './http';
import type { TestServer } from './testServer';

type Harness = Pick<TestServer, 'database' | 'baseUrl'>;

/** A hash as the server made them before issue 31 (scrypt N = 2^15, r = 8, p = 1): still verified, then upgraded. */
export function hashWithEarlierParameters(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', 2 ** 15, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}

let counter = 0;
/** A password no list holds. */
export const STAFF_PASSWORD = 'correct horse battery staple 7';

export interface StaffMember {
  userId: number;
  email: string;
  password: string;
}

/** A staff user with a password already set (no invitation round trip). */
export async function buildStaffUser(
  server: Harness,
  input: {
    accountId: number;
    role: Role;
    siteIds?: number[];
    allSites?: boolean;
    email?: string;
    password?: string;
    name?: string;
  },
): Promise<StaffMember> {
  const email = input.email ?? `staff${++counter}.${Date.now()}@example.com`;
  const password = input.password ?? STAFF_PASSWORD;
  const row = await createStaffUser(server.database, {
    accountId: input.accountId,
    request: {
      email,
      name: input.name ?? `Staff ${counter}`,
      role: input.role,
      ...(input.allSites || input.siteIds === undefined ? { allSites: true } : { siteIds: input.siteIds }),
      passwordHash: await hashPassword(password),
    },
    now: new Date(),
  });
  return { userId: row.id, email, password };
}

/** The cookie of a Set-Cookie header (`gh_session=…`), or undefined. */
export const sessionCookieOf = (headers: Headers): string | undefined =>
  headers
    .getSetCookie()
    .map((value) => value.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('gh_session='));

/** Signs in and returns a client sending the session cookie, from the server's own origin as a browser would. */
export async function signedInClient(
  server: Pick<TestServer, 'baseUrl'>,
  member: Pick<StaffMember, 'email' | 'password'>,
): Promise<ApiClient & { cookie: string }> {
  const response = await apiClient(server.baseUrl).post('/v1/session', {
    email: member.email,
    password: member.password,
  });
  const cookie = sessionCookieOf(response.headers);
  if (response.status !== 200 || !cookie) throw new Error(`sign-in failed: ${response.status} ${response.text}`);
  return { ...apiClient(server.baseUrl, undefined, { Cookie: cookie, Origin: server.baseUrl }), cookie };
}

/** A staff user of `role` and a signed-in client for them. */
export async function staffClient(
  server: Harness,
  input: { accountId: number; role: Role; siteIds?: number[] },
): Promise<{ member: StaffMember; api: ApiClient & { cookie: string } }> {
  const member = await buildStaffUser(server, input);
  return { member, api: await signedInClient(server, member) };
}
