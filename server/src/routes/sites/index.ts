import { PageQuery, page } from '../../../../shared/src/schemas/common';
import { CheckinConfig, CheckinConfigUpdate, Site } from '../../../../shared/src/schemas/sites';
import { queryOne, queryRows } from '../../db/query';
import { configEtag, presentConfig, presentSite } from '../../presenters/site';
import { afterId, cursorScope, idPage } from '../../queries/cursor';
import { ifNoneMatch } from '../conditional';
import { defineRoute, siteOf } from '../define';
import { SiteParams } from '../params';

const tag = 'Sites';


export const siteRoutes = [
  defineRoute({
    method: 'GET',
    path: '/sites',
    summary: 'List the sites this token can view (oldest first)',
    tag,
    auth: 'token',
    query: PageQuery,
    responses: { 200: page(Site) },
    handler: async ({ db, principal, query }) => {
      // Sites are few and stable: ordered by id, the cursor is the last id (still keyset, never OFFSET).
      const scope = cursorScope('sites', { accountId: principal.accountId });
      const after = afterId(query.cursor, scope);
      const rows = await queryRows<{ id: number; name: string; timezone: string }>(
        db,
        `SELECT s.id, s.name, s.timezone FROM sites s
         WHERE s.account_id = $1 AND s.id > $2
           AND ($3 OR EXISTS (SELECT 1 FROM token_sites ts
                              WHERE ts.account_id = s.account_id AND ts.token_id = $4 AND ts.site_id = s.id))
         ORDER BY s.id LIMIT $5`,
        [principal.accountId, after, principal.allSites, principal.tokenId, query.limit + 1],
      );
      return {
        status: 200,
        body: idPage(rows, query.limit, (row) => presentSite({ siteId: row.id, name: row.name, timezone: row.timezone }), scope),
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/sites/:siteId',
    summary: 'Read one site',
    tag,
    auth: 'token',
    params: SiteParams,
    responses: { 200: Site },
    handler: async (ctx) => ({ status: 200, body: presentSite(siteOf(ctx)) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/sites/:siteId/checkins/people/config',
    summary: 'Read the fields the site requires on check-in (cache it for a few minutes)',
    tag,
    auth: 'token',
    scope: 'checkins:read',
    params: SiteParams,
    responses: { 200: CheckinConfig, 304: null },
    handler: async (ctx) => {
      const site = siteOf(ctx);
      const etag = configEtag(site);
      const headers = { ETag: etag, 'Cache-Control': 'private, max-age=300' };
      if (ifNoneMatch(ctx.koa.get('If-None-Match'), etag)) return { status: 304, headers };
      return { status: 200, body: presentConfig(site), headers };
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/sites/:siteId/checkins/people/config',
    summary: 'Replace the site check-in configuration',
    tag,
    auth: 'token',
    scope: 'sites:configure',
    params: SiteParams,
    body: CheckinConfigUpdate,
    responses: { 200: CheckinConfig },
    handler: async (ctx) => {
      const site = siteOf(ctx);
      const config = { requiresApproval: ctx.body.requiresApproval, fields: ctx.body.fields };
      const row = await queryOne<{ config_version: number }>(
        ctx.db,
        `UPDATE sites SET checkin_config = $3, config_version = config_version + 1, updated_at = $4
         WHERE account_id = $1 AND id = $2 RETURNING config_version`,
        [ctx.principal.accountId, site.siteId, JSON.stringify(config), ctx.now],
      );
      const updated = { ...site, checkinConfig: config, configVersion: row?.config_version ?? site.configVersion + 1 };
      return { status: 200, body: presentConfig(updated), headers: { ETag: configEtag(updated) } };
    },
  }),
];

