import type { z } from 'zod';
import { DenyRequest, TimedActionRequest } from '../../../../shared/src/schemas/personCheckins';
import { type PersonAction, transitionPersonCheckin } from '../../commands/checkinTransitioner';
import {
  actionRouteOf,
  approveAction,
  checkoutAction,
  checkoutRoutes,
  denyAction,
  occurredAtOf as at,
} from '../checkinActionRoute';
import type { Route } from '../define';
import { personVisits } from '../../queries/visitKinds';
import { personCheckedOutExample, personCheckinExample } from '../examples';

const item = '/sites/:siteId/checkins/people/:checkinId';
const people = { ...personVisits, transition: transitionPersonCheckin };
const actionRoute = actionRouteOf(people);

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
const pendingOnly = ['NOT_PENDING: the check-in is not PENDING'];

const breakStart = (body: z.infer<typeof TimedActionRequest>): PersonAction => ({
  event: { type: 'BREAK_START', occurredAt: at(body.occurredAt) },
});
const breakEnd = (body: z.infer<typeof TimedActionRequest>): PersonAction => ({
  event: { type: 'BREAK_END', occurredAt: at(body.occurredAt) },
});
// The interface names the break's end twice, by POST and by PUT.
const breakEndRoute = (method: 'POST' | 'PUT', summary: string) =>
  actionRoute({
    method,
    path: `${item}/breaks/end`,
    summary,
    ...breakEndText,
    scope: ['checkins:write', 'kiosk:visitor'],
    body: TimedActionRequest,
    toAction: breakEnd,
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
  breakEndRoute('POST', 'End the open break (ON_BREAK → IN)'),
  breakEndRoute('PUT', 'End the open break (ON_BREAK → IN); PUT form of the interface'),
  ...checkoutRoutes(people, {
    item,
    summary: 'Check out (→ OUT), closing an open break',
    aliasSummary: 'Check out (alias of PATCH on the check-in)',
    description:
      "Checks the person out: IN, ON_BREAK, PENDING or STOP → OUT, closing an open break in the same change. `exit.source` defaults to the token's channel; `occurredAt` is when it really happened.",
    examples: { request: { exit: { source: 'KIOSK' as const } }, response: personCheckedOutExample },
    conflicts: [closed],
    scope: ['checkins:write', 'kiosk:visitor'],
    auditAction: 'checkin.checked_out',
    toAction: checkoutAction,
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
    toAction: approveAction,
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
    toAction: denyAction,
  }),
];
