import { type Executor, queryOne, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { problem } from '../errors/problem';

/** Failures count for 15 minutes; 5 for one email, or SIGNIN_FAILURES_PER_ADDRESS from one address. */
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const FAILURES_PER_EMAIL = 5;

/** What a sign-in is counted under: the email as typed (without case) and the client address. */
export interface SignInAttempt {
  email: string;
  address: string;
  now: Date;
}

/**
 * Refuses (429 with Retry-After) an attempt whose email or address used up its failures in the window:
 * before the password is looked at, so a refusal says nothing about it.
 */
export async function checkSignInBudget(db: Executor, attempt: SignInAttempt, perAddress: number): Promise<void> {
  const since = new Date(attempt.now.getTime() - FAILURE_WINDOW_MS);
  // The time the oldest counted failure leaves the window, once a budget is used up.
  const row = await queryOne<{ email_free_at: Date | null; address_free_at: Date | null }>(
    db,
    sql`SELECT
      (SELECT at FROM signin_failures WHERE email = ${attempt.email.toLowerCase()} AND at > ${since}
       ORDER BY at DESC OFFSET ${FAILURES_PER_EMAIL - 1} LIMIT 1) AS email_free_at,
      (SELECT at FROM signin_failures WHERE address = ${attempt.address} AND at > ${since}
       ORDER BY at DESC OFFSET ${perAddress - 1} LIMIT 1) AS address_free_at`,
  );
  const blockedUntil = [row?.email_free_at, row?.address_free_at]
    .filter((at): at is Date => at instanceof Date)
    .map((at) => at.getTime() + FAILURE_WINDOW_MS);
  if (blockedUntil.length === 0) return;
  const seconds = Math.max(1, Math.ceil((Math.max(...blockedUntil) - attempt.now.getTime()) / 1000));
  throw problem('RATE_LIMITED', `Too many failed sign-ins; retry in ${seconds} s.`, {
    headers: { 'Retry-After': String(seconds) },
  });
}

/** Counts a failed sign-in (committed at once, whatever the request does next). */
export async function recordSignInFailure(db: Executor, attempt: SignInAttempt): Promise<void> {
  await queryRows(
    db,
    sql`WITH old AS (DELETE FROM signin_failures WHERE at < ${new Date(attempt.now.getTime() - FAILURE_WINDOW_MS)})
        INSERT INTO signin_failures (email, address, at) VALUES (${attempt.email.toLowerCase()}, ${attempt.address}, ${attempt.now})`,
  );
}

/** A successful sign-in forgives that email's failures (not the address's). */
export async function forgiveEmail(db: Executor, email: string): Promise<void> {
  await queryRows(db, sql`DELETE FROM signin_failures WHERE email = ${email.toLowerCase()}`);
}
