import { page } from '../../../../shared/src/schemas/common';
import {
  CreateHostRequest,
  Host,
  HostIdParams,
  HostImportCsv,
  HostImportResult,
  HostListQuery,
  KioskHostList,
  UpdateHostRequest,
} from '../../../../shared/src/schemas/hosts';
import { auditParam, auditReply } from '../../audit/targets';
import { importHosts } from '../../commands/hostImport';
import { checkChatUrl, createHost, deleteHost, updateHost } from '../../commands/hosts';
import { notFound } from '../../errors/problem';
import { presentHost } from '../../presenters/host';
import { afterId, cursorScope, idPage } from '../../queries/cursor';
import { findVisibleHost, listHosts } from '../../queries/hosts';
import { kioskHostsEtag, readKioskHosts } from '../../queries/kioskHosts';
import { ifNoneMatch } from '../conditional';
import { defineRoute, siteOf } from '../define';
import { SiteParams } from '../params';
import { hostCsvExample, hostExample } from './examples';

const tag = 'Hosts';
const scope = 'hosts:manage' as const;
const sites =
  'A caller limited to some sites sees, changes and deletes only the hosts whose sites it can all view, and may give a host only sites it can view (another is a 404); `allSites: true` needs a caller with every site.';

export const hostRoutes = [
  defineRoute({
    method: 'POST',
    path: '/hosts',
    summary: 'Add a host: a person visitors come to see, told of their arrival by email or chat',
    description: `Creates a host. \`notifyBy\` left out is \`["email"]\` when there is an email, else \`[]\`; each channel needs its address (\`email\`, \`chatWebhookUrl\`). \`chatWebhookUrl\` is a Slack incoming webhook (\`…/services/…\`) or a Microsoft Teams workflow URL (\`…/workflows/…\`), under the webhook address policy (a host resolving to a non-public address is a 422 unless WEBHOOK_ALLOW_PRIVATE_URLS). An email another host of the account has is 409 EMAIL_TAKEN. ${sites}`,
    examples: {
      request: {
        name: 'Grace Hopper',
        email: 'grace@example.com',
        phone: '+44 20 7946 0000',
        siteIds: [1],
        notifyBy: ['email', 'chat'],
        chatWebhookUrl: 'https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXX',
      },
      response: hostExample,
    },
    tag,
    auth: 'token',
    scope,
    body: CreateHostRequest,
    responses: { 201: Host },
    conflict: { codes: ['EMAIL_TAKEN: another host of the account has this email'] },
    audit: auditReply('host.created', 'host', 'hostId'),
    precheck: async ({ body, deps }) => checkChatUrl(body.chatWebhookUrl, deps.env.WEBHOOK_ALLOW_PRIVATE_URLS),
    handler: async ({ db, principal, body, now }) => ({
      status: 201,
      body: await createHost(db, { principal, request: body, now }),
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/hosts',
    summary: 'List hosts (oldest first), by a prefix of name or email, or of one site',
    description: `The hosts the caller may see, oldest first. \`q\`: a case-insensitive prefix of the name or the email; \`siteId\`: only that site's hosts (hosts of every site included). ${sites}`,
    examples: { query: { q: 'gra' }, response: { data: [hostExample], nextCursor: null } },
    tag,
    auth: 'token',
    scope,
    query: HostListQuery,
    responses: { 200: page(Host) },
    handler: async ({ db, principal, query }) => {
      const listScope = cursorScope('hosts', { accountId: principal.accountId, q: query.q, siteId: query.siteId });
      const rows = await listHosts(db, principal, {
        afterId: afterId(query.cursor, listScope),
        limit: query.limit,
        q: query.q,
        siteId: query.siteId,
      });
      return { status: 200, body: idPage(rows, query.limit, presentHost, listScope) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/hosts/:hostId',
    summary: 'Read a host',
    description: `One host. ${sites}`,
    examples: { response: hostExample },
    tag,
    auth: 'token',
    scope,
    params: HostIdParams,
    responses: { 200: Host },
    handler: async ({ db, principal, params }) => {
      const row = await findVisibleHost(db, principal, params.hostId);
      if (!row) throw notFound(`Host ${params.hostId} does not exist.`);
      return { status: 200, body: presentHost(row) };
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/hosts/:hostId',
    summary: 'Change a host',
    description: `Changes the fields sent; \`null\` clears \`email\`, \`phone\` or \`chatWebhookUrl\`. The host must still have the address of each channel it is told on (else 422). Visits already recorded keep the host's name as it was. ${sites}`,
    examples: { request: { notifyBy: ['email'], chatWebhookUrl: null }, response: hostExample },
    tag,
    auth: 'token',
    scope,
    params: HostIdParams,
    body: UpdateHostRequest,
    responses: { 200: Host },
    conflict: { codes: ['EMAIL_TAKEN: another host of the account has this email'] },
    audit: auditParam('host.updated', 'host', 'hostId'),
    precheck: async ({ body, deps }) => checkChatUrl(body.chatWebhookUrl, deps.env.WEBHOOK_ALLOW_PRIVATE_URLS),
    handler: async ({ db, principal, params, body }) => ({
      status: 200,
      body: await updateHost(db, { principal, hostId: params.hostId, request: body }),
    }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/hosts/:hostId',
    summary: 'Delete a host',
    description: `Deletes the host: kiosks stop offering them, messages not yet sent to them are not sent. Past visits keep the host's \`hostId\` and \`hostName\` as they were. ${sites}`,
    examples: { response: null },
    tag,
    auth: 'token',
    scope,
    params: HostIdParams,
    responses: { 204: null },
    audit: auditParam('host.deleted', 'host', 'hostId'),
    handler: async ({ db, principal, params }) => {
      await deleteHost(db, { principal, hostId: params.hostId });
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/hosts/import',
    summary: 'Import hosts from CSV (name,email,phone,sites), creating or updating by email',
    description:
      "A `text/csv` body (RFC 4180, UTF-8, at most 64 KiB) whose first line is `name,email,phone,sites`. Each line creates a host, or updates the account's host with that email (case-insensitive): name, phone and sites; how the host is told stays. `sites`: site names or ids separated by `;`, or `*` for every site. Each line is imported whole or not at all; the answer counts the lines created and updated, and lists each line that was not, with why. Importing the same file again creates nothing. A body that is not CSV, or another header, is a 422.",
    examples: { request: hostCsvExample, response: { created: 1, updated: 1, errors: [] } },
    tag,
    auth: 'token',
    scope,
    requestMediaType: 'text/csv',
    body: HostImportCsv,
    responses: { 200: HostImportResult },
    handler: async ({ db, principal, body, now, requestId }) => ({
      status: 200,
      body: await importHosts(db, { principal, csv: body, now, requestId }),
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/sites/:siteId/kiosk/hosts',
    summary: "The site's hosts as a kiosk offers them: id and name only (revalidate with If-None-Match)",
    description:
      "The hosts of the site (its own and those of every site), by name: `hostId` and `name`, nothing else (no email, phone or other data on the device). Answered with `ETag` and `Cache-Control: private, no-cache`; `If-None-Match` gives a 304 while it is unchanged. Kiosks pull it like the site's configuration.",
    examples: { response: { data: [{ hostId: 7, name: 'Grace Hopper' }] } },
    headers: ['ETag', 'Cache-Control'],
    tag,
    auth: 'token',
    // A visitor kiosk reads it to offer hosts (docs/notifications.md); staff and integrators read it too.
    scope: ['checkins:read', 'kiosk:visitor'],
    params: SiteParams,
    responses: { 200: KioskHostList, 304: null },
    handler: async (ctx) => {
      const list = await readKioskHosts(ctx.db, { accountId: ctx.principal.accountId, siteId: siteOf(ctx).siteId });
      const etag = kioskHostsEtag(list);
      const headers = { ETag: etag, 'Cache-Control': 'private, no-cache' };
      if (ifNoneMatch(ctx.koa.get('If-None-Match'), etag)) return { status: 304, headers };
      return { status: 200, body: list, headers };
    },
  }),
];
