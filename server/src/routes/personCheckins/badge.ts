import { Readable } from 'node:stream';
import { z } from 'zod';
import { badgeRefusal } from '../../../../shared/src/domain/badge';
import { PersonCheckin } from '../../../../shared/src/schemas/personCheckins';
import { badgeContent } from '../../badges/badgeContent';
import { renderBadgePdf } from '../../badges/badgeDocument';
import { badgeLabels } from '../../badges/labels';
import { findCheckin } from '../../queries/personCheckinRows';
import { conflict, notFound } from '../../errors/problem';
import { presentPersonCheckin } from '../../presenters/personCheckin';
import { readSiteSettings } from '../../queries/siteBadge';
import { defineRoute, siteOf } from '../define';
import { CheckinParams } from '../params';

// The PDF's bytes (the route's description and media type say what they are).
const BadgePdf = z.string();

export const badgeRoutes = [
  defineRoute({
    method: 'GET',
    path: '/sites/:siteId/checkins/people/:checkinId/badge.pdf',
    summary: 'The visitor badge of a check-in, as a PDF to print',
    description:
      "A one-page vector PDF of exactly the site's badge size (`62x100`, `54x101`, `89x36` or `A6`, in millimetres), with the visitor's name, company, host, the site, the visit's date, the band VISITOR, until when it is valid (the end of the site-local day it is printed), and a QR code that checks the visit out at any kiosk of the site (docs/api.md, Badges). Only for a visit that is IN or ON_BREAK: a PENDING one gets its badge once approved, a STOP or OUT one never. Badges must be on at the site. `Cache-Control: no-store`: it names a person.",
    examples: { response: '%PDF-1.3 …' },
    tag: 'Person check-ins',
    auth: 'token',
    // A visitor kiosk prints the badge of a visitor it checked in (only visits on site have one).
    scope: ['checkins:read', 'kiosk:visitor'],
    params: CheckinParams,
    responses: { 200: BadgePdf },
    mediaType: 'application/pdf',
    headers: ['Cache-Control'],
    // A refusal, not a `conflict`: the conflict's documented example would carry this route's PDF as `current`.
    refusals: {
      409: {
        description:
          'BADGES_OFF: badges are off at the site; CHECKIN_NOT_ADMITTED: the check-in is PENDING (not yet approved) or STOP; CHECKIN_CLOSED: the check-in is OUT (`current` is the check-in, except for BADGES_OFF)',
        current: PersonCheckin,
      },
    },
    handler: async (ctx) => {
      const site = siteOf(ctx);
      const key = { accountId: ctx.principal.accountId, siteId: site.siteId };
      const row = await findCheckin(ctx.db, { ...key, checkinId: ctx.params.checkinId });
      if (!row) throw notFound(`Check-in ${ctx.params.checkinId} does not exist on site ${site.siteId}.`);
      const settings = await readSiteSettings(ctx.db, key);
      if (!settings.badge.enabled)
        throw conflict('BADGES_OFF', `Badges are off at site ${site.siteId}: turn them on in the site's settings.`);
      const refusal = badgeRefusal(row.status);
      if (refusal) throw conflict(refusal.code, `Check-in ${row.id} ${refusal.reason}.`, presentPersonCheckin(row));
      const code = row.badge_code;
      // Every visit on site has one (made with it, or given one when badges came): none is a bug, not a 409.
      if (code === null) throw new Error(`Check-in ${row.id} is ${row.status} but has no badge code`);
      // In the visitor's language (the check-in's, sent by the kiosk), else the site's (docs/languages.md).
      const labels = badgeLabels(row.language ?? settings.defaultLanguage);
      const content = badgeContent({ ...row, badge_code: code }, site, ctx.now, labels);
      // Made whole before the answer starts (a few tens of kilobytes), so a failure is still a 500.
      const pdf = await renderBadgePdf(content, settings.badge.size);
      return {
        status: 200,
        headers: { 'Content-Disposition': `inline; filename="badge-${row.id}.pdf"`, 'Cache-Control': 'no-store' },
        stream: { contentType: 'application/pdf', chunks: Readable.from([pdf]) },
      };
    },
  }),
];
