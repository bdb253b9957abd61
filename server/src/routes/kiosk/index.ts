import { KioskPeopleQuery, KioskPersonPage, toKioskPerson } from '../../../../shared/src/schemas/kioskPeople';
import { WatchlistDigest } from '../../../../shared/src/schemas/watchlist';
import { kioskSince } from '../../policies/kioskWindow';
import { searchPersonCheckins } from '../../queries/personCheckinSearch';
import { personCheckinExample } from '../examples';
import { digestEtag, readWatchlistDigest } from '../../queries/watchlistDigest';
import { ifNoneMatch } from '../conditional';
import { defineRoute, siteOf } from '../define';
import { SiteParams } from '../params';
import { kioskPairingRoutes } from './pairing';

const tag = 'Kiosk';

// What a kiosk keeps to act offline. The site in the path is resolved with the token first (a site the
// token cannot view is a 404), so only a device paired with one of the account's sites gets its digest.
export const kioskRoutes = [
  defineRoute({
    method: 'GET',
    path: '/sites/:siteId/kiosk/watchlist-digest',
    summary:
      'Read the watchlist as keyed hashes, so a kiosk can tell a watchlisted visitor offline (revalidate with If-None-Match)',
    description:
      "The account's watchlist as a kiosk keeps it: per kind, the hex HMAC-SHA256 under `key` of each entry's normalized email, phone digits and full name, sorted. No names, no reasons; the key comes along, so this is pseudonymization, not secrecy. Answered with `ETag` and `Cache-Control: private, no-cache`; `If-None-Match` gives a 304 while it is unchanged.",
    examples: {
      response: {
        algorithm: 'HMAC-SHA256',
        key: 'q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80=',
        email: ['5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592'],
        phone: [],
        name: [],
      },
    },
    headers: ['ETag', 'Cache-Control'],
    tag,
    auth: 'token',
    scope: ['checkins:write', 'kiosk:visitor'],
    params: SiteParams,
    responses: { 200: WatchlistDigest, 304: null },
    handler: async ({ db, principal, koa }) => {
      const digest = await readWatchlistDigest(db, principal.accountId);
      const etag = digestEtag(digest);
      const headers = { ETag: etag, 'Cache-Control': 'private, no-cache' };
      if (ifNoneMatch(koa.get('If-None-Match'), etag)) return { status: 304, headers };
      return { status: 200, body: digest, headers };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/sites/:siteId/kiosk/people',
    summary: "A visitor kiosk's view of the site's people: on site now, and the last day's refusals",
    description:
      "What a visitor kiosk shows (Roll call, Find your name) and no more: each visit's names, company, status, entry, exit, breaks and badge code (a scanned badge checks the visit out offline); never email, phone, host, purpose or custom fields. The visits are those IN, ON_BREAK or PENDING, and those STOP whose last event is at most 24 hours old (so a refused visitor who tries again is recognised); never the site's history. Newest entry first, paginated like every list. The visitor kiosk's token (`kiosk:visitor`) reads this instead of the check-in list, which it cannot.",
    examples: {
      response: {
        data: [
          {
            checkinId: personCheckinExample.checkinId,
            siteId: personCheckinExample.siteId,
            status: 'IN',
            person: { firstName: 'Ada', lastName: 'Lovelace', company: 'ACME' },
            entry: personCheckinExample.entry,
            exit: null,
            breaks: [],
            createdAt: personCheckinExample.createdAt,
            updatedAt: personCheckinExample.updatedAt,
            badgeCode: personCheckinExample.badgeCode,
          },
        ],
        nextCursor: null,
      },
    },
    tag,
    auth: 'token',
    scope: ['checkins:read', 'kiosk:visitor'],
    params: SiteParams,
    query: KioskPeopleQuery,
    responses: { 200: KioskPersonPage },
    handler: async (ctx) => {
      const found = await searchPersonCheckins(ctx.db, {
        accountId: ctx.principal.accountId,
        siteIds: [siteOf(ctx).siteId],
        status: ['IN', 'ON_BREAK', 'PENDING', 'STOP'],
        kioskSince: kioskSince(ctx.now),
        limit: ctx.query.limit,
        cursor: ctx.query.cursor,
      });
      return { status: 200, body: { data: found.data.map(toKioskPerson), nextCursor: found.nextCursor } };
    },
  }),
  ...kioskPairingRoutes,
];
