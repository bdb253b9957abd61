import { hashPassword, isCommonPassword, verifyPassword } from '../auth/password';
import { endUserSessions, startSession } from '../auth/sessions';
import { type Executor, queryOne, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { validationFailed } from '../errors/problem';

/** A new password's hash, or 422 when it is one of the most common passwords (length is the schema's). */
export async function newPasswordHash(password: string, path: string): Promise<string> {
  if (isCommonPassword(password)) {
    throw validationFailed([{ path, message: 'This password is one of the most common ones: choose another' }]);
  }
  return hashPassword(password);
}

/**
 * Changes one's own password: the current one must match. Every session of the user ends (other browsers
 * signed in are signed out); the caller gets a fresh one, whose id is returned.
 */
export async function changePassword(
  db: Executor,
  input: { accountId: number; userId: number; currentPassword: string; newPassword: string; now: Date },
): Promise<string> {
  const user = { accountId: input.accountId, userId: input.userId };
  const row = await queryOne<{ password_hash: string | null }>(
    db,
    sql`SELECT password_hash FROM staff_users WHERE account_id = ${user.accountId} AND id = ${user.userId} FOR UPDATE`,
  );
  if (!(await verifyPassword(input.currentPassword, row?.password_hash ?? null))) {
    throw validationFailed([{ path: 'currentPassword', message: 'The current password is incorrect' }]);
  }
  const hash = await newPasswordHash(input.newPassword, 'newPassword');
  await queryRows(
    db,
    sql`UPDATE staff_users SET password_hash = ${hash} WHERE account_id = ${user.accountId} AND id = ${user.userId}`,
  );
  await endUserSessions(db, user);
  return startSession(db, user, input.now);
}
