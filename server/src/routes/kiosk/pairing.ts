import { HeartbeatRequest, PairKioskRequest, PairedKiosk } from '../../../../shared/src/schemas/kiosks';
import { pairKiosk, recordHeartbeat } from '../../commands/kioskPairing';
import { clientKey } from '../../rateLimit/addressLimiter';
import { defineRoute } from '../define';

const tag = 'Kiosk';

/** A device becomes a kiosk with a pairing code, then says how it is doing (docs/api.md, Kiosks). */
export const kioskPairingRoutes = [
  defineRoute({
    method: 'POST',
    path: '/kiosk/pair',
    summary: 'Pair a device with a one-time pairing code: answers its kiosk token (no authentication)',
    description:
      "Exchanges a pairing code (case, spaces and `-` do not matter) for the kiosk's configuration and a new token secret, which replaces the kiosk's old one (a device paired before gets 401). The code works once. A wrong, used or expired code is 422 PAIRING_CODE_INVALID and counts against the client address: the 10th within 15 minutes, and every attempt after it until the window passes (even with a right code), is 429 with `Retry-After`.",
    examples: {
      request: { code: 'K7M2-QX9D' },
      response: {
        token: 'ck_5Wn2xR9aLq0ZbT4yKc8VfH1mJd6Ps3Ge0p2AbC',
        kioskId: 4,
        siteId: 1,
        mode: 'visitor',
        name: 'Lobby kiosk',
      },
    },
    tag,
    auth: 'none',
    body: PairKioskRequest,
    responses: { 200: PairedKiosk },
    refusals: {
      422: 'PAIRING_CODE_INVALID: the code is wrong, used or expired',
      429: 'RATE_LIMITED: 10 wrong pairing codes from this address within 15 minutes (retry after `Retry-After`)',
    },
    handler: async (ctx) => ({
      status: 200,
      body: await pairKiosk(ctx.db, {
        code: ctx.body.code,
        address: clientKey(ctx.koa.ip),
        now: ctx.now,
        requestId: ctx.requestId,
      }),
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/kiosk/heartbeat',
    summary: 'A kiosk reports its pending and needs-attention counts and app version (not audited)',
    description:
      "Records, for the kiosk whose token calls, the server time as `lastSeenAt` and the counts and version sent; the Kiosks page shows them. A kiosk's open event stream (`GET /events`) also marks it seen, so a kiosk sends this when its counts or version change (every minute while its stream is not open). Telemetry: not in the audit log. A token that is not a kiosk's (or a staff session) is a 404.",
    examples: { request: { pending: 0, attention: 1, appVersion: '1.4.0' }, response: null },
    tag,
    auth: 'token',
    body: HeartbeatRequest,
    responses: { 204: null },
    refusals: { 404: "NOT_FOUND: the caller is not a paired kiosk's token" },
    handler: async (ctx) => {
      await recordHeartbeat(ctx.db, { principal: ctx.principal, report: ctx.body, now: ctx.now });
      return { status: 204 };
    },
  }),
];
