import type {
  CreateWatchlistEntryRequest,
  UpdateWatchlistEntryRequest,
  WatchlistEntry,
} from '../../../shared/src/schemas/watchlist';
import type { AccountCollection } from '../queries/accountCollection';
import { type Executor, inTransaction, queryOne } from '../db/query';
import { raw, sql } from '../db/sql';
import { notFound, validationFailed } from '../errors/problem';
import { normalizeEmail, normalizeName, normalizePhone } from '../../../shared/src/domain/watchlist';

interface EntryRow {
  id: number;
  email: string | null;
  phone: string | null;
  first_name: string | null;
  last_name: string | null;
  reason: string | null;
  created_at: Date;
}

const present = (row: EntryRow): WatchlistEntry => ({
  entryId: row.id,
  email: row.email,
  phone: row.phone,
  firstName: row.first_name,
  lastName: row.last_name,
  reason: row.reason,
  createdAt: row.created_at.toISOString(),
});

const COLUMNS = 'id, email, phone, first_name, last_name, reason, created_at';

/** The account's watchlist, for the list route. */
export const watchlist: AccountCollection<EntryRow> = {
  table: 'watchlist_people',
  columns: COLUMNS,
  noun: 'watchlist entry',
  present,
};

/** A new entry, stored with the normalized forms check-ins are matched by. */
export async function addWatchlistEntry(
  db: Executor,
  input: { accountId: number; request: CreateWatchlistEntryRequest; now: Date },
): Promise<WatchlistEntry> {
  const { accountId, request, now } = input;
  const row = await queryOne<EntryRow>(
    db,
    sql`INSERT INTO watchlist_people (account_id, email, phone, first_name, last_name, reason,
          email_norm, phone_norm, name_norm, created_at)
        VALUES (${accountId}, ${request.email ?? null}, ${request.phone ?? null}, ${request.firstName ?? null},
          ${request.lastName ?? null}, ${request.reason ?? null}, ${normalizeEmail(request.email)},
          ${normalizePhone(request.phone)}, ${normalizeName(request.firstName, request.lastName)}, ${now})
        RETURNING ${raw(COLUMNS)}`,
  );
  if (!row) throw new Error('watchlist insert returned nothing');
  return present(row);
}

/** Removes an entry (404 when the account has none with that id). */
export async function removeWatchlistEntry(db: Executor, input: { accountId: number; entryId: number }): Promise<void> {
  const row = await queryOne<{ id: number }>(
    db,
    sql`DELETE FROM watchlist_people WHERE account_id = ${input.accountId} AND id = ${input.entryId} RETURNING id`,
  );
  if (!row) throw notFound(`Watchlist entry ${input.entryId} does not exist.`);
}

/**
 * Changes the fields sent (`null` clears one) and stores the new normalized forms, so check-ins match the entry
 * as it now reads. The entry must keep an identifier: an email, a phone, or a first and last name.
 */
export async function updateWatchlistEntry(
  db: Executor,
  input: { accountId: number; entryId: number; request: UpdateWatchlistEntryRequest },
): Promise<WatchlistEntry> {
  const { accountId, entryId, request } = input;
  return inTransaction(db, async (tx) => {
    const stored = await queryOne<EntryRow>(
      tx,
      sql`SELECT ${raw(COLUMNS)} FROM watchlist_people WHERE account_id = ${accountId} AND id = ${entryId} FOR UPDATE`,
    );
    if (!stored) throw notFound(`Watchlist entry ${entryId} does not exist.`);
    const pick = (sent: string | null | undefined, kept: string | null) => (sent === undefined ? kept : sent);
    const next = {
      email: pick(request.email, stored.email),
      phone: pick(request.phone, stored.phone),
      firstName: pick(request.firstName, stored.first_name),
      lastName: pick(request.lastName, stored.last_name),
      reason: pick(request.reason, stored.reason),
    };
    if (!next.email && !next.phone && !(next.firstName && next.lastName)) {
      throw validationFailed([{ path: '', message: 'Give an email, a phone, or both firstName and lastName' }]);
    }
    const row = await queryOne<EntryRow>(
      tx,
      sql`UPDATE watchlist_people SET email = ${next.email}, phone = ${next.phone}, first_name = ${next.firstName},
            last_name = ${next.lastName}, reason = ${next.reason}, email_norm = ${normalizeEmail(next.email)},
            phone_norm = ${normalizePhone(next.phone)}, name_norm = ${normalizeName(next.firstName, next.lastName)}
          WHERE account_id = ${accountId} AND id = ${entryId}
          RETURNING ${raw(COLUMNS)}`,
    );
    if (!row) throw new Error('watchlist update returned nothing');
    return present(row);
  });
}
