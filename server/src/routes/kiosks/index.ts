import { z } from 'zod';
import { IntId } from '../../../../shared/src/schemas/common';
import {
  CreateKioskRequest,
  CreatedKiosk,
  KioskListQuery,
  KioskPage,
  PairingCode,
} from '../../../../shared/src/schemas/kiosks';
import { type AuditRecord, writeAudit } from '../../audit/record';
import { fieldOf, memberOf } from '../../audit/targets';
import { createKiosk, newPairingCode, revokeKiosk } from '../../commands/kiosks';
import { listKioskRows } from '../../queries/kioskList';
import { presentKiosk } from '../../presenters/kiosk';
import { viewableSites } from '../../policies/viewableSites';
import { beforeId, filterScope, idPage } from '../../queries/cursor';
import { type HandlerContext, defineRoute } from '../define';
import { pageOf } from '../examples';
import { kioskExample, pairingExample } from './examples';

const tag = 'Kiosks';
const KioskParams = z.object({ kioskId: IntId });

/** An audit entry whose site the handler learns only as it writes (written in the write's transaction). */
const auditInHandler = (ctx: HandlerContext<unknown, unknown, unknown>, record: AuditRecord) =>
  writeAudit(ctx.db, {
    ...record,
    accountId: ctx.principal.accountId,
    actor: ctx.principal.actor,
    at: ctx.now,
    requestId: ctx.requestId,
  });

/** The account's kiosks, each on one site: managed by owners and by managers on their sites (docs/api.md, Kiosks). */
export const kioskAdministrationRoutes = [
  defineRoute({
    method: 'GET',
    path: '/kiosks',
    summary: "The kiosks on the caller's sites, newest first, with what each last reported",
    description:
      'The kiosks that are not revoked on the sites the caller can view (or on `siteIds`), newest first, each with when it was paired and last seen and the pending and needs-attention counts and app version of its last heartbeat.',
    examples: { response: pageOf(kioskExample), query: { siteIds: '1' } },
    tag,
    auth: 'token',
    scope: 'kiosks:manage',
    query: KioskListQuery,
    responses: { 200: KioskPage },
    handler: async ({ db, principal, query }) => {
      const siteIds = await viewableSites(db, principal, query.siteIds);
      const scope = filterScope('kiosks', { ...query, accountId: principal.accountId, siteIds: siteIds ?? null });
      const rows = await listKioskRows(db, {
        accountId: principal.accountId,
        siteIds,
        beforeId: beforeId(query.cursor, scope),
        limit: query.limit,
      });
      return { status: 200, body: idPage(rows, query.limit, presentKiosk, scope) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/kiosks',
    summary: 'Add a kiosk: its KIOSK token and a one-time pairing code (15 minutes), shown once',
    description:
      'Adds a kiosk on a site the caller can view, with a `KIOSK` token (the kiosk default scopes, that site only) whose secret nobody sees: the device gets one when it pairs with the code (`POST /v1/kiosk/pair`). The code is 8 characters of `23456789ABCDEFGHJKLMNPQRSTUVWXYZ`, single use, valid 15 minutes, shown only here.',
    examples: {
      request: { siteId: 1, mode: 'visitor', name: 'Lobby kiosk' },
      response: { kiosk: kioskExample, ...pairingExample },
    },
    tag,
    auth: 'token',
    scope: 'kiosks:manage',
    body: CreateKioskRequest,
    responses: { 201: CreatedKiosk },
    audit: (_ctx, body) => {
      const kiosk = memberOf(body, 'kiosk');
      return {
        action: 'kiosk.create',
        target: { type: 'kiosk', id: fieldOf(kiosk, 'kioskId') },
        siteId: fieldOf(kiosk, 'siteId'),
      };
    },
    handler: async (ctx) => {
      const { kiosk, pairingCode, pairingExpiresAt } = await createKiosk(ctx.db, {
        principal: ctx.principal,
        request: ctx.body,
        now: ctx.now,
      });
      return {
        status: 201,
        body: { kiosk: presentKiosk(kiosk), pairingCode, pairingExpiresAt: pairingExpiresAt.toISOString() },
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/kiosks/:kioskId/pairing-code',
    summary: 'A fresh pairing code for a kiosk (its earlier unused codes stop working)',
    description:
      'Issues a new one-time pairing code (15 minutes) for the kiosk, to pair a new device or the same one again; any earlier unused code stops working. Pairing moves the kiosk to the device that pairs: the previous device gets 401.',
    examples: { response: pairingExample },
    tag,
    auth: 'token',
    scope: 'kiosks:manage',
    params: KioskParams,
    responses: { 201: PairingCode },
    handler: async (ctx) => {
      const issued = await newPairingCode(ctx.db, {
        principal: ctx.principal,
        kioskId: ctx.params.kioskId,
        now: ctx.now,
      });
      await auditInHandler(ctx, {
        action: 'kiosk.pairing_code',
        target: { type: 'kiosk', id: ctx.params.kioskId },
        siteId: issued.siteId,
      });
      return {
        status: 201,
        body: { pairingCode: issued.pairingCode, pairingExpiresAt: issued.pairingExpiresAt.toISOString() },
      };
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/kiosks/:kioskId',
    summary: 'Revoke a kiosk and its token at once',
    description:
      "Revokes the kiosk and its token: the device's very next request is a 401 (the kiosk keeps its unsynced actions and says it was revoked).",
    examples: { response: null },
    tag,
    auth: 'token',
    scope: 'kiosks:manage',
    params: KioskParams,
    responses: { 204: null },
    handler: async (ctx) => {
      const kiosk = await revokeKiosk(ctx.db, { principal: ctx.principal, kioskId: ctx.params.kioskId, now: ctx.now });
      await auditInHandler(ctx, {
        action: 'kiosk.revoke',
        target: { type: 'kiosk', id: kiosk.id },
        siteId: kiosk.site_id,
      });
      return { status: 204 };
    },
  }),
];
