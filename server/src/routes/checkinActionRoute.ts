import type { z } from 'zod';
import { type ScopeNeed, grantsScope } from '../../../shared/src/schemas/admin';
import type { Source } from '../../../shared/src/schemas/common';
import { CheckoutRequest, type DenyRequest, type TimedActionRequest } from '../../../shared/src/schemas/personCheckins';
import type { Executor } from '../db/query';
import type { Decider } from '../../../shared/src/domain';
import { deciderOf } from '../auth/decider';
import { auditCheckin, isManual } from '../audit/targets';
import { missingScope } from '../auth/authentication';
import type { WriteStatement } from '../reply';
import type { VisitKind } from '../queries/visitKinds';
import { kioskWindowOf } from '../policies/kioskWindow';
import { type Method, type Route, type RouteExamples, defineRoute, siteOf } from './define';
import { CheckinParams } from './params';

/** What a check-in transition command takes (people and vehicles alike). */
export interface TransitionInput<Action> {
  key: { accountId: number; siteId: number; checkinId: number };
  action: Action;
  exitSource: Source;
  decider: Decider;
  now: Date;
  /** Set for a kiosk: the visits it may act on (policies/kioskWindow.ts). */
  kioskSince?: Date;
}

/** `occurredAt` as sent, as a Date for the state machine. */
export const occurredAtOf = (occurredAt: string | undefined) => (occurredAt ? new Date(occurredAt) : undefined);

/** The actions people and vehicles share, as their bodies say them. */
export const checkoutAction = (body: CheckoutRequest) => ({
  event: { type: 'CHECKOUT' as const, occurredAt: occurredAtOf(body.occurredAt) },
  exitSource: body.exit?.source,
});
export const approveAction = (body: TimedActionRequest) => ({
  event: { type: 'APPROVE' as const, occurredAt: occurredAtOf(body.occurredAt) },
});
export const denyAction = (body: DenyRequest) => ({
  event: { type: 'DENY' as const, occurredAt: occurredAtOf(body.occurredAt) },
  denyReason: body.reason,
});

/** One action endpoint: its method and path, and how its body becomes an action. */
export interface CheckinActionSpec<B extends z.ZodType, Action> {
  method: Method;
  path: string;
  summary: string;
  description: string;
  examples: RouteExamples<B>;
  /** The state conflicts (409) this action answers, with the check-in as `current`. */
  conflicts: readonly string[];
  scope: ScopeNeed;
  /**
   * The audit action of this endpoint (approve, deny: always; checkout: when manual), or none (breaks).
   * `manualOnly`: audited only when made by a staff user or with exit source MANUAL (`sourceOf` the body).
   */
  audit?: { action: string; manualOnly?: boolean; sourceOf?: (body: z.infer<B>) => string | undefined };
  /** A second scope the action also needs (vehicle approve and deny: vehicles:write too). */
  alsoScope?: ScopeNeed;
  body: B;
  toAction: (body: z.infer<B>) => Action;
}

/** A kind of visit (people, vehicles) with the command that changes one: what its action endpoints share. */
export interface CheckinKind<Action> extends Pick<VisitKind<unknown, unknown>, 'tag' | 'response' | 'target'> {
  /** Reads and decides; returns the check-in as it will be and the one write that makes it so. */
  transition: (db: Executor, input: TransitionInput<Action>) => Promise<{ checkin: unknown; write: WriteStatement }>;
}

/**
 * One state-change endpoint of a check-in (the interface names several paths and verbs for some): the
 * body becomes an action, the kind's command decides it on the check-in of the path, and its write runs as
 * one statement with the Idempotency-Key record, applying only to the version of the row that was read.
 */
export function checkinActionRoute<B extends z.ZodType, Action>(
  kind: CheckinKind<Action>,
  spec: CheckinActionSpec<B, Action>,
): Route {
  return defineRoute({
    method: spec.method,
    path: spec.path,
    summary: spec.summary,
    description: spec.description,
    examples: spec.examples,
    conflict: { codes: spec.conflicts, current: kind.response },
    tag: kind.tag,
    auth: 'token',
    scope: spec.scope,
    params: CheckinParams,
    body: spec.body,
    bodyOptional: true,
    atomicity: 'statement',
    responses: { 200: kind.response },
    audit: (ctx, body) => {
      const { audit } = spec;
      if (!audit) return undefined;
      if (audit.manualOnly && !isManual(ctx.principal, audit.sourceOf?.(ctx.body as z.infer<B>))) return undefined;
      return auditCheckin(audit.action, kind.target)(ctx, body);
    },
    handler: async (ctx) => {
      if (spec.alsoScope && !grantsScope(ctx.principal.scopes, spec.alsoScope))
        throw missingScope(spec.alsoScope, ctx.principal.actor.type);
      const { checkin, write } = await kind.transition(ctx.db, {
        key: { accountId: ctx.principal.accountId, siteId: siteOf(ctx).siteId, checkinId: ctx.params.checkinId },
        action: spec.toAction(ctx.body as z.infer<B>),
        exitSource: ctx.principal.source,
        decider: deciderOf(ctx.principal),
        now: ctx.now,
        kioskSince: kioskWindowOf(ctx.principal, ctx.now),
      });
      return { status: 200, body: checkin, write };
    },
  });
}

/** `checkinActionRoute` with the kind given once: how a kind's file declares its action routes. */
export const actionRouteOf =
  <Action>(kind: CheckinKind<Action>) =>
  <B extends z.ZodType>(spec: CheckinActionSpec<B, Action>) =>
    checkinActionRoute(kind, spec);

/** What a kind's checkout says: its texts, who may check out, and its audit action (written when manual). */
export interface CheckoutSpec<Action> extends Pick<
  CheckinActionSpec<typeof CheckoutRequest, Action>,
  'description' | 'examples' | 'conflicts' | 'scope'
> {
  /** The visit's path, `/sites/:siteId/checkins/<kind>/:checkinId`. */
  item: string;
  summary: string;
  /** The summary of the two /checkout aliases. */
  aliasSummary: string;
  auditAction: string;
  toAction: (body: CheckoutRequest) => Action;
}

/** Checkout by each path the interface names for it: PATCH on the visit, and POST or PATCH on its /checkout. */
export function checkoutRoutes<Action>(kind: CheckinKind<Action>, spec: CheckoutSpec<Action>): Route[] {
  const { item, summary, aliasSummary, auditAction, ...same } = spec;
  const audit = { action: auditAction, manualOnly: true, sourceOf: (body: CheckoutRequest) => body.exit?.source };
  const route = (method: Method, path: string, summary: string) =>
    checkinActionRoute(kind, { method, path, summary, ...same, body: CheckoutRequest, audit });
  return [
    route('PATCH', item, summary),
    route('POST', `${item}/checkout`, aliasSummary),
    route('PATCH', `${item}/checkout`, aliasSummary),
  ];
}
