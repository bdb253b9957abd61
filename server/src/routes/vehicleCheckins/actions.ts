import { DenyRequest, TimedActionRequest } from '../../../../shared/src/schemas/personCheckins';
import { transitionVehicleCheckin } from '../../commands/vehicleCheckinTransitioner';
import { actionRouteOf, approveAction, checkoutAction, checkoutRoutes, denyAction } from '../checkinActionRoute';
import type { Route } from '../define';
import { vehicleVisits } from '../../queries/visitKinds';
import { vehicleCheckinExample } from '../examples';

const item = '/sites/:siteId/checkins/vehicles/:checkinId';
// Vehicles take no breaks, so there are no break routes (404).
const vehicles = { ...vehicleVisits, transition: transitionVehicleCheckin };
const actionRoute = actionRouteOf(vehicles);

const checkoutSummary = 'Check a vehicle out (→ OUT)';
const pendingOnly = ['NOT_PENDING: the visit is not PENDING'];

export const vehicleActionRoutes: Route[] = [
  ...checkoutRoutes(vehicles, {
    item,
    summary: checkoutSummary,
    aliasSummary: `${checkoutSummary}; alias of PATCH on the check-in`,
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
    scope: ['vehicles:write', 'kiosk:gate'],
    auditAction: 'vehicle_checkin.checked_out',
    toAction: checkoutAction,
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
    toAction: approveAction,
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
    toAction: denyAction,
  }),
];
