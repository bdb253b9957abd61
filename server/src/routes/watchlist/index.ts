import {
  CreateWatchlistEntryRequest,
  UpdateWatchlistEntryRequest,
  WatchlistEntry,
  WatchlistEntryIdParams,
} from '../../../../shared/src/schemas/watchlist';
import {
  addWatchlistEntry,
  removeWatchlistEntry,
  updateWatchlistEntry,
  watchlist,
} from '../../commands/watchlistEntries';
import { listByIdRoute } from '../accountCollection';
import { defineRoute } from '../define';
import { auditParam, auditReply } from '../../audit/targets';
import { watchlistEntryExample } from '../examples';

const tag = 'Watchlist';

// The watchlist decides who is stopped at the door: its own scope, which kiosk tokens never get by default.
export const watchlistRoutes = [
  defineRoute({
    method: 'POST',
    path: '/watchlist/people',
    summary: 'Add a person to the watchlist (matching check-ins are created as STOP)',
    description:
      "Adds an entry to the account's watchlist; it needs an identifier: an email, a phone (with digits), or both first and last name. A new person check-in whose email (case-insensitive), phone (digits only) or full name (case-insensitive) matches an entry is created as STOP. The `reason` is shown to staff only.",
    examples: {
      request: { email: 'mallory@example.com', reason: 'Banned after an incident' },
      response: watchlistEntryExample,
    },
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
  listByIdRoute(watchlist, {
    path: '/watchlist/people',
    summary: 'List watchlist entries (oldest first)',
    description: 'The watchlist entries of the account, oldest first.',
    example: watchlistEntryExample,
    tag,
    scope: 'watchlist:manage',
    item: WatchlistEntry,
  }),
  defineRoute({
    method: 'PATCH',
    path: '/watchlist/people/:entryId',
    summary: 'Change a watchlist entry',
    description:
      'Changes the fields sent; `null` clears one. The entry must keep an identifier (an email, a phone, or both first and last name), else 422. New check-ins are matched against the entry as it now reads; check-ins already stopped stay as they are.',
    examples: { request: { reason: 'Banned until further notice', phone: null }, response: watchlistEntryExample },
    tag,
    auth: 'token',
    scope: 'watchlist:manage',
    params: WatchlistEntryIdParams,
    body: UpdateWatchlistEntryRequest,
    responses: { 200: WatchlistEntry },
    audit: auditParam('watchlist_entry.updated', 'watchlist_entry', 'entryId'),
    handler: async ({ db, principal, params, body }) => ({
      status: 200,
      body: await updateWatchlistEntry(db, { accountId: principal.accountId, entryId: params.entryId, request: body }),
    }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/watchlist/people/:entryId',
    summary: 'Remove a watchlist entry',
    description: 'Removes the entry; check-ins already stopped by it stay as they are.',
    examples: { response: null },
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
