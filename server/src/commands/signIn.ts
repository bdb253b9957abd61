import type { StaffUser } from '../../../shared/src/schemas/staff';
import { verifyPassword } from '../auth/password';
import { startSession } from '../auth/sessions';
import { type SignInAttempt, checkSignInBudget, forgiveEmail, recordSignInFailure } from '../auth/signInThrottle';
import { type Executor, inTransaction } from '../db/query';
import { findForSignIn } from '../queries/staffUserRows';
import { problem } from '../errors/problem';
import { presentStaffUser } from '../presenters/staffUser';

/** The one answer to a wrong email, a wrong password, or a disabled user: it tells none of them apart. */
export const SIGN_IN_FAILED = 'Email or password is incorrect';

/**
 * Signs a staff user in: the throttle first, then the password (a dummy hash is verified when the email is
 * unknown, so both take as long), then a new session. The failure is counted before the 401 is thrown.
 */
export async function signIn(
  db: Executor,
  input: SignInAttempt & { password: string; failuresPerAddress: number },
): Promise<{ user: StaffUser; sessionId: string }> {
  await checkSignInBudget(db, input, input.failuresPerAddress);
  const found = await findForSignIn(db, input.email);
  const matches = await verifyPassword(input.password, found?.password_hash ?? null);
  if (!found || !matches || found.disabled) {
    await recordSignInFailure(db, input);
    throw problem('UNAUTHENTICATED', SIGN_IN_FAILED);
  }
  const user = { accountId: found.account_id, userId: found.id };
  const sessionId = await inTransaction(db, async (tx) => {
    await forgiveEmail(tx, input.email);
    return startSession(tx, user, input.now);
  });
  return { user: presentStaffUser({ ...found, last_sign_in_at: input.now }), sessionId };
}
