import { CreatedToken } from '../../../../shared/src/schemas/admin';
import { CreateApiTokenRequest, TokenListQuery, TokenPage } from '../../../../shared/src/schemas/tokens';
import { auditParam, auditReply } from '../../audit/targets';
import { createApiToken, revokeAccountToken } from '../../commands/apiTokens';
import { listTokens } from '../../queries/tokenList';
import { requireEverySite } from '../../policies/everySite';
import { defineRoute } from '../define';
import { pageOf, tokenExample } from '../examples';
import { TokenParams } from '../params';

const tag = 'API tokens';
const apiTokenExample = {
  ...tokenExample,
  tokenId: 3,
  name: 'Badge printer',
  scopes: ['checkins:read'],
  channel: 'API',
};

/** API tokens made and revoked by the account's owners (docs/api.md, API tokens). */
export const tokenRoutes = [
  defineRoute({
    method: 'GET',
    path: '/tokens',
    summary: "The account's tokens that are not revoked, newest first",
    description:
      'Every live token of the account (API and KIOSK channels, or one with `channel`), newest first, never with its secret. Account-wide work: a caller without every site gets 403.',
    examples: { response: pageOf(apiTokenExample), query: { channel: 'API' } },
    tag,
    auth: 'token',
    scope: 'tokens:manage',
    query: TokenListQuery,
    responses: { 200: TokenPage },
    handler: async ({ db, principal, query }) => {
      requireEverySite(principal, "Listing the account's tokens");
      return {
        status: 200,
        body: await listTokens(db, {
          accountId: principal.accountId,
          channel: query.channel,
          limit: query.limit,
          cursor: query.cursor,
        }),
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/tokens',
    summary: "Create an API token with the caller's scopes and sites at most (the plaintext is shown only here)",
    description:
      'Issues an `API`-channel token for `siteIds` or `allSites: true`. Least privilege: each scope must be one the caller has, each site one it can view, and `allSites` needs a caller with every site; otherwise 422 naming `scopes`, `siteIds` or `allSites`. Without `scopes` it gets the API defaults the caller has. The plaintext `token` is shown only in this response, and never written to the audit log or the server log. Kiosk tokens come from `POST /v1/kiosks`. Account-wide work: a caller without every site gets 403.',
    examples: {
      request: { name: 'Badge printer', siteIds: [1], scopes: ['checkins:read'] },
      response: { ...apiTokenExample, token: 'ck_5Wn2xR9aLq0ZbT4yKc8VfH1mJd6Ps3Ge0p2AbC' },
    },
    tag,
    auth: 'token',
    scope: 'tokens:manage',
    body: CreateApiTokenRequest,
    responses: { 201: CreatedToken },
    audit: auditReply('token.create', 'token', 'tokenId'),
    handler: async (ctx) => {
      requireEverySite(ctx.principal, 'Creating an API token');
      return {
        status: 201,
        body: await createApiToken(ctx.db, { principal: ctx.principal, request: ctx.body, now: ctx.now }),
      };
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/tokens/:tokenId',
    summary: "Revoke a token at once (a kiosk's token revokes its kiosk too)",
    description:
      "Revokes a live token of the account: its very next request is a 401. A KIOSK token's kiosk is revoked with it. An unknown, already revoked or other account's token is a 404. A caller without every site gets 403.",
    examples: { response: null },
    tag,
    auth: 'token',
    scope: 'tokens:manage',
    params: TokenParams,
    responses: { 204: null },
    audit: auditParam('token.revoke', 'token', 'tokenId'),
    handler: async (ctx) => {
      requireEverySite(ctx.principal, 'Revoking a token');
      await revokeAccountToken(ctx.db, {
        accountId: ctx.principal.accountId,
        tokenId: ctx.params.tokenId,
        now: ctx.now,
      });
      return { status: 204 };
    },
  }),
];
