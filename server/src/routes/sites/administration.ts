import { CreateSiteBody, Site, UpdateSiteRequest } from '../../../../shared/src/schemas/sites';
import { fieldOf } from '../../audit/targets';
import { createAccountSite, updateSite } from '../../commands/siteAdministration';
import { presentSite } from '../../presenters/site';
import { defineRoute, siteOf } from '../define';
import { siteExample } from '../examples';
import { SiteParams } from '../params';

const tag = 'Sites';

/** Sites made and changed by their staff (docs/api.md, Sites): the console's Sites page. */
export const siteAdministrationRoutes = [
  defineRoute({
    method: 'POST',
    path: '/sites',
    summary: 'Add a site (with the default check-in form); needs every site of the account',
    description:
      'Adds a site to the account with the default check-in form. `timezone` is an IANA time zone name (default UTC); `defaultLanguage` what its kiosks speak until a visitor chooses (default `en`). Only a caller with every site of the account (an owner, or an all-sites token) may: anyone else gets 403.',
    examples: { request: { name: 'Head office', timezone: 'Europe/Berlin' }, response: siteExample },
    tag,
    auth: 'token',
    scope: 'sites:configure',
    body: CreateSiteBody,
    responses: { 201: Site },
    refusals: { 403: 'INSUFFICIENT_SCOPE: (a new site) the caller does not have every site of the account' },
    audit: (_ctx, body) => ({
      action: 'site.create',
      target: { type: 'site', id: fieldOf(body, 'siteId') },
      siteId: fieldOf(body, 'siteId'),
    }),
    handler: async (ctx) => {
      const site = await createAccountSite(ctx.db, {
        principal: ctx.principal,
        name: ctx.body.name,
        timezone: ctx.body.timezone,
        defaultLanguage: ctx.body.defaultLanguage,
      });
      return { status: 201, body: presentSite(site) };
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/sites/:siteId',
    summary: 'Rename a site, change its time zone, badges or default language, archive or restore it',
    description:
      'Changes only the fields sent. `defaultLanguage` is the language its kiosks speak until a visitor chooses another, and go back to when a visit ends; badges use it when a check-in names no `language`. `archived: true` archives the site: it refuses new check-ins of people and vehicles (409 SITE_ARCHIVED) while visits in progress can still take breaks, be approved or denied and check out; `GET /v1/sites` leaves it out unless `archived=true`. `archived: false` restores it.',
    examples: { request: { archived: true }, response: { ...siteExample, archivedAt: '2026-11-26T09:00:00.000Z' } },
    tag,
    auth: 'token',
    scope: 'sites:configure',
    params: SiteParams,
    body: UpdateSiteRequest,
    responses: { 200: Site },
    audit: (ctx) => ({
      action: 'site.update',
      target: { type: 'site', id: siteOf(ctx).siteId },
      siteId: siteOf(ctx).siteId,
    }),
    handler: async (ctx) => {
      const site = await updateSite(ctx.db, {
        accountId: ctx.principal.accountId,
        siteId: siteOf(ctx).siteId,
        change: ctx.body,
        now: ctx.now,
      });
      return { status: 200, body: presentSite(site) };
    },
  }),
];
