import { hashPassword, verifyPassword } from '../auth/password';
import { type PasswordOwner, passwordWeakness } from '../auth/passwordStrength';
import { endUserSessions, startSession } from '../auth/sessions';
import { type Executor, queryOne, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { validationFailed } from '../errors/problem';

/**
 * A new password's hash, or 422 at `path` saying in plain words why it is too weak: white space only, the
 * owner's email, name or account name, or easy to guess (length is the schema's; docs/api.md, Passwords).
 */
export async function newPasswordHash(password: string, path: string, owner: PasswordOwner): Promise<string> {
  const weakness = passwordWeakness(password, owner);
  if (weakness !== undefined) throw validationFailed([{ path, message: weakness }], weakness);
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
  const row = await queryOne<{ password_hash: string | null; email: string; name: string; account_name: string }>(
    db,
    sql`SELECT u.password_hash, u.email, u.name, a.name AS account_name
        FROM staff_users u JOIN accounts a ON a.id = u.account_id
        WHERE u.account_id = ${user.accountId} AND u.id = ${user.userId} FOR UPDATE OF u`,
  );
  if (!(await verifyPassword(input.currentPassword, row?.password_hash ?? null))) {
    throw validationFailed([{ path: 'currentPassword', message: 'The current password is incorrect' }]);
  }
  const hash = await newPasswordHash(input.newPassword, 'newPassword', {
    email: row?.email ?? null,
    name: row?.name ?? null,
    accountName: row?.account_name ?? null,
  });
  await queryRows(
    db,
    sql`UPDATE staff_users SET password_hash = ${hash} WHERE account_id = ${user.accountId} AND id = ${user.userId}`,
  );
  await endUserSessions(db, user);
  return startSession(db, user, input.now);
}
