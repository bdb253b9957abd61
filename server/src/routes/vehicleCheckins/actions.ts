import type { z } from 'zod';
import type { Scope } from '../../../../shared/src/schemas/admin';
import { CheckoutRequest, DenyRequest, TimedActionRequest } from '../../../../shared/src/schemas/personCheckins';
import { VehicleCheckin } from '../../../../shared/src/schemas/vehicles';
import { type VehicleAction, transitionVehicleCheckin } from '../../commands/vehicleCheckinTransitioner';
import { type Method, type Route, defineRoute, siteOf } from '../define';
import { CheckinParams } from '../params';

const tag = 'Vehicle check-ins';
const item = '/sites/:siteId/checkins/vehicles/:checkinId';
const at = (occurredAt: string | undefined) => (occurredAt ? new Date(occurredAt) : undefined);

/** One state-change endpoint of a visit; vehicles take no breaks, so there are no break routes (404). */
function actionRoute<B extends z.ZodType>(spec: {
  method: Method;
  path: string;
  summary: string;
  scope: Scope;
  body: B;
  toAction: (body: z.infer<B>) => VehicleAction;
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
    responses: { 200: VehicleCheckin },
    handler: async (ctx) => ({
      status: 200,
      body: await transitionVehicleCheckin(ctx.db, {
        key: { accountId: ctx.principal.accountId, siteId: siteOf(ctx).siteId, checkinId: ctx.params.checkinId },
        action: spec.toAction(ctx.body as z.infer<B>),
        exitSource: ctx.principal.channel,
        now: ctx.now,
      }),
    }),
  });
}

const checkout = (body: z.infer<typeof CheckoutRequest>): VehicleAction => ({
  event: { type: 'CHECKOUT', occurredAt: at(body.occurredAt) },
  exitSource: body.exit?.source,
});
const checkoutSummary = 'Check a vehicle out (→ OUT)';

export const vehicleActionRoutes: Route[] = [
  actionRoute({ method: 'PATCH', path: item, summary: checkoutSummary, scope: 'vehicles:write', body: CheckoutRequest, toAction: checkout }),
  actionRoute({ method: 'POST', path: `${item}/checkout`, summary: `${checkoutSummary}; alias of PATCH on the check-in`, scope: 'vehicles:write', body: CheckoutRequest, toAction: checkout }),
  actionRoute({ method: 'PATCH', path: `${item}/checkout`, summary: `${checkoutSummary}; alias of PATCH on the check-in`, scope: 'vehicles:write', body: CheckoutRequest, toAction: checkout }),
  actionRoute({
    method: 'POST', path: `${item}/approve`, summary: 'Admit an unregistered plate (PENDING → IN)', scope: 'checkins:approve', body: TimedActionRequest,
    toAction: (body) => ({ event: { type: 'APPROVE', occurredAt: at(body.occurredAt) } }),
  }),
  actionRoute({
    method: 'POST', path: `${item}/deny`, summary: 'Refuse an unregistered plate (PENDING → STOP)', scope: 'checkins:approve', body: DenyRequest,
    toAction: (body) => ({ event: { type: 'DENY', occurredAt: at(body.occurredAt) }, denyReason: body.reason }),
  }),
];
