import { page } from '../../../../shared/src/schemas/common';
import { CheckinConfig, CheckinConfigUpdate, Site, SiteListQuery } from '../../../../shared/src/schemas/sites';
import { replaceConfigIfMatch } from '../../commands/siteAdministration';
import { configEtag, presentConfig, presentSite } from '../../presenters/site';
import { afterId, cursorScope, idPage } from '../../queries/cursor';
import { listViewableSites } from '../../queries/siteList';
import { readSiteSettings } from '../../queries/siteBadge';
import { ifNoneMatch } from '../conditional';
import { defineRoute, siteOf } from '../define';
import { configExample, pageOf, siteExample } from '../examples';
import { SiteParams } from '../params';
import { siteAdministrationRoutes } from './administration';
import { visitCodeRoutes } from './visitCode';

const tag = 'Sites';

export const siteRoutes = [
  defineRoute({
    method: 'GET',
    path: '/sites',
    summary: 'List the sites this token can view (oldest first)',
    description:
      'The sites of the account this token can view (its site list, or every site with `allSites`), oldest first. Archived sites are left out unless `archived=true`.',
    examples: { response: pageOf(siteExample) },
    tag,
    auth: 'token',
    query: SiteListQuery,
    responses: { 200: page(Site) },
    handler: async ({ db, principal, query }) => {
      // Sites are few and stable: ordered by id, the cursor is the last id (still keyset, never OFFSET).
      const archived = query.archived ?? false;
      const scope = cursorScope(
        'sites',
        archived ? { accountId: principal.accountId, archived } : { accountId: principal.accountId },
      );
      const rows = await listViewableSites(db, principal, {
        afterId: afterId(query.cursor, scope),
        limit: query.limit,
        archived,
      });
      const present = (row: (typeof rows)[number]) =>
        presentSite({
          siteId: row.id,
          name: row.name,
          timezone: row.timezone,
          archivedAt: row.archived_at,
          badge: { enabled: row.badge_enabled, size: row.badge_size },
          defaultLanguage: row.default_language,
          visit: { code: row.visit_code, requiresApproval: row.visit_requires_approval },
        });
      return {
        status: 200,
        body: idPage(rows, query.limit, present, scope),
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/sites/:siteId',
    summary: 'Read one site',
    description: 'One site the token can view; any other is a 404.',
    examples: { response: siteExample },
    tag,
    auth: 'token',
    params: SiteParams,
    responses: { 200: Site },
    handler: async (ctx) => {
      const site = siteOf(ctx);
      const settings = await readSiteSettings(ctx.db, { accountId: ctx.principal.accountId, siteId: site.siteId });
      return { status: 200, body: presentSite({ ...site, ...settings }) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/sites/:siteId/checkins/people/config',
    summary: 'Read the fields the site requires on check-in (cache it for a few minutes)',
    description:
      'The check-in form of the site: its `version`, whether check-ins wait for approval, and the fields, in order. `version` moves on by one with every change; a check-in may name the version it was filled in on (`formVersion`). Answered with `ETag` and `Cache-Control: private, max-age=300`; send the ETag in `If-None-Match` to get a 304 while it is unchanged.',
    examples: { response: configExample },
    headers: ['ETag', 'Cache-Control'],
    tag,
    auth: 'token',
    scope: ['checkins:read', 'kiosk:visitor'],
    params: SiteParams,
    responses: { 200: CheckinConfig, 304: null },
    // Nothing to read: the site came with the caller.
    handler: (ctx) => {
      const site = siteOf(ctx);
      const etag = configEtag(site);
      const headers = { ETag: etag, 'Cache-Control': 'private, max-age=300' };
      if (ifNoneMatch(ctx.koa.get('If-None-Match'), etag)) return Promise.resolve({ status: 304, headers });
      return Promise.resolve({ status: 200, body: presentConfig(site), headers });
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/sites/:siteId/checkins/people/config',
    summary: 'Replace the site check-in configuration',
    description:
      'Replaces the configuration and answers it with its new `version` (one more) and `ETag`; every earlier version is kept, so a kiosk check-in made on one is checked against it. With `If-Match: <ETag>` it replaces only the version that ETag names: if someone changed the form meanwhile, 412 with the current form as `current` and its `ETag`. `firstName` and `lastName` must stay required text fields; field names are unique; a `select` needs at least one option and only a select has options; a standard field (firstName, lastName, email, phone, company, hostName, purpose) cannot be a checkbox.',
    examples: {
      request: { requiresApproval: configExample.requiresApproval, fields: [...configExample.fields] },
      response: configExample,
    },
    headers: ['ETag'],
    tag,
    auth: 'token',
    scope: 'sites:configure',
    params: SiteParams,
    body: CheckinConfigUpdate,
    responses: { 200: CheckinConfig },
    refusals: {
      412: {
        description:
          'PRECONDITION_FAILED: `If-Match` names another version than the current one (`current` is the current form, `ETag` its version)',
        current: CheckinConfig,
      },
    },
    audit: (ctx) => ({
      action: 'site.config_updated',
      target: { type: 'site', id: siteOf(ctx).siteId },
      siteId: siteOf(ctx).siteId,
    }),
    handler: async (ctx) => {
      const config = { requiresApproval: ctx.body.requiresApproval, fields: ctx.body.fields };
      const ifMatch = ctx.koa.get('If-Match') || undefined;
      const updated = await replaceConfigIfMatch(ctx.db, {
        accountId: ctx.principal.accountId,
        site: siteOf(ctx),
        config,
        ifMatch,
        now: ctx.now,
      });
      return { status: 200, body: presentConfig(updated), headers: { ETag: configEtag(updated) } };
    },
  }),
  ...siteAdministrationRoutes,
  ...visitCodeRoutes,
];
