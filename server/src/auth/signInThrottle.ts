import { type Executor, queryOne, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { problem } from '../errors/problem';

/**
 * Failures count for 15 minutes. From one address, 5 for one email, or SIGNIN_FAILURES_PER_ADDRESS for any,
 * refuse that address (for that email, or for all). Failures for an email from anywhere only slow its
 * sign-ins down: a guesser elsewhere never locks the right person out (docs/api.md, Sessions and sign-in).
 */
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const FAILURES_PER_EMAIL = 5;
/** Each failure for an email beyond the first few, from any address, adds this wait to its sign-ins… */
const SLOWDOWN_STEP_MS = 500;
/** …up to this: slow enough to make guessing from many addresses costly, short enough for a person. */
export const MAX_SLOWDOWN_MS = 5_000;

/** What a sign-in is counted under: the email as typed (without case) and the client address. */
export interface SignInAttempt {
  email: string;
  address: string;
  now: Date;
}

/** How long to wait before checking the password, after `failures` for the email from anywhere. */
export const slowdownMs = (failures: number): number =>
  Math.min(MAX_SLOWDOWN_MS, Math.max(0, failures - (FAILURES_PER_EMAIL - 1)) * SLOWDOWN_STEP_MS);

/**
 * Refuses (429 with Retry-After) an attempt from an address that used up its failures in the window, for
 * this email or for all: before the password is looked at, so a refusal says nothing about it. Otherwise
 * answers how long to wait before checking the password (the email's failures from every address).
 */
export async function checkSignInBudget(
  db: Executor,
  attempt: SignInAttempt,
  perAddress: number,
): Promise<{ delayMs: number }> {
  const since = new Date(attempt.now.getTime() - FAILURE_WINDOW_MS);
  const email = attempt.email.toLowerCase();
  // The time the oldest counted failure leaves the window, once a budget is used up.
  const row = await queryOne<{ pair_free_at: Date | null; address_free_at: Date | null; email_failures: number }>(
    db,
    sql`SELECT
      (SELECT at FROM signin_failures WHERE email = ${email} AND address = ${attempt.address} AND at > ${since}
       ORDER BY at DESC OFFSET ${FAILURES_PER_EMAIL - 1} LIMIT 1) AS pair_free_at,
      (SELECT at FROM signin_failures WHERE address = ${attempt.address} AND at > ${since}
       ORDER BY at DESC OFFSET ${perAddress - 1} LIMIT 1) AS address_free_at,
      (SELECT count(*)::int FROM signin_failures WHERE email = ${email} AND at > ${since}) AS email_failures`,
  );
  const blockedUntil = [row?.pair_free_at, row?.address_free_at]
    .filter((at): at is Date => at instanceof Date)
    .map((at) => at.getTime() + FAILURE_WINDOW_MS);
  if (blockedUntil.length > 0) {
    const seconds = Math.max(1, Math.ceil((Math.max(...blockedUntil) - attempt.now.getTime()) / 1000));
    throw problem('RATE_LIMITED', `Too many failed sign-ins; retry in ${seconds} s.`, {
      headers: { 'Retry-After': String(seconds) },
    });
  }
  return { delayMs: slowdownMs(row?.email_failures ?? 0) };
}

/** Counts a failed sign-in (committed at once, whatever the request does next). */
export async function recordSignInFailure(db: Executor, attempt: SignInAttempt): Promise<void> {
  await queryRows(
    db,
    sql`WITH old AS (DELETE FROM signin_failures WHERE at < ${new Date(attempt.now.getTime() - FAILURE_WINDOW_MS)})
        INSERT INTO signin_failures (email, address, at) VALUES (${attempt.email.toLowerCase()}, ${attempt.address}, ${attempt.now})`,
  );
}

/**
 * A successful sign-in forgives the failures of that email from that address (a person's own typos); the
 * failures from elsewhere still count, for their addresses and the email's slowdown.
 */
export async function forgiveAttempt(db: Executor, attempt: Pick<SignInAttempt, 'email' | 'address'>): Promise<void> {
  await queryRows(
    db,
    sql`DELETE FROM signin_failures WHERE email = ${attempt.email.toLowerCase()} AND address = ${attempt.address}`,
  );
}
