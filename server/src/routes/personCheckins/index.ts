import { DEFAULT_PAGE_SIZE, page } from '../../../../shared/src/schemas/common';
import {
  CreateCheckinRequest,
  PeopleCheckinsSearchRequest,
  PersonCheckin,
  PersonCheckinListQuery,
} from '../../../../shared/src/schemas/personCheckins';
import { createPersonCheckin } from '../../commands/checkinCreator';
import { viewableSites } from '../../policies/viewableSites';
import { searchPersonCheckins } from '../../queries/personCheckinSearch';
import { personVisits } from '../../queries/visitKinds';
import { defineRoute, siteOf } from '../define';
import { configExample, pageOf, personCheckinExample } from '../examples';
import { SiteParams } from '../params';
import { readVisitRoute, searchRangesOf } from '../visitRoutes';
import { personActionRoutes } from './actions';
import { badgeRoutes } from './badge';
import { auditManualEntry } from '../../audit/targets';

const tag = 'Person check-ins';
const base = '/sites/:siteId/checkins/people';

export const personCheckinRoutes = [
  defineRoute({
    method: 'POST',
    path: base,
    summary: 'Create a person check-in (IN, or PENDING / STOP per site approval and watchlist)',
    description:
      "Records a visitor at the site. The status is STOP when the person matches the account's watchlist, else PENDING when the site requires approval, else IN. `entry.source` is set by the server from the token's channel. The body must also hold every field the site's configuration requires (standard fields in `person` or at the top level, others in `customFields`); each missing one is listed in the 422. `labelIds` must name person labels of the account. `formVersion` (a kiosk sends it) names the version of the form the person filled in: when it is older than the current one and the body meets it, the check-in is accepted even where it does not meet the current form, carries the current form's unmet fields as `incompleteFields`, and raises an alert for reception (`GET /v1/alerts`, kind `form`); a version the site never had is a 422 on `formVersion`. Without `formVersion` the current form is required.",
    examples: {
      request: {
        person: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', company: 'ACME' },
        hostName: 'Grace',
        purpose: 'Meeting',
        customFields: { badgeNumber: '17' },
        labelIds: [3],
        formVersion: configExample.version,
      },
      response: personCheckinExample,
    },
    tag,
    auth: 'token',
    scope: ['checkins:write', 'kiosk:visitor'],
    params: SiteParams,
    body: CreateCheckinRequest,
    responses: { 201: PersonCheckin },
    conflict: { codes: ['SITE_ARCHIVED: the site is archived: it takes no new check-ins'] },
    audit: auditManualEntry('checkin.created', 'person_checkin'),
    atomicity: 'statement',
    handler: async (ctx) => {
      const { checkin, write } = await createPersonCheckin(ctx.db, {
        principal: ctx.principal,
        site: siteOf(ctx),
        request: ctx.body,
        now: ctx.now,
        attempt: ctx.attempt,
      });
      return { status: 201, body: checkin, write };
    },
  }),
  defineRoute({
    method: 'GET',
    path: base,
    summary: 'List the check-ins of one site, newest entry first',
    description:
      "The site's person check-ins, newest entry first, optionally only those in the given statuses (comma-separated).",
    examples: { query: { status: 'IN,ON_BREAK' }, response: pageOf(personCheckinExample) },
    tag,
    auth: 'token',
    scope: 'checkins:read',
    params: SiteParams,
    query: PersonCheckinListQuery,
    responses: { 200: page(PersonCheckin) },
    handler: async (ctx) => ({
      status: 200,
      body: await searchPersonCheckins(ctx.db, {
        accountId: ctx.principal.accountId,
        siteIds: [siteOf(ctx).siteId],
        status: ctx.query.status,
        limit: ctx.query.limit,
        cursor: ctx.query.cursor,
      }),
    }),
  }),
  readVisitRoute(personVisits, {
    path: `${base}/:checkinId`,
    summary: 'Read one check-in with its full break history',
    description: 'One person check-in of the site, with its breaks oldest first. A check-in of another site is a 404.',
    example: personCheckinExample,
  }),
  ...personActionRoutes,
  ...badgeRoutes,
  defineRoute({
    method: 'POST',
    path: '/checkins/people/search',
    summary: 'Search person check-ins across one, several or all sites the token can view',
    description:
      'Searches the check-ins of the listed sites (omitted or empty: every site the token can view; a listed site it cannot view is a 404). `from` and `to` bound `entry.at`, and `to` must not be before `from`. `overlapsFrom` and `overlapsTo` (either may be left out) keep the visits that overlap that range: entered before `overlapsTo`, and left after `overlapsFrom` or not yet left (the rule of the export). `q` is a case-insensitive prefix of first name, last name, email or company. A search changes nothing and takes no Idempotency-Key.',
    examples: {
      request: { siteIds: [1], status: ['IN', 'ON_BREAK'], q: 'love', limit: 20 },
      response: pageOf(personCheckinExample),
    },
    tag,
    auth: 'token',
    scope: 'checkins:read',
    body: PeopleCheckinsSearchRequest,
    bodyOptional: true,
    readOnly: true,
    responses: { 200: page(PersonCheckin) },
    handler: async ({ db, principal, body }) => ({
      status: 200,
      body: await searchPersonCheckins(db, {
        accountId: principal.accountId,
        siteIds: await viewableSites(db, principal, body.siteIds),
        status: body.status,
        entrySource: body.entrySource,
        exitSource: body.exitSource,
        ...searchRangesOf(body),
        q: body.q,
        limit: body.limit ?? DEFAULT_PAGE_SIZE,
        cursor: body.cursor,
      }),
    }),
  }),
];
