import type { z } from 'zod';
import { CheckoutRequest, DenyRequest, PersonCheckin, TimedActionRequest } from '../../../../shared/src/schemas/personCheckins';
import { type PersonAction, transitionPersonCheckin } from '../../commands/checkinTransitioner';
import { type CheckinActionSpec, checkinActionRoute, occurredAtOf as at } from '../checkinActionRoute';
import type { Route } from '../define';

const item = '/sites/:siteId/checkins/people/:checkinId';
const people = { tag: 'Person check-ins', response: PersonCheckin, target: 'person_checkin' as const, transition: transitionPersonCheckin };
const checkedOut = { action: 'checkin.checked_out', manualOnly: true, sourceOf: (body: z.infer<typeof CheckoutRequest>) => body.exit?.source };
const actionRoute = <B extends z.ZodType>(spec: CheckinActionSpec<B, PersonAction>) => checkinActionRoute(people, spec);

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
  actionRoute({ method: 'PATCH', path: item, summary: 'Check out (→ OUT), closing an open break', scope: 'checkins:write', body: CheckoutRequest, toAction: checkout, audit: checkedOut }),
  actionRoute({ method: 'POST', path: `${item}/checkout`, summary: 'Check out (alias of PATCH on the check-in)', scope: 'checkins:write', body: CheckoutRequest, toAction: checkout, audit: checkedOut }),
  actionRoute({ method: 'PATCH', path: `${item}/checkout`, summary: 'Check out (alias of PATCH on the check-in)', scope: 'checkins:write', body: CheckoutRequest, toAction: checkout, audit: checkedOut }),
  actionRoute({
    method: 'POST', path: `${item}/approve`, summary: 'Admit a pending check-in (PENDING → IN)', scope: 'checkins:approve', body: TimedActionRequest, audit: { action: 'checkin.approved' },
    toAction: (body) => ({ event: { type: 'APPROVE', occurredAt: at(body.occurredAt) } }),
  }),
  actionRoute({
    method: 'POST', path: `${item}/deny`, summary: 'Refuse a pending check-in (PENDING → STOP)', scope: 'checkins:approve', body: DenyRequest, audit: { action: 'checkin.denied' },
    toAction: (body) => ({ event: { type: 'DENY', occurredAt: at(body.occurredAt) }, denyReason: body.reason }),
  }),
];
