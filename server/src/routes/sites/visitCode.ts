import { Readable } from 'node:stream';
import { z } from 'zod';
import { Site, visitPageUrl } from '../../../../shared/src/schemas/sites';
import { rotateVisitCode } from '../../commands/siteAdministration';
import { presentSite } from '../../presenters/site';
import { readSiteSettings } from '../../queries/siteBadge';
import { renderPosterPdf } from '../../visitPoster/posterDocument';
import { visitBaseUrl } from '../../visitPoster/publicBase';
import { defineRoute, siteOf } from '../define';
import { siteExample } from '../examples';
import { SiteParams } from '../params';

const tag = 'Sites';
// The PDF's bytes (the route's description and media type say what they are).
const PosterPdf = z.string();

/** A site's visit code and its QR poster (docs/running-a-site.md, The visitor's phone). */
export const visitCodeRoutes = [
  defineRoute({
    method: 'POST',
    path: '/sites/:siteId/visit-code',
    summary: 'Give the site a new visit code (the old one and its poster stop working)',
    description:
      "Replaces the site's visit code (`visit.code`) with a new random one and answers the site. The old code stops at once: its poster's page says to ask reception, its API answers 404, and phones of visits begun under it can no longer act (those visitors check out at reception or a kiosk). Print the new poster.",
    examples: { request: {}, response: { ...siteExample, visit: { code: 'M4TR8XQ2VN', requiresApproval: false } } },
    tag,
    auth: 'token',
    scope: 'sites:configure',
    params: SiteParams,
    body: z.strictObject({}),
    bodyOptional: true,
    responses: { 200: Site },
    audit: (ctx) => ({
      action: 'site.visit_code_rotated',
      target: { type: 'site', id: siteOf(ctx).siteId },
      siteId: siteOf(ctx).siteId,
    }),
    handler: async (ctx) => {
      const site = await rotateVisitCode(ctx.db, {
        accountId: ctx.principal.accountId,
        siteId: siteOf(ctx).siteId,
        now: ctx.now,
      });
      return { status: 200, body: presentSite(site) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/sites/:siteId/visit-poster.pdf',
    summary: "The site's QR poster: an A4 PDF to hang at the door",
    description:
      'One A4 page: the site\'s name, "Scan to sign in", and a QR code of `{PUBLIC_URL}/visit/{code}` (the address printed under it too). Without `PUBLIC_URL`, the address is the one this request came to (its `Host` header, when it is a plain host name or address; else 422): set `PUBLIC_URL` when visitors reach the server by another name than staff.',
    examples: { response: '%PDF-1.3 …' },
    tag,
    auth: 'token',
    scope: 'sites:configure',
    params: SiteParams,
    responses: { 200: PosterPdf },
    mediaType: 'application/pdf',
    headers: ['Cache-Control'],
    refusals: { 422: 'VALIDATION_FAILED: no PUBLIC_URL, and the request named no plain host' },
    handler: async (ctx) => {
      const site = siteOf(ctx);
      const { visit } = await readSiteSettings(ctx.db, { accountId: ctx.principal.accountId, siteId: site.siteId });
      const url = visitPageUrl(visitBaseUrl(ctx.koa, ctx.deps.env.PUBLIC_URL), visit.code);
      const pdf = await renderPosterPdf({ siteName: site.name, callToAction: 'Scan to sign in', url });
      return {
        status: 200,
        headers: {
          'Content-Disposition': `inline; filename="visit-poster-${site.siteId}.pdf"`,
          'Cache-Control': 'no-store',
        },
        stream: { contentType: 'application/pdf', chunks: Readable.from([pdf]) },
      };
    },
  }),
];
