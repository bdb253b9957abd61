import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import { type Executor, queryRows } from '../db/query';
import { sql } from '../db/sql';

export const SESSION_COOKIE = 'gh_session';
/** A session ends after 12 hours without a request, and 7 days after sign-in whatever happens. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;

/** Only this is stored: SHA-256 of the cookie's value. */
export const hashSessionId = (id: string): Buffer => createHash('sha256').update(id).digest();

/** A well-formed session id: 256 random bits, base64url (43 characters). */
export const isWellFormedSessionId = (id: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(id);

/**
 * Starts a session for the user, and records it as their last sign-in (a password, or a setup, invitation or
 * reset link); returns the cookie's value (shown to the browser only).
 */
export async function startSession(
  db: Executor,
  user: { accountId: number; userId: number },
  now: Date,
): Promise<string> {
  const id = randomBytes(32).toString('base64url');
  await queryRows(
    db,
    sql`UPDATE staff_users SET last_sign_in_at = ${now} WHERE account_id = ${user.accountId} AND id = ${user.userId}`,
  );
  await queryRows(
    db,
    sql`INSERT INTO staff_sessions (id_hash, account_id, user_id, created_at, last_seen_at)
        VALUES (${hashSessionId(id)}, ${user.accountId}, ${user.userId}, ${now}, ${now})`,
  );
  return id;
}

/** Ends one session (sign-out). */
export async function endSession(db: Executor, idHash: Buffer): Promise<void> {
  await queryRows(db, sql`DELETE FROM staff_sessions WHERE id_hash = ${idHash}`);
}

/** Ends every session of a user at once (password changed, user disabled, role changed). */
export async function endUserSessions(db: Executor, user: { accountId: number; userId: number }): Promise<void> {
  await queryRows(
    db,
    sql`DELETE FROM staff_sessions WHERE account_id = ${user.accountId} AND user_id = ${user.userId}`,
  );
}

/** Whether the request reached us over HTTPS (directly, or through a trusted proxy's X-Forwarded-Proto). */
const isHttps = (ctx: Context): boolean => ctx.protocol === 'https';

/** Sets the session cookie: HttpOnly, SameSite=Strict, Path=/, and Secure over HTTPS. */
export function setSessionCookie(ctx: Context, id: string): void {
  ctx.set('Set-Cookie', `${SESSION_COOKIE}=${id}; HttpOnly; SameSite=Strict; Path=/${isHttps(ctx) ? '; Secure' : ''}`);
}

export function clearSessionCookie(ctx: Context): void {
  ctx.set(
    'Set-Cookie',
    `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0${isHttps(ctx) ? '; Secure' : ''}`,
  );
}

/** The session cookie's value, if the request carries one. */
export function sessionIdOf(ctx: Context): string | undefined {
  const header = ctx.get('Cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=');
  }
  return undefined;
}
