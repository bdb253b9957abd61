import { type Executor, queryOne, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { problem } from '../errors/problem';

/** Wrong pairing codes count for 15 minutes; the 10th from one address, and all after it, are refused. */
export const PAIRING_WINDOW_MS = 15 * 60 * 1000;
export const WRONG_CODES_PER_ADDRESS = 10;

/** When the address may try again (its oldest counted failure leaves the window), or undefined when it may now. */
async function blockedUntil(db: Executor, address: string, now: Date): Promise<number | undefined> {
  const since = new Date(now.getTime() - PAIRING_WINDOW_MS);
  const row = await queryOne<{ free_at: Date | null }>(
    db,
    sql`SELECT (SELECT at FROM pairing_failures WHERE address = ${address} AND at > ${since}
                ORDER BY at DESC OFFSET ${WRONG_CODES_PER_ADDRESS - 1} LIMIT 1) AS free_at`,
  );
  return row?.free_at ? row.free_at.getTime() + PAIRING_WINDOW_MS : undefined;
}

const tooMany = (until: number, now: Date) => {
  const seconds = Math.max(1, Math.ceil((until - now.getTime()) / 1000));
  return problem('RATE_LIMITED', `Too many wrong pairing codes from this address; retry in ${seconds} s.`, {
    headers: { 'Retry-After': String(seconds) },
  });
};

/** 429 with Retry-After while the address has used up its wrong codes (checked before the code is looked at). */
export async function checkPairingBudget(db: Executor, address: string, now: Date): Promise<void> {
  const until = await blockedUntil(db, address, now);
  if (until !== undefined) throw tooMany(until, now);
}

/** Counts a wrong code (committed at once) and answers the refusal: 422, or 429 once this one used the budget up. */
export async function refuseWrongCode(db: Executor, address: string, now: Date): Promise<never> {
  await queryRows(
    db,
    sql`WITH old AS (DELETE FROM pairing_failures WHERE at < ${new Date(now.getTime() - PAIRING_WINDOW_MS)})
        INSERT INTO pairing_failures (address, at) VALUES (${address}, ${now})`,
  );
  const until = await blockedUntil(db, address, now);
  if (until !== undefined) throw tooMany(until, now);
  throw problem('PAIRING_CODE_INVALID', 'This pairing code is wrong, used or expired.');
}
