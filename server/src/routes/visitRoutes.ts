import type { VisitKind } from '../queries/visitKinds';
import { notFound } from '../errors/problem';
import { kioskMaySee, kioskWindowOf } from '../policies/kioskWindow';
import { type Route, defineRoute, siteOf } from './define';
import { CheckinParams } from './params';

/** What the API reference says of a route, which differs between the kinds. */
interface RouteText {
  path: string;
  summary: string;
  description: string;
  example: unknown;
}

/**
 * GET one visit of the site, by id: a visit of another site is a 404, as an unknown one is, and so is one a
 * kiosk may not see (it left more than a day ago: a kiosk never reads the site's history).
 */
export function readVisitRoute<Row extends { status: string; last_event_at: Date }, Resource>(
  kind: VisitKind<Row, Resource>,
  text: RouteText,
): Route {
  return defineRoute({
    method: 'GET',
    path: text.path,
    summary: text.summary,
    description: text.description,
    examples: { response: text.example },
    tag: kind.tag,
    auth: 'token',
    scope: kind.readScope,
    params: CheckinParams,
    responses: { 200: kind.response },
    handler: async (ctx) => {
      const { checkinId, siteId } = ctx.params;
      const row = await kind.find(ctx.db, {
        accountId: ctx.principal.accountId,
        siteId: siteOf(ctx).siteId,
        checkinId,
      });
      const since = kioskWindowOf(ctx.principal, ctx.now);
      if (!row || (since && !kioskMaySee(kind.name, row.status, row.last_event_at, since)))
        throw notFound(`${kind.noun} ${checkinId} does not exist on site ${siteId}.`);
      return { status: 200, body: kind.present(row) };
    },
  });
}

const dateOf = (instant: string | undefined) => (instant ? new Date(instant) : undefined);

/** A search's range of entry (`from`, `to`) and of stay (`overlapsFrom`, `overlapsTo`), as dates. */
export const searchRangesOf = (body: { from?: string; to?: string; overlapsFrom?: string; overlapsTo?: string }) => ({
  from: dateOf(body.from),
  to: dateOf(body.to),
  overlapsFrom: dateOf(body.overlapsFrom),
  overlapsTo: dateOf(body.overlapsTo),
});
