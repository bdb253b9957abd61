import type { StaffUser } from '../../../shared/src/schemas/staff';
import { hashPassword, needsRehash, verifyPassword } from '../auth/password';
import { startSession } from '../auth/sessions';
import { setTimeout as sleep } from 'node:timers/promises';
import { type SignInAttempt, checkSignInBudget, forgiveAttempt, recordSignInFailure } from '../auth/signInThrottle';
import { type Executor, inTransaction, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { findForSignIn } from '../db/staffUserRows';
import { problem } from '../errors/problem';
import { presentStaffUser } from '../presenters/staffUser';

/** The one answer to a wrong email, a wrong password, or a disabled user: it tells none of them apart. */
export const SIGN_IN_FAILED = 'Email or password is incorrect';

/**
 * Signs a staff user in: the throttle first (refused, or slowed down), then the password (a dummy hash is verified when the email is
 * unknown, so both take as long), then a new session. The failure is counted before the 401 is thrown.
 */
export async function signIn(
  db: Executor,
  input: SignInAttempt & { password: string; failuresPerAddress: number },
): Promise<{ user: StaffUser; sessionId: string }> {
  const { delayMs } = await checkSignInBudget(db, input, input.failuresPerAddress);
  // Failures for this email from other addresses slow it down, never lock its owner out.
  if (delayMs > 0) await sleep(delayMs);
  const found = await findForSignIn(db, input.email);
  const matches = await verifyPassword(input.password, found?.password_hash ?? null);
  if (!found || !matches || found.disabled) {
    await recordSignInFailure(db, input);
    throw problem('UNAUTHENTICATED', SIGN_IN_FAILED);
  }
  const user = { accountId: found.account_id, userId: found.id };
  // A hash made with older parameters is replaced now, while the password is at hand (docs/api.md, Passwords).
  const upgraded = found.password_hash && needsRehash(found.password_hash) ? await hashPassword(input.password) : null;
  const sessionId = await inTransaction(db, async (tx) => {
    await forgiveAttempt(tx, input);
    if (upgraded !== null) {
      await queryRows(
        tx,
        sql`UPDATE staff_users SET password_hash = ${upgraded}
            WHERE account_id = ${user.accountId} AND id = ${user.userId} AND password_hash = ${found.password_hash}`,
      );
    }
    return startSession(tx, user, input.now);
  });
  return { user: presentStaffUser({ ...found, last_sign_in_at: input.now }), sessionId };
}
