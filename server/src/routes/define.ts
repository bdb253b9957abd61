import type { Context } from 'koa';
import type { z } from 'zod';
import type { ScopeNeed } from '../../../shared/src/schemas/admin';
import type { Principal, SiteAccess } from '../auth/principal';
import type { VisitCaller } from '../auth/visitAuth';
import type { ResolvedDeps } from '../context';
import type { Executor } from '../db/query';
import type { AuditRecord } from '../audit/record';
import type { Reply } from '../reply';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type RouteAuth = 'token' | 'session' | 'admin' | 'none' | 'visit';

export type { Reply } from '../reply';

/** What a handler receives: validated input, the caller, and where to run SQL (the command's transaction for writes). */
export interface HandlerContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  principal: Principal;
  /** Present on every path that has :siteId (the site was resolved with the token). */
  site: SiteAccess | undefined;
  db: Executor;
  now: Date;
  requestId: string;
  deps: ResolvedDeps;
  koa: Context;
  /**
   * 1, or more when a statement-mode command runs again because its statement found that what it planned
   * on no longer held (idempotency/runWrite.ts): a command may plan on a guess first and read the second time.
   */
  attempt: number;
  /** Visit routes only: the phone's key and the site's phone settings. */
  visit?: VisitCaller;
}

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

/**
 * What the API reference shows as an example: the request body (required when the route takes one, typed by
 * its schema) and the success response's body (`null` for a 204), checked against the schemas by the tests.
 */
export type RouteExamples<B> = (B extends z.ZodType ? { request: z.input<B> } : { request?: undefined }) & {
  response: unknown;
  /** Query parameters worth showing (`{ status: 'IN,ON_BREAK' }`). */
  query?: Record<string, string>;
  /** A 409's `current` where it is not the response (a pass route whose conflicts carry the invitation). */
  current?: unknown;
};

/** A 409 a route answers for the state of a resource (besides IDEMPOTENCY_KEY_IN_USE): its codes, and what `current` carries. */
export interface RouteConflict {
  codes: readonly string[];
  /** Each a named schema (openapi/components.ts); several when different conflicts carry different resources. */
  current?: z.ZodType | readonly z.ZodType[];
}

/** A refusal particular to a route: `CODE: when`, and the resource its `current` carries, if any. */
export type RouteRefusal = string | { description: string; current: z.ZodType };

/** Headers a route's success (and 304) responses carry besides those every response carries. */
export type SuccessHeader = 'ETag' | 'Cache-Control';

export interface RouteSpec<
  P extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  B extends z.ZodType | undefined,
> {
  method: Method;
  /** Koa-router path under /v1, e.g. `/sites/:siteId/checkins/people`. */
  path: string;
  summary: string;
  /** For the API reference: what it does, its states and errors, and any rule the schemas cannot say. */
  description: string;
  examples: RouteExamples<B>;
  tag: string;
  /**
   * `token`: a Bearer API token or a staff session; `session`: a staff session only; `admin`: the
   * ADMIN_TOKEN; `none`: anyone (sign-in, one-time links), the handler running on the pool; `visit`: a
   * visitor's phone, by the site's visit code in the path (`:code`) and, on one visit, its visit key.
   */
  auth: RouteAuth;
  /** The scope the caller needs, or any one of several (an integrator's, or a kiosk's for its job). */
  scope?: ScopeNeed;
  /** The audit record of a successful change (docs/api.md, Audit log), written with it; undefined: none. */
  audit?: (ctx: HandlerContext<Infer<P>, Infer<Q>, Infer<B>>, body: unknown) => AuditRecord | undefined;
  conflict?: RouteConflict;
  /** Refusals of this route beyond those every route of its kind answers, by status: `CODE: when`. */
  refusals?: Readonly<Record<number, RouteRefusal>>;
  headers?: readonly SuccessHeader[];
  params?: P;
  query?: Q;
  body?: B;
  /** The body may be left out entirely (all its fields are optional). */
  bodyOptional?: boolean;
  /** The body's media type when it is not JSON (`text/csv`: a host import); `body` then validates its text. */
  requestMediaType?: 'text/csv';
  /** A POST that changes nothing (search): no transaction, no Idempotency-Key (interface §4.1: reads are safe to retry). */
  readOnly?: boolean;
  /**
   * `transaction` (default): the handler runs in a transaction and writes as it goes. `statement`: the
   * handler only reads, then returns its whole change as one statement (`Reply.write`, given the key's
   * claim and the audit row by the runner: reply.ts, WriteParts): no BEGIN/COMMIT round trips on the hot
   * path. For creates, and for changes whose write applies only to the row version they read (the runner
   * decides again when it changed meanwhile).
   */
  atomicity?: 'transaction' | 'statement';
  /** Success responses by status; `null` for no body (204). Errors are problem+json. */
  responses: Record<number, z.ZodType | null>;
  /** The media type of the success body when it is not JSON (`text/csv`: a streamed export). */
  mediaType?: string;
  /**
   * Checks that are slow and need no transaction (a DNS lookup), run before the write's transaction starts
   * so they hold no database connection; not run for a replayed Idempotency-Key. `db` here is the pool.
   */
  precheck?: (ctx: HandlerContext<Infer<P>, Infer<Q>, Infer<B>>) => Promise<void>;
  handler: (ctx: HandlerContext<Infer<P>, Infer<Q>, Infer<B>>) => Promise<Reply>;
}

export type RouteAudit = (ctx: HandlerContext<unknown, unknown, unknown>, body: unknown) => AuditRecord | undefined;

/** A route with its types erased, as the router and the OpenAPI generator see it. */
export interface Route {
  method: Method;
  path: string;
  summary: string;
  description: string;
  examples: { request?: unknown; response: unknown; query?: Record<string, string>; current?: unknown };
  tag: string;
  auth: RouteAuth;
  scope?: ScopeNeed;
  audit?: RouteAudit;
  conflict?: RouteConflict;
  refusals?: Readonly<Record<number, RouteRefusal>>;
  headers: readonly SuccessHeader[];
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  bodyOptional: boolean;
  requestMediaType?: 'text/csv';
  responses: Record<number, z.ZodType | null>;
  mediaType?: string;
  /** Writes run in a transaction (or one statement) with Idempotency-Key handling. */
  write: boolean;
  atomicity: 'transaction' | 'statement';
  precheck?: (ctx: HandlerContext<unknown, unknown, unknown>) => Promise<void>;
  handler: (ctx: HandlerContext<unknown, unknown, unknown>) => Promise<Reply>;
}

/** Declares a route: its schemas are the validation and the documentation at once. */
export function defineRoute<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(spec: RouteSpec<P, Q, B>): Route {
  return {
    method: spec.method,
    path: spec.path,
    summary: spec.summary,
    description: spec.description,
    examples: spec.examples,
    tag: spec.tag,
    auth: spec.auth,
    scope: spec.scope,
    audit: spec.audit as RouteAudit | undefined,
    conflict: spec.conflict,
    refusals: spec.refusals,
    headers: spec.headers ?? [],
    params: spec.params,
    query: spec.query,
    body: spec.body,
    bodyOptional: spec.bodyOptional ?? false,
    requestMediaType: spec.requestMediaType,
    responses: spec.responses,
    mediaType: spec.mediaType,
    write: spec.method !== 'GET' && !spec.readOnly,
    atomicity: spec.atomicity ?? 'transaction',
    // The router validates params, query and body with these very schemas before calling.
    precheck: spec.precheck as Route['precheck'],
    handler: spec.handler as Route['handler'],
  };
}

/** The phone of a visit route (resolved by its code and key before the handler runs). */
export function visitOf(ctx: { visit?: VisitCaller }): VisitCaller {
  if (!ctx.visit) throw new Error('visitOf() on a route without visit auth');
  return ctx.visit;
}

/** The site of a site-scoped route (resolved with the token before the handler runs). */
export function siteOf(ctx: { site: SiteAccess | undefined }): SiteAccess {
  if (!ctx.site) throw new Error('siteOf() on a route without :siteId');
  return ctx.site;
}
