import { createHash, createHmac } from 'node:crypto';
import { type WatchlistKind, digestMessages, watchlistKinds } from '../../../shared/src/domain/watchlist';
import type { WatchlistDigest } from '../../../shared/src/schemas/watchlist';
import { type Executor, queryOne, queryRows } from '../db/query';
import { sql } from '../db/sql';

/**
 * The account's watchlist as a kiosk may hold it: the HMAC-SHA256 of each entry's normalized email, phone
 * and full name under the account's digest key, per kind, sorted and without repeats (so neither the order
 * entries were added in nor which hashes belong to one entry shows). Never a name, a value or a reason.
 */
export async function readWatchlistDigest(db: Executor, accountId: number): Promise<WatchlistDigest> {
  const account = await queryOne<{ key: Buffer }>(
    db,
    sql`SELECT watchlist_digest_key AS key FROM accounts WHERE id = ${accountId}`,
  );
  if (!account) throw new Error(`account ${accountId} vanished`);
  const entries = await queryRows<{
    email: string | null;
    phone: string | null;
    first_name: string | null;
    last_name: string | null;
  }>(db, sql`SELECT email, phone, first_name, last_name FROM watchlist_people WHERE account_id = ${accountId}`);
  const hashes: Record<WatchlistKind, Set<string>> = { email: new Set(), phone: new Set(), name: new Set() };
  for (const entry of entries) {
    const person = { email: entry.email, phone: entry.phone, firstName: entry.first_name, lastName: entry.last_name };
    for (const { kind, message } of digestMessages(person)) {
      hashes[kind].add(createHmac('sha256', account.key).update(message, 'utf8').digest('hex'));
    }
  }
  const sorted = (kind: WatchlistKind) => [...hashes[kind]].sort();
  return {
    algorithm: 'HMAC-SHA256',
    key: account.key.toString('base64'),
    email: sorted('email'),
    phone: sorted('phone'),
    name: sorted('name'),
  };
}

/** A strong validator of exactly this digest (its key included): it changes whenever the watchlist does. */
export function digestEtag(digest: WatchlistDigest): string {
  const body = [digest.key, ...watchlistKinds.map((kind) => digest[kind].join(','))].join('|');
  return `"wl-${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;
}
