import { z } from 'zod';
import { VisitCheckin, VisitCheckinParams } from '../../../../shared/src/schemas/visit';
import { changeVisitCheckin } from '../../commands/visitCheckins';
import type { PersonAction } from '../../commands/checkinTransitioner';
import { type Route, defineRoute, siteOf } from '../define';
import { visitCheckinExample } from './examples';

/** A phone's action says nothing but what it is: it happens when it arrives. */
const NoBody = z.strictObject({});

const onBreak = {
  ...visitCheckinExample,
  status: 'ON_BREAK' as const,
  breaks: [{ startedAt: '2026-11-21T10:00:00.000Z', endedAt: null }],
};
const checkedOut = {
  ...visitCheckinExample,
  status: 'OUT' as const,
  exit: { source: 'QR_CODE' as const, at: '2026-11-21T16:30:00.000Z' },
};

const closed = 'CHECKIN_CLOSED: the visit is OUT';
const stopped = 'CHECKIN_NOT_ADMITTED: the visit is STOP (the phone can do nothing: reception sees the visitor)';

function visitAction(spec: {
  verb: string;
  summary: string;
  description: string;
  response: unknown;
  conflicts: string[];
  action: PersonAction;
}): Route {
  return defineRoute({
    method: 'POST',
    path: `/visit/:code/checkins/:checkinId/${spec.verb}`,
    summary: spec.summary,
    description: `${spec.description} Needs the visit's key (\`Authorization: Visit <key>\`); another visit's key, or a visit of another site, is a 404. An \`Idempotency-Key\` makes a resend safe. A 409's \`current\` is the visit as the phone sees it.`,
    examples: { request: {}, response: spec.response },
    tag: 'Visitor phone',
    auth: 'visit',
    params: VisitCheckinParams,
    body: NoBody,
    bodyOptional: true,
    atomicity: 'statement',
    conflict: { codes: spec.conflicts, current: VisitCheckin },
    responses: { 200: VisitCheckin },
    handler: async (ctx) => {
      const { checkin, write } = await changeVisitCheckin(ctx.db, {
        principal: ctx.principal,
        site: siteOf(ctx),
        checkinId: ctx.params.checkinId,
        action: spec.action,
        now: ctx.now,
      });
      return { status: 200, body: checkin, write };
    },
  });
}

export const visitActionRoutes: Route[] = [
  visitAction({
    verb: 'breaks/start',
    summary: 'Take a break, from the phone (IN → ON_BREAK)',
    description: 'Starts a break of the visit: IN → ON_BREAK.',
    response: onBreak,
    conflicts: ['BREAK_ALREADY_OPEN: a break is open already', closed, stopped],
    action: { event: { type: 'BREAK_START' } },
  }),
  visitAction({
    verb: 'breaks/end',
    summary: 'End the break, from the phone (ON_BREAK → IN)',
    description: 'Ends the open break: ON_BREAK → IN.',
    response: { ...onBreak, status: 'IN', breaks: [{ ...onBreak.breaks[0], endedAt: '2026-11-21T10:15:00.000Z' }] },
    conflicts: ['NO_OPEN_BREAK: the visit is IN with no open break', closed, stopped],
    action: { event: { type: 'BREAK_END' } },
  }),
  visitAction({
    verb: 'checkout',
    summary: 'Check out, from the phone (→ OUT, exit.source QR_CODE)',
    description:
      'Checks the visitor out: IN, ON_BREAK or PENDING → OUT (an open break closes with it), `exit.source` `QR_CODE`.',
    response: checkedOut,
    conflicts: [closed, stopped],
    action: { event: { type: 'CHECKOUT' } },
  }),
];
