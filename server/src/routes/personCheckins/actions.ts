import type { z } from 'zod';
import {
  CheckoutRequest,
  DenyRequest,
  PersonCheckin,
  TimedActionRequest,
} from '../../../../shared/src/schemas/personCheckins';
import { type PersonAction, transitionPersonCheckin } from '../../commands/checkinTransitioner';
import { type CheckinActionSpec, checkinActionRoute, occurredAtOf as at } from '../checkinActionRoute';
import type { Route } from '../define';
import { personCheckedOutExample, personCheckinExample } from '../examples';

const item = '/sites/:siteId/checkins/people/:checkinId';
const people = {
  tag: 'Person check-ins',
  response: PersonCheckin,
  target: 'person_checkin' as const,
  transition: transitionPersonCheckin,
};
const checkedOut = {
  action: 'checkin.checked_out',
  manualOnly: true,
  sourceOf: (body: z.infer<typeof CheckoutRequest>) => body.exit?.source,
};
const actionRoute = <B extends z.ZodType>(spec: CheckinActionSpec<B, PersonAction>) => checkinActionRoute(people, spec);

const onBreak = {
  ...personCheckinExample,
  status: 'ON_BREAK',
  breaks: [{ breakId: 7, startedAt: '2026-11-21T10:00:00.000Z', endedAt: null }],
};
const backFromBreak = {
  ...onBreak,
  status: 'IN',
  breaks: [{ ...onBreak.breaks[0], endedAt: '2026-11-21T10:15:00.000Z' }],
};
const closed = 'CHECKIN_CLOSED: the check-in is OUT';
const notAdmitted = 'CHECKIN_NOT_ADMITTED: the check-in is PENDING or STOP';
const breakEndText = {
  description:
    "Ends the open break: ON_BREAK → IN. `occurredAt` is when it really happened (clamped up to the break's start).",
  examples: { request: { occurredAt: '2026-11-21T10:15:00.000Z' }, response: backFromBreak },
  conflicts: ['NO_OPEN_BREAK: the check-in is IN with no open break', closed, notAdmitted],
};
const checkoutText = {
  description:
    "Checks the person out: IN, ON_BREAK, PENDING or STOP → OUT, closing an open break in the same change. `exit.source` defaults to the token's channel; `occurredAt` is when it really happened.",
  examples: { request: { exit: { source: 'KIOSK' as const } }, response: personCheckedOutExample },
  conflicts: [closed],
};
const pendingOnly = ['NOT_PENDING: the check-in is not PENDING'];

const breakStart = (body: z.infer<typeof TimedActionRequest>): PersonAction => ({
  event: { type: 'BREAK_START', occurredAt: at(body.occurredAt) },
});
const breakEnd = (body: z.infer<typeof TimedActionRequest>): PersonAction => ({
  event: { type: 'BREAK_END', occurredAt: at(body.occurredAt) },
});
const checkout = (body: z.infer<typeof CheckoutRequest>): PersonAction => ({
  event: { type: 'CHECKOUT', occurredAt: at(body.occurredAt) },
  exitSource: body.exit?.source,
});

export const personActionRoutes: Route[] = [
  actionRoute({
    method: 'POST',
    path: `${item}/breaks/start`,
    summary: 'Start a break (IN → ON_BREAK)',
    description:
      'Starts a break: IN → ON_BREAK. At most one break is open at a time. `occurredAt` is when it really happened (clamped up to the previous event).',
    examples: { request: { occurredAt: '2026-11-21T10:00:00.000Z' }, response: onBreak },
    conflicts: ['BREAK_ALREADY_OPEN: a break is open already', closed, notAdmitted],
    scope: ['checkins:write', 'kiosk:visitor'],
    body: TimedActionRequest,
    toAction: breakStart,
  }),
  actionRoute({
    method: 'POST',
    path: `${item}/breaks/end`,
    summary: 'End the open break (ON_BREAK → IN)',
    ...breakEndText,
    scope: ['checkins:write', 'kiosk:visitor'],
    body: TimedActionRequest,
    toAction: breakEnd,
  }),
  actionRoute({
    method: 'PUT',
    path: `${item}/breaks/end`,
    summary: 'End the open break (ON_BREAK → IN); PUT form of the interface',
    ...breakEndText,
    scope: ['checkins:write', 'kiosk:visitor'],
    body: TimedActionRequest,
    toAction: breakEnd,
  }),
  actionRoute({
    method: 'PATCH',
    path: item,
    summary: 'Check out (→ OUT), closing an open break',
    ...checkoutText,
    scope: ['checkins:write', 'kiosk:visitor'],
    body: CheckoutRequest,
    toAction: checkout,
    audit: checkedOut,
  }),
  actionRoute({
    method: 'POST',
    path: `${item}/checkout`,
    summary: 'Check out (alias of PATCH on the check-in)',
    ...checkoutText,
    scope: ['checkins:write', 'kiosk:visitor'],
    body: CheckoutRequest,
    toAction: checkout,
    audit: checkedOut,
  }),
  actionRoute({
    method: 'PATCH',
    path: `${item}/checkout`,
    summary: 'Check out (alias of PATCH on the check-in)',
    ...checkoutText,
    scope: ['checkins:write', 'kiosk:visitor'],
    body: CheckoutRequest,
    toAction: checkout,
    audit: checkedOut,
  }),
  actionRoute({
    method: 'POST',
    path: `${item}/approve`,
    summary: 'Admit a pending check-in (PENDING → IN)',
    description: 'Admits a person waiting for approval: PENDING → IN.',
    examples: { request: {}, response: personCheckinExample },
    conflicts: pendingOnly,
    scope: 'checkins:approve',
    body: TimedActionRequest,
    audit: { action: 'checkin.approved' },
    toAction: (body) => ({ event: { type: 'APPROVE', occurredAt: at(body.occurredAt) } }),
  }),
  actionRoute({
    method: 'POST',
    path: `${item}/deny`,
    summary: 'Refuse a pending check-in (PENDING → STOP)',
    description:
      'Refuses a person waiting for approval: PENDING → STOP, keeping the optional `reason` as `denyReason`.',
    examples: {
      request: { reason: 'No appointment today' },
      response: { ...personCheckinExample, status: 'STOP', denyReason: 'No appointment today' },
    },
    conflicts: pendingOnly,
    scope: 'checkins:approve',
    body: DenyRequest,
    audit: { action: 'checkin.denied' },
    toAction: (body) => ({ event: { type: 'DENY', occurredAt: at(body.occurredAt) }, denyReason: body.reason }),
  }),
];
