import { CreateWatchlistEntryRequest, WatchlistEntry, WatchlistEntryIdParams } from '../../../../shared/src/schemas/watchlist';
import { addWatchlistEntry, removeWatchlistEntry, watchlist } from '../../commands/watchlistEntries';
import { listByIdRoute } from '../accountCollection';
import { defineRoute } from '../define';
import { auditParam, auditReply } from '../../audit/targets';

const tag = 'Watchlist';

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
    audit: auditReply('watchlist_entry.created', 'watchlist_entry', 'entryId'),
    handler: async ({ db, principal, body, now }) => ({
      status: 201,
      body: await addWatchlistEntry(db, { accountId: principal.accountId, request: body, now }),
    }),
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
    audit: auditParam('watchlist_entry.deleted', 'watchlist_entry', 'entryId'),
    handler: async ({ db, principal, params }) => {
      await removeWatchlistEntry(db, { accountId: principal.accountId, entryId: params.entryId });
      return { status: 204 };
    },
  }),
];
