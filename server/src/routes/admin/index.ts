import {
  Account,
  AdminSite,
  CreateAccountRequest,
  CreateSiteRequest,
  CreateTokenRequest,
  CreatedToken,
  Token,
  UpdateTokenRequest,
} from '../../../../shared/src/schemas/admin';
import { OPERATOR_ACTOR, writeAudit } from '../../audit/record';
import { auditParam, auditReply, fieldOf } from '../../audit/targets';
import { createAccount, createSite, createToken, revokeToken, updateToken } from '../../commands/provisioning';
import { validationFailed } from '../../errors/problem';
import { defineRoute } from '../define';
import { tokenExample } from '../examples';
import { AccountParams, TokenParams } from '../params';
import { adminListRoutes } from './lists';

const tag = 'Management (ADMIN_TOKEN)';

export const adminRoutes = [
  defineRoute({
    method: 'POST',
    path: '/admin/accounts',
    summary: 'Create an account',
    description: "Creates an account (a tenant): its sites, tokens and data are apart from every other account's.",
    examples: { request: { name: 'ACME Logistics' }, response: { accountId: 1, name: 'ACME Logistics' } },
    tag,
    auth: 'admin',
    body: CreateAccountRequest,
    responses: { 201: Account },
    audit: (_ctx, body) => ({
      ...auditReply('account.create', 'account', 'accountId')(_ctx, body),
      accountId: fieldOf(body, 'accountId'),
    }),
    handler: async ({ db, body }) => ({ status: 201, body: await createAccount(db, body.name) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/admin/accounts/:accountId/sites',
    summary: 'Create a site in an account (with the default check-in configuration)',
    description:
      'Creates a site in the account, with the default check-in configuration. `timezone` is an IANA time zone name (default UTC).',
    examples: {
      request: { name: 'Head office', timezone: 'Europe/Berlin' },
      response: { siteId: 1, accountId: 1, name: 'Head office', timezone: 'Europe/Berlin' },
    },
    tag,
    auth: 'admin',
    params: AccountParams,
    body: CreateSiteRequest,
    responses: { 201: AdminSite },
    audit: (ctx, body) => ({
      ...auditReply('site.create', 'site', 'siteId')(ctx, body),
      siteId: fieldOf(body, 'siteId'),
      accountId: ctx.params.accountId,
    }),
    handler: async ({ db, params, body }) => {
      const site = await createSite(db, { accountId: params.accountId, name: body.name, timezone: body.timezone });
      // The management API's site is as it always was (its visit code is the account's to read).
      return {
        status: 201,
        body: { siteId: site.siteId, accountId: site.accountId, name: site.name, timezone: site.timezone },
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/admin/accounts/:accountId/tokens',
    summary: 'Issue a token (the plaintext token is shown only in this response)',
    description:
      'Issues a token of the account for `siteIds` (sites of this account) or `allSites: true` (every site, now and future), not both. Without `scopes` an `API` token gets the API defaults (all but webhooks:manage, sites:configure, staff work and the kiosk scopes). A `KIOSK` token needs `mode` (`visitor` or `gate`) and exactly one site, and gets its mode’s one scope (`kiosk:visitor` or `kiosk:gate`); it takes no `scopes`, and an `API` token takes no `mode` and no kiosk scope (422). The plaintext `token` is shown only here.',
    examples: {
      request: { name: 'Lobby kiosk', siteIds: [1], channel: 'KIOSK', mode: 'visitor' },
      response: { ...tokenExample, token: 'ck_5Wn2xR9aLq0ZbT4yKc8VfH1mJd6Ps3Ge0p2AbC' },
    },
    tag,
    auth: 'admin',
    params: AccountParams,
    body: CreateTokenRequest,
    responses: { 201: CreatedToken },
    audit: (ctx, body) => ({
      ...auditReply('token.create', 'token', 'tokenId')(ctx, body),
      accountId: ctx.params.accountId,
    }),
    handler: async ({ db, params, body, now }) => {
      // A token already expired when issued could never be used: a mistake in the request, not a token.
      if (body.expiresAt !== undefined && new Date(body.expiresAt) <= now) {
        throw validationFailed([{ path: 'expiresAt', message: 'Must be in the future' }]);
      }
      return { status: 201, body: await createToken(db, { accountId: params.accountId, ...body }) };
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/admin/tokens/:tokenId',
    summary: "Change a token's sites or scopes (effective on its next request)",
    description:
      "Changes only the fields sent, effective on the token's next request. `allSites: true` and `siteIds` cannot come together; `siteIds` must be sites of the token's account. A `KIOSK` token keeps its mode’s one scope and exactly one site (else 422).",
    examples: {
      request: { scopes: ['checkins:read'] },
      response: { ...tokenExample, name: 'ERP', channel: 'API', scopes: ['checkins:read'] },
    },
    tag,
    auth: 'admin',
    params: TokenParams,
    body: UpdateTokenRequest,
    responses: { 200: Token },
    audit: (ctx, body) => ({
      ...auditParam('token.update', 'token', 'tokenId')(ctx),
      accountId: fieldOf(body, 'accountId'),
    }),
    handler: async ({ db, params, body }) => ({ status: 200, body: await updateToken(db, params.tokenId, body) }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/admin/tokens/:tokenId',
    summary: 'Revoke a token at once',
    description: 'Revokes the token: its very next request is a 401.',
    examples: { response: null },
    tag,
    auth: 'admin',
    params: TokenParams,
    responses: { 204: null },
    // The account is known only once the token is found: audited here, in the revoke's transaction.
    handler: async ({ db, params, now, requestId }) => {
      const { accountId } = await revokeToken(db, params.tokenId, now);
      await writeAudit(db, {
        accountId,
        actor: OPERATOR_ACTOR,
        at: now,
        requestId,
        action: 'token.revoke',
        target: { type: 'token', id: params.tokenId },
        siteId: null,
      });
      return { status: 204 };
    },
  }),
  ...adminListRoutes,
];
