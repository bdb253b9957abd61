import { createHash } from 'node:crypto';
import { KioskPasses, PassKey, PassKeyList } from '../../../../shared/src/schemas/invitations';
import { publishedKeys, rotateSigningKey } from '../../passes/signingKeys';
import { revokedPassesOfSite } from '../../queries/invitations';
import { ifNoneMatch } from '../conditional';
import { defineRoute, siteOf } from '../define';
import { SiteParams } from '../params';
import { passJwkExample } from './examples';

const tag = 'Invitations';

const listed = (rows: Awaited<ReturnType<typeof publishedKeys>>) =>
  rows.map((row) => ({
    ...row.public_jwk,
    createdAt: row.created_at.toISOString(),
    retiredAt: row.retired_at ? row.retired_at.toISOString() : null,
  }));

/** The account's keys that verify passes, and the kiosk's copy of them with its site's revoked passes. */
export const passKeyRoutes = [
  defineRoute({
    method: 'GET',
    path: '/pass-keys',
    summary: "The account's public keys that verify passes (a JWK Set)",
    description:
      "The Ed25519 public keys (RFC 8037 JWKs, `alg` EdDSA) that may have signed a pass still valid: the current one, and each retired one while a pass it signed is valid. A JWK Set: pass it to any JOSE library (`createLocalJWKSet` of `jose`) to verify a pass's signature; the pass's header names its key (`kid`). Private keys never leave the server.",
    examples: {
      response: { keys: [{ ...passJwkExample, createdAt: '2026-01-05T10:00:00.000Z', retiredAt: null }] },
    },
    tag,
    auth: 'token',
    scope: 'invitations:read',
    responses: { 200: PassKeyList },
    handler: async ({ db, principal, now }) => ({
      status: 200,
      body: { keys: listed(await publishedKeys(db, { accountId: principal.accountId, now })) },
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/pass-keys/rotate',
    summary: "Rotate the account's pass signing key; passes already sent stay valid",
    description:
      "Makes a new signing key for the account's new passes and retires the current one: its private half is destroyed at once, its public half stays published (here and to kiosks) while any pass it signed is valid, so passes already sent keep working. Answers the new key. For the account's owners (`tokens:manage`): its keys are the account's credentials, like its API tokens. Audited (`pass_key.rotated`).",
    examples: { response: { ...passJwkExample, createdAt: '2026-11-24T09:00:00.000Z', retiredAt: null } },
    tag,
    auth: 'token',
    scope: 'tokens:manage',
    responses: { 201: PassKey },
    audit: (ctx) => ({
      action: 'pass_key.rotated',
      target: { type: 'account', id: ctx.principal.accountId },
      siteId: null,
    }),
    handler: async ({ db, principal, now, deps }) => {
      await rotateSigningKey(db, { accountId: principal.accountId, now, secret: deps.env.PASS_KEY_SECRET });
      const current = listed(await publishedKeys(db, { accountId: principal.accountId, now })).find(
        (key) => key.retiredAt === null,
      );
      if (!current) throw new Error('no current key after a rotation');
      return { status: 201, body: current };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/sites/:siteId/kiosk/passes',
    summary: "What a kiosk verifies passes with, offline: the account's public keys and the site's revoked passes",
    description:
      "The account's published public keys (a JWK Set, as `GET /v1/pass-keys`) and the `jti` of the site's passes revoked (an invitation cancelled, or a pass replaced by a change) that would still be valid. With `ETag` and `Cache-Control: private, no-cache`; `If-None-Match` gives a 304 while it is unchanged. Kiosks pull it with every pull, like the watchlist digest.",
    examples: {
      response: { accountId: 1, siteId: 1, keys: { keys: [passJwkExample] }, revoked: ['R6qN8yvxoQjDl41wiggaWw'] },
    },
    headers: ['ETag', 'Cache-Control'],
    tag,
    auth: 'token',
    // A visitor kiosk reads it to check passes, as it reads its host list; an integrator's reader may too.
    scope: ['checkins:read', 'kiosk:visitor'],
    params: SiteParams,
    responses: { 200: KioskPasses, 304: null },
    handler: async (ctx) => {
      const { accountId } = ctx.principal;
      const { siteId } = siteOf(ctx);
      const [keys, revoked] = await Promise.all([
        publishedKeys(ctx.db, { accountId, now: ctx.now }),
        revokedPassesOfSite(ctx.db, { accountId, siteId, now: ctx.now }),
      ]);
      const body = { accountId, siteId, keys: { keys: keys.map((row) => row.public_jwk) }, revoked };
      const etag = `"passes-${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 32)}"`;
      const headers = { ETag: etag, 'Cache-Control': 'private, no-cache' };
      if (ifNoneMatch(ctx.koa.get('If-None-Match'), etag)) return { status: 304, headers };
      return { status: 200, body, headers };
    },
  }),
];
