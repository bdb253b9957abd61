import { PeopleChanges, PeopleChangesQuery } from '../../../../shared/src/schemas/peopleChanges';
import { readPeopleChanges } from '../../queries/peopleChanges';
import { kioskWindowOf } from '../../policies/kioskWindow';
import { defineRoute, siteOf } from '../define';
import { SiteParams } from '../params';

const at = '2026-11-21T09:00:00.000Z';

/** Mounted before `…/people/:checkinId`, which would take "changes" for an id. */
export const peopleChangesRoutes = [
  defineRoute({
    method: 'GET',
    path: '/sites/:siteId/checkins/people/changes',
    summary: "The site's person visits changed after a cursor, for a kiosk's Roll call",
    description:
      "Without `cursor`: the visits on site now (every status but OUT), page by page; then the visits changed since, oldest change first, each once and as it is now (a visit that left comes as OUT, so the kiosk lets it go). Apply `data` in order, keep `nextCursor`, and ask again at once while `hasMore`. An unchanged site answers `data: []` and the same cursor: one small request. Names, company and badge code (a scanned badge checks the visit out offline) only: no email, phone, host, purpose or custom field. A kiosk's first reading has a refused (STOP) visit only for a day. A cursor of another site's feed is a 400.",
    examples: {
      query: { cursor: 'WzEyLG51bGwsImFiY2RlZmdoIl0' },
      response: {
        data: [
          {
            checkinId: 42,
            status: 'OUT',
            person: { firstName: 'Ada', lastName: 'Lovelace', company: 'ACME' },
            entry: { source: 'KIOSK', at },
            exit: { source: 'KIOSK', at: '2026-11-21T11:30:00.000Z' },
            breaks: [],
            badgeCode: 'q3Zr8LwT0bXy4KcN',
            createdAt: at,
            updatedAt: '2026-11-21T11:30:00.000Z',
          },
        ],
        nextCursor: 'WzEzLG51bGwsImFiY2RlZmdoIl0',
        hasMore: false,
      },
    },
    tag: 'Person check-ins',
    auth: 'token',
    // The visitor kiosk keeps its Roll call by this feed; a gate kiosk shows no people.
    scope: ['checkins:read', 'kiosk:visitor'],
    params: SiteParams,
    query: PeopleChangesQuery,
    responses: { 200: PeopleChanges },
    handler: async (ctx) => ({
      status: 200,
      body: await readPeopleChanges(ctx.db, {
        accountId: ctx.principal.accountId,
        siteId: siteOf(ctx).siteId,
        cursor: ctx.query.cursor,
        limit: ctx.query.limit,
        kioskSince: kioskWindowOf(ctx.principal, ctx.now),
      }),
    }),
  }),
];
