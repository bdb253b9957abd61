import { CheckoutRequest, DenyRequest, PersonCheckin, TimedActionRequest } from '../../../../shared/src/schemas/personCheckins';
import type { Scope } from '../../../../shared/src/schemas/admin';
import { type PersonAction, transitionPersonCheckin } from '../../commands/checkinTransitioner';
import { type HandlerContext, type Method, type Route, defineRoute, siteOf } from '../define';
import { CheckinParams } from '../params';
import type { z } from 'zod';

const tag = 'Person check-ins';
const item = '/sites/:siteId/checkins/people/:checkinId';
const at = (occurredAt: string | undefined) => (occurredAt ? new Date(occurredAt) : undefined);

type Params = z.infer<typeof CheckinParams>;

function run(ctx: HandlerContext<Params, unknown, unknown>, action: PersonAction) {
  return transitionPersonCheckin(ctx.db, {
    key: { accountId: ctx.principal.accountId, siteId: siteOf(ctx).siteId, checkinId: ctx.params.checkinId },
    action,
    exitSource: ctx.principal.channel,
    now: ctx.now,
  });
}

/** One state-change endpoint (the interface names several paths and verbs for some of them). */
function actionRoute<B extends z.ZodType>(spec: {
  method: Method;
  path: string;
  summary: string;
  scope: Scope;
  body: B;
  toAction: (body: z.infer<B>) => PersonAction;
}): Route {
  return defineRoute({
    method: spec.method,
    path: spec.path,
    summary: spec.summary,
    tag,
    auth: 'token',
    scope: spec.scope,
    params: CheckinParams,
    body: spec.body,
    bodyOptional: true,
    responses: { 200: PersonCheckin },
    handler: async (ctx) => ({ status: 200, body: await run(ctx, spec.toAction(ctx.body as z.infer<B>)) }),
  });
}

const breakStart = (body: z.infer<typeof TimedActionRequest>): PersonAction => ({ event: { type: 'BREAK_START', occurredAt: at(body.occurredAt) } });
const breakEnd = (body: z.infer<typeof TimedActionRequest>): PersonAction => ({ event: { type: 'BREAK_END', occurredAt: at(body.occurredAt) } });
const checkout = (body: z.infer<typeof CheckoutRequest>): PersonAction => ({
  event: { type: 'CHECKOUT', occurredAt: at(body.occurredAt) },
  exitSource: body.exit?.source,
});

export const personActionRoutes: Route[] = [
  actionRoute({ method: 'POST', path: `${item}/breaks/start`, summary: 'Start a break (IN → ON_BREAK)', scope: 'checkins:write', body: TimedActionRequest, toAction: breakStart }),
  actionRoute({ method: 'POST', path: `${item}/breaks/end`, summary: 'End the open break (ON_BREAK → IN)', scope: 'checkins:write', body: TimedActionRequest, toAction: breakEnd }),
  actionRoute({ method: 'PUT', path: `${item}/breaks/end`, summary: 'End the open break (ON_BREAK → IN); PUT form of the interface', scope: 'checkins:write', body: TimedActionRequest, toAction: breakEnd }),
  actionRoute({ method: 'PATCH', path: item, summary: 'Check out (→ OUT), closing an open break', scope: 'checkins:write', body: CheckoutRequest, toAction: checkout }),
  actionRoute({ method: 'POST', path: `${item}/checkout`, summary: 'Check out (alias of PATCH on the check-in)', scope: 'checkins:write', body: CheckoutRequest, toAction: checkout }),
  actionRoute({ method: 'PATCH', path: `${item}/checkout`, summary: 'Check out (alias of PATCH on the check-in)', scope: 'checkins:write', body: CheckoutRequest, toAction: checkout }),
  actionRoute({
    method: 'POST', path: `${item}/approve`, summary: 'Admit a pending check-in (PENDING → IN)', scope: 'checkins:approve', body: TimedActionRequest,
    toAction: (body) => ({ event: { type: 'APPROVE', occurredAt: at(body.occurredAt) } }),
  }),
  actionRoute({
    method: 'POST', path: `${item}/deny`, summary: 'Refuse a pending check-in (PENDING → STOP)', scope: 'checkins:approve', body: DenyRequest,
    toAction: (body) => ({ event: { type: 'DENY', occurredAt: at(body.occurredAt) }, denyReason: body.reason }),
  }),
];
