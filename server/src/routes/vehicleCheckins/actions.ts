import type { z } from 'zod';
import { CheckoutRequest, DenyRequest, TimedActionRequest } from '../../../../shared/src/schemas/personCheckins';
import { VehicleCheckin } from '../../../../shared/src/schemas/vehicles';
import { type VehicleAction, transitionVehicleCheckin } from '../../commands/vehicleCheckinTransitioner';
import { type CheckinActionSpec, checkinActionRoute, occurredAtOf as at } from '../checkinActionRoute';
import type { Route } from '../define';
import { vehicleCheckinExample } from '../examples';

const item = '/sites/:siteId/checkins/vehicles/:checkinId';
// Vehicles take no breaks, so there are no break routes (404).
const vehicles = {
  tag: 'Vehicle check-ins',
  response: VehicleCheckin,
  target: 'vehicle_checkin' as const,
  transition: transitionVehicleCheckin,
};
const checkedOut = {
  action: 'vehicle_checkin.checked_out',
  manualOnly: true,
  sourceOf: (body: z.infer<typeof CheckoutRequest>) => body.exit?.source,
};
const actionRoute = <B extends z.ZodType>(spec: CheckinActionSpec<B, VehicleAction>) =>
  checkinActionRoute(vehicles, spec);

const checkout = (body: z.infer<typeof CheckoutRequest>): VehicleAction => ({
  event: { type: 'CHECKOUT', occurredAt: at(body.occurredAt) },
  exitSource: body.exit?.source,
});
const checkoutSummary = 'Check a vehicle out (→ OUT)';
const checkoutText = {
  description:
    "Records the vehicle leaving: IN, PENDING or STOP → OUT. `exit.source` defaults to the token's channel; `occurredAt` is when it really happened.",
  examples: {
    request: { occurredAt: '2026-11-21T11:30:00.000Z' },
    response: {
      ...vehicleCheckinExample,
      status: 'OUT',
      exit: { source: 'KIOSK', at: '2026-11-21T11:30:00.000Z' },
      updatedAt: '2026-11-21T11:30:00.000Z',
    },
  },
  conflicts: ['CHECKIN_CLOSED: the visit is OUT'],
};
const pendingOnly = ['NOT_PENDING: the visit is not PENDING'];

export const vehicleActionRoutes: Route[] = [
  actionRoute({
    method: 'PATCH',
    path: item,
    summary: checkoutSummary,
    ...checkoutText,
    scope: ['vehicles:write', 'kiosk:gate'],
    body: CheckoutRequest,
    toAction: checkout,
    audit: checkedOut,
  }),
  actionRoute({
    method: 'POST',
    path: `${item}/checkout`,
    summary: `${checkoutSummary}; alias of PATCH on the check-in`,
    ...checkoutText,
    scope: ['vehicles:write', 'kiosk:gate'],
    body: CheckoutRequest,
    toAction: checkout,
    audit: checkedOut,
  }),
  actionRoute({
    method: 'PATCH',
    path: `${item}/checkout`,
    summary: `${checkoutSummary}; alias of PATCH on the check-in`,
    ...checkoutText,
    scope: ['vehicles:write', 'kiosk:gate'],
    body: CheckoutRequest,
    toAction: checkout,
    audit: checkedOut,
  }),
  actionRoute({
    method: 'POST',
    path: `${item}/approve`,
    summary: 'Admit an unregistered plate (PENDING → IN); needs vehicles:write too',
    description: 'A guard admits a plate the account does not know: PENDING → IN.',
    examples: { request: {}, response: { ...vehicleCheckinExample, vehicleId: null } },
    conflicts: pendingOnly,
    scope: ['checkins:approve', 'kiosk:gate'],
    alsoScope: ['vehicles:write', 'kiosk:gate'],
    body: TimedActionRequest,
    audit: { action: 'vehicle_checkin.approved' },
    toAction: (body) => ({ event: { type: 'APPROVE', occurredAt: at(body.occurredAt) } }),
  }),
  actionRoute({
    method: 'POST',
    path: `${item}/deny`,
    summary: 'Refuse an unregistered plate (PENDING → STOP); needs vehicles:write too',
    description:
      'A guard refuses a plate the account does not know: PENDING → STOP; `stopReason` is the `reason`, or "Refused".',
    examples: {
      request: { reason: 'No delivery booked' },
      response: {
        ...vehicleCheckinExample,
        vehicleId: null,
        status: 'STOP',
        denyReason: 'No delivery booked',
        stopReason: 'No delivery booked',
      },
    },
    conflicts: pendingOnly,
    scope: ['checkins:approve', 'kiosk:gate'],
    alsoScope: ['vehicles:write', 'kiosk:gate'],
    body: DenyRequest,
    audit: { action: 'vehicle_checkin.denied' },
    toAction: (body) => ({ event: { type: 'DENY', occurredAt: at(body.occurredAt) }, denyReason: body.reason }),
  }),
];
