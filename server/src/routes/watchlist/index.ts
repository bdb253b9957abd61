import { CreateWatchlistEntryRequest, WatchlistEntry, WatchlistEntryIdParams } from '../../../../shared/src/schemas/watchlist';
import { normalizeEmail, normalizeName, normalizePhone } from '../../../../shared/src/domain/watchlist';
import { queryOne } from '../../db/query';
import { notFound } from '../../errors/problem';
import type { AccountCollection } from '../../db/accountCollection';
import { listByIdRoute } from '../accountCollection';
import { defineRoute } from '../define';

const tag = 'Watchlist';

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
const watchlist: AccountCollection<EntryRow> = { table: 'watchlist_people', columns: COLUMNS, noun: 'watchlist entry', present };

// The watchlist decides who is stopped at the door: its own scope, which kiosk tokens never get by default.
export const watchlistRoutes = [
  defineRoute({
    method: 'POST',
    path: '/watchlist/people',
    summary: 'Add a person to the watchlist (matching check-ins are created as STOP)',
    tag,
    auth: 'token',
    scope: 'watchlist:manage',
    body: CreateWatchlistEntryRequest,
    responses: { 201: WatchlistEntry },
    handler: async ({ db, principal, body, now }) => {
      const row = await queryOne<EntryRow>(
        db,
        `INSERT INTO watchlist_people (account_id, email, phone, first_name, last_name, reason,
           email_norm, phone_norm, name_norm, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${COLUMNS}`,
        [
          principal.accountId, body.email ?? null, body.phone ?? null, body.firstName ?? null, body.lastName ?? null,
          body.reason ?? null, normalizeEmail(body.email), normalizePhone(body.phone),
          normalizeName(body.firstName, body.lastName), now,
        ],
      );
      if (!row) throw new Error('watchlist insert returned nothing');
      return { status: 201, body: present(row) };
    },
  }),
  listByIdRoute(watchlist, { path: '/watchlist/people', summary: 'List watchlist entries (oldest first)', tag, scope: 'watchlist:manage', item: WatchlistEntry }),
  defineRoute({
    method: 'DELETE',
    path: '/watchlist/people/:entryId',
    summary: 'Remove a watchlist entry',
    tag,
    auth: 'token',
    scope: 'watchlist:manage',
    params: WatchlistEntryIdParams,
    responses: { 204: null },
    handler: async ({ db, principal, params }) => {
      const row = await queryOne<{ id: number }>(
        db,
        'DELETE FROM watchlist_people WHERE account_id = $1 AND id = $2 RETURNING id',
        [principal.accountId, params.entryId],
      );
      if (!row) throw notFound(`Watchlist entry ${params.entryId} does not exist.`);
      return { status: 204 };
    },
  }),
];
