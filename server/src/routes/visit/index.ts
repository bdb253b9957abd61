import {
  VisitCheckin,
  VisitCheckinParams,
  VisitCheckinRequest,
  VisitCodeParams,
  VisitSite,
} from '../../../../shared/src/schemas/visit';
import { createVisitCheckin, readVisitCheckin } from '../../commands/visitCheckins';
import { presentConfig } from '../../presenters/site';
import { siteHosts } from '../../queries/hosts';
import { clientKey } from '../../rateLimit/addressLimiter';
import { defineRoute, siteOf, visitOf } from '../define';
import { visitActionRoutes } from './actions';
import { visitCheckinExample, visitSiteExample } from './examples';

const tag = 'Visitor phone';

/**
 * The visitor's own phone (docs/api.md, The visitor's phone): no token; the site's visit code in the path,
 * and the visit key the phone made (`Authorization: Visit <key>`) for its own visit.
 */
export const visitRoutes = [
  defineRoute({
    method: 'GET',
    path: '/visit/:code',
    summary: "The site's check-in form and hosts, for the page a visit code opens",
    description:
      "What the phone's page shows: the site's name, whether it is archived (it takes no check-ins then), its form (fields in order, and `formVersion` to send back) and its hosts' names. An unknown or rotated code is a 404. No token.",
    examples: { response: visitSiteExample },
    tag,
    auth: 'visit',
    params: VisitCodeParams,
    responses: { 200: VisitSite },
    handler: async (ctx) => {
      const site = siteOf(ctx);
      const form = presentConfig(site);
      const hosts = await siteHosts(ctx.db, { accountId: ctx.principal.accountId, siteId: site.siteId });
      return {
        status: 200,
        body: {
          siteName: site.name,
          archived: site.archivedAt !== null,
          formVersion: form.version,
          fields: form.fields,
          hosts,
        },
        headers: { 'Cache-Control': 'no-store' },
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/visit/:code/checkins',
    summary: 'Check in from a phone (entry.source QR_CODE)',
    description:
      "Creates a person check-in at the code's site, as `POST /v1/sites/{siteId}/checkins/people` does (the site's form, `hostId` from its hosts, the watchlist: STOP; approval: PENDING; hosts told), with `entry.source` `QR_CODE`. When the site's QR check-ins need approval (`visit.requiresApproval`) it is PENDING unless the watchlist stops it. Send `Authorization: Visit <key>`: 256 random bits the phone made, base64url (43 characters); the server keeps only its SHA-256, and the key then opens this visit alone (read it, start and end a break, check out). Send an `Idempotency-Key` too, and keep both until answered: a resend with the same key and body (and visit key) answers the same. One client address may make `VISIT_CHECKINS_PER_HOUR` (default 10) check-ins at one site an hour, counted across instances: then 429 with `Retry-After`. The answer is the visit as the phone sees it (no reason, no record beyond it).",
    examples: {
      request: {
        person: { firstName: 'Ada', lastName: 'Lovelace', company: 'ACME' },
        hostId: 3,
        formVersion: 4,
      },
      response: visitCheckinExample,
    },
    tag,
    auth: 'visit',
    params: VisitCodeParams,
    body: VisitCheckinRequest,
    responses: { 201: VisitCheckin },
    conflict: { codes: ['SITE_ARCHIVED: the site is archived: it takes no new check-ins'] },
    refusals: {
      429: 'RATE_LIMITED: this address made VISIT_CHECKINS_PER_HOUR check-ins at this site in the last hour',
    },
    handler: async (ctx) => {
      const visit = visitOf(ctx);
      if (!visit.keyHash) throw new Error('a visit write without a key passed authentication');
      const checkin = await createVisitCheckin(ctx.db, {
        principal: ctx.principal,
        site: siteOf(ctx),
        visit: { ...visit, keyHash: visit.keyHash },
        request: ctx.body,
        address: clientKey(ctx.koa.ip),
        limit: ctx.deps.env.VISIT_CHECKINS_PER_HOUR,
        now: ctx.now,
      });
      return { status: 201, body: checkin };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/visit/:code/checkins/:checkinId',
    summary: "Read one's own visit (with its visit key)",
    description:
      "The visit as its phone sees it: status, times, breaks, the name it was made with; a PENDING visit's page asks this now and then to show the decision. Needs the visit's key (`Authorization: Visit <key>`): another visit's key, or a visit of another site, is a 404.",
    examples: { response: visitCheckinExample },
    tag,
    auth: 'visit',
    params: VisitCheckinParams,
    responses: { 200: VisitCheckin },
    handler: async (ctx) => ({
      status: 200,
      body: await readVisitCheckin(ctx.db, {
        accountId: ctx.principal.accountId,
        site: siteOf(ctx),
        checkinId: ctx.params.checkinId,
      }),
      headers: { 'Cache-Control': 'no-store' },
    }),
  }),
  ...visitActionRoutes,
];
