import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { authenticateAdmin } from '../auth/admin';
import { authenticate, bearerOf } from '../auth/authenticate';
import { type Principal, type SiteAccess, principalKey } from '../auth/principal';
import { checkSameOrigin } from '../auth/csrf';
import { sessionIdOf } from '../auth/sessions';
import { type VisitCaller, authenticateVisit, visitIdempotencyKey } from '../auth/visitAuth';
import { OPERATOR_ACTOR, auditedWrite, writeAudit } from '../audit/record';
import type { ResolvedDeps } from '../context';
import { type Executor, inTransaction } from '../db/query';
import { type ProblemError, notFound, problem, validationFailed } from '../errors/problem';
import { fieldErrors, queryProblem } from '../errors/zodErrors';
import { keysSince, parseIdempotencyKey, requestFingerprint } from '../idempotency/key';
import { runWrite } from '../idempotency/runWrite';
import type { StoredOutcome } from '../idempotency/store';
import { type SerializedReply, contentTypeFor, serializeReply } from '../idempotency/serialized';
import { readJsonBody, readTextBody } from '../middlewares/readJsonBody';
import { spendAddressBudget, withinAddressBudget } from '../rateLimit/addressGate';
import { clientKey } from '../rateLimit/addressLimiter';
import type { RateDecision } from '../rateLimit/limiter';
import type { HandlerContext, Reply, Route } from './define';
import { alertingKioskRefusals, isCheckinAction, noteCaller } from './kioskRefusals';
import { closeStream, sendStream } from './sendStream';

/** The management API and public routes act for no account; their handlers never read the principal. */
const OPERATOR: Principal = {
  actor: { type: 'token', id: 0, name: 'operator' },
  accountId: 0,
  scopes: new Set(),
  source: 'API',
  allSites: false,
  tokenId: null,
  userId: null,
};

function parseParams(schema: z.ZodType | undefined, raw: Record<string, string>): Record<string, unknown> {
  if (!schema) return {};
  // Path ids arrive as text; anything that is not a positive integer can name nothing: 404, not 400. Codes
  // (a visit code may be all digits) stay text.
  const numeric = Object.fromEntries(
    Object.entries(raw).map(([name, value]) => [
      name,
      name.endsWith('Id') && /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : value,
    ]),
  );
  const parsed = schema.safeParse(numeric);
  if (!parsed.success) throw notFound();
  return parsed.data as Record<string, unknown>;
}

/** The first query parameter holding a NUL character (`%00`), which PostgreSQL text cannot hold. */
const nulParameter = (raw: Record<string, unknown>) =>
  Object.entries(raw).find(([, value]) =>
    (Array.isArray(value) ? value : [value]).some((item) => typeof item === 'string' && item.includes('\u0000')),
  )?.[0];

/** The Idempotency-Key header as parseIdempotencyKey reads it, or its refusal (400), to throw after authentication. */
function readIdempotencyKey(header: string | undefined): { key: string | undefined; keyRefusal: Error | undefined } {
  try {
    return { key: parseIdempotencyKey(header), keyRefusal: undefined };
  } catch (error) {
    return { key: undefined, keyRefusal: error instanceof Error ? error : new Error(String(error)) };
  }
}

/** A route that declares no query takes none: an unknown parameter is a 400, as on the routes that do. */
const NO_QUERY = z.strictObject({});

function parseQuery(schema: z.ZodType | undefined, raw: Record<string, unknown>): unknown {
  const nul = nulParameter(raw);
  if (nul !== undefined)
    throw problem('INVALID_QUERY', `Query parameter ${nul}: must not contain NUL (%00) characters`);
  const parsed = (schema ?? NO_QUERY).safeParse(raw);
  if (parsed.success) return parsed.data;
  throw problem('INVALID_QUERY', queryProblem(parsed.error) ?? 'Invalid query.');
}

/** The body as sent (for the idempotency fingerprint) and as validated (for the handler). */
async function parseBody(route: Route, ctx: Context): Promise<{ sent: unknown; body: unknown }> {
  if (!route.body) return { sent: undefined, body: undefined };
  const raw = route.requestMediaType ? await readTextBody(ctx, route.requestMediaType) : await readJsonBody(ctx);
  const sent = raw === undefined && route.bodyOptional ? {} : raw;
  const parsed = route.body.safeParse(sent);
  if (!parsed.success) throw validationFailed(fieldErrors(parsed.error));
  return { sent, body: parsed.data };
}

function checkResponse(route: Route, reply: SerializedReply): void {
  const schema = route.responses[reply.status];
  if (!schema || reply.text === null || reply.replayed) return;
  const result = schema.safeParse(JSON.parse(reply.text));
  if (!result.success) {
    throw new Error(`Response of ${route.method} ${route.path} breaks its schema: ${result.error.message}`);
  }
}

function send(ctx: Context, reply: SerializedReply): void {
  for (const [name, value] of Object.entries(reply.headers)) ctx.set(name, value);
  if (reply.replayed) ctx.set('Idempotent-Replayed', 'true');
  ctx.status = reply.status;
  if (reply.text !== null) {
    ctx.type = contentTypeFor(reply.status);
    ctx.body = reply.text;
  }
}

async function handle(route: Route, ctx: Context, deps: ResolvedDeps): Promise<void> {
  ctx.state.route = `/v1${route.path}`;
  const now = deps.clock?.() ?? new Date();
  const pool: Executor = deps.database;
  const params = parseParams(route.params, ctx.params as Record<string, string>);
  const keyed = route.write && (route.auth === 'token' || route.auth === 'session' || route.auth === 'visit');
  // Read before authentication, refused after it: a request without a valid token is a 401, whatever its key.
  // The raw header: Koa's ctx.get answers '' both when it is absent and when it was sent empty.
  const header = ctx.req.headers['idempotency-key'];
  const { key, keyRefusal } = keyed
    ? readIdempotencyKey(Array.isArray(header) ? header.join(', ') : header)
    : { key: undefined, keyRefusal: undefined };
  const since = keysSince(now, deps.env.IDEMPOTENCY_TTL_HOURS);
  let principal = OPERATOR;
  let site: SiteAccess | undefined;
  let stored: StoredOutcome | undefined;
  let visit: VisitCaller | undefined;
  // Requests without a valid token, and the management API, share a budget per client address.
  const address = clientKey(ctx.ip);
  const siteId = typeof params.siteId === 'number' ? params.siteId : undefined;
  const authorization = ctx.get('Authorization');
  const caller = { authorization, sessionId: sessionIdOf(ctx), sessionOnly: route.auth === 'session' };
  // What vouches for the caller at the address budget: the bearer token, or else the session cookie.
  const credential =
    (caller.sessionOnly ? undefined : bearerOf(authorization)) ??
    (caller.sessionId === undefined ? undefined : `session ${caller.sessionId}`);
  // Whether the whole body was in by the time the token check answered (the usual case: it comes with the
  // headers, or a moment after them).
  let bodyInByCheck = true;
  if (route.auth === 'admin') {
    spendAddressBudget(deps.addressLimiter, address, now);
    authenticateAdmin(deps.env.ADMIN_TOKEN, authorization);
  } else if (route.auth === 'none') {
    // Sign-in and one-time links: anyone may call, so each request spends the address's budget.
    spendAddressBudget(deps.addressLimiter, address, now);
  } else if (route.auth === 'visit') {
    // A visitor's phone: anyone may call too; the code names the site, the phone's key its visit.
    spendAddressBudget(deps.addressLimiter, address, now);
    if (keyRefusal) throw keyRefusal;
    ({ principal, site, stored, visit } = await authenticateVisit(pool, {
      code: String(params.code),
      checkinId: typeof params.checkinId === 'number' ? params.checkinId : undefined,
      needsKey: route.write || params.checkinId !== undefined,
      authorization,
      idempotency: key === undefined ? undefined : { key, since },
    }));
  } else {
    let refusal: ProblemError | undefined;
    ({ principal, site, stored, refusal } = await withinAddressBudget(
      deps.addressLimiter,
      { address, bearer: credential, now },
      () =>
        authenticate(pool, {
          ...caller,
          scope: route.scope,
          siteId,
          now,
          idempotency: key === undefined ? undefined : { key, since },
        }),
    ));
    noteCaller(ctx, principal);
    // A known caller's request counts, refused or not.
    applyRateLimit(ctx, deps.limiter.consume(principalKey(principal), now));
    // A browser sends the cookie wherever the request comes from: a cookie write must come from our own pages.
    if (principal.session && route.write) checkSameOrigin(ctx, deps.env.PUBLIC_URL);
    bodyInByCheck = route.body === undefined || ctx.req.complete;
    if (refusal) throw refusal;
    if (keyRefusal) throw keyRefusal;
  }
  const query = parseQuery(route.query, ctx.query);
  const { sent, body } = await parseBody(route, ctx);
  if (!bodyInByCheck) {
    // The body arrived after the token and the site were checked, maybe minutes later: checked again, so a
    // token revoked or a site taken from it meanwhile is refused now, not written for (docs/api.md).
    const again = await authenticate(pool, {
      ...caller,
      scope: route.scope,
      siteId,
      now: deps.clock?.() ?? new Date(),
    });
    if (again.refusal) throw again.refusal;
    ({ principal, site } = again);
  }
  const requestId = String(ctx.state.requestId);
  const context = (db: Executor): HandlerContext<unknown, unknown, unknown> => ({
    params,
    query,
    body,
    principal,
    site,
    db,
    now,
    requestId,
    deps,
    koa: ctx,
    visit,
  });
  // Not for a replay, which answers what was stored whatever the check would say now. Its refusal is the
  // command's (thrown where the handler would throw it), so it is stored under the key like any other 422.
  const refused =
    route.precheck && stored === undefined ? await precheckRefusal(route.precheck, context(pool)) : undefined;
  const execute = async (db: Executor) => {
    if (refused) throw refused.error;
    const handlerContext = context(db);
    return withAudit(route, handlerContext, await route.handler(handlerContext));
  };
  let reply: SerializedReply;
  if (keyed) {
    reply = await runWrite({
      db: pool,
      accountId: principal.accountId,
      key: key !== undefined && visit ? visitIdempotencyKey(key) : key,
      stored,
      // Site routes: any token with the site may replay (a kiosk whose token was rotated mid-retry, say).
      // Account-level routes answer by the caller's sites (a subscription, with its secret): per token.
      // A phone's request is its own: another phone (another key) with the same Idempotency-Key gets a 422.
      fingerprint:
        key === undefined
          ? ''
          : requestFingerprint(
              ctx.method,
              ctx.path,
              sent,
              visit ? visit.keyHash?.toString('hex') : site === undefined ? principalKey(principal) : undefined,
            ),
      legacyFingerprint:
        key === undefined || site !== undefined ? undefined : requestFingerprint(ctx.method, ctx.path, sent),
      instance: ctx.path,
      requestId,
      now,
      since,
      atomicity: route.atomicity,
      execute,
    });
  } else if (route.auth === 'none') {
    // Public routes (sign-in, one-time links) run on the pool: their commands decide what commits when.
    reply = serializeReply(await route.handler(context(pool)));
  } else if (route.write) {
    if (refused) throw refused.error;
    reply = serializeReply(await inTransaction(pool, execute));
  } else {
    const handlerContext = context(pool);
    const handled = await route.handler(handlerContext);
    const answer = await withAudit(route, handlerContext, handled).catch(async (error: unknown) => {
      await closeStream(handled);
      throw error;
    });
    if (answer.stream) return sendStream(ctx, answer, answer.stream, deps.log);
    reply = serializeReply(answer);
  }
  if (deps.validateResponses) checkResponse(route, reply);
  send(ctx, reply);
}

/**
 * The route's audit entry with its change: in the same statement for a statement-mode write, else in the
 * transaction `ctx.db` belongs to. Only for a change that succeeded, by a token, a user, or the management
 * API's operator (whose record names the account the change belongs to).
 */
async function withAudit(route: Route, ctx: HandlerContext<unknown, unknown, unknown>, reply: Reply): Promise<Reply> {
  if (!route.audit || reply.status >= 300) return reply;
  const record = route.audit(ctx, reply.body);
  const operator = route.auth === 'admin';
  const accountId = operator ? record?.accountId : ctx.principal.accountId;
  if (!record || !accountId) return reply;
  const entry = {
    ...record,
    accountId,
    actor: operator ? OPERATOR_ACTOR : ctx.principal.actor,
    at: ctx.now,
    requestId: ctx.requestId,
  };
  if (reply.write) return { ...reply, write: auditedWrite(reply.write, entry) };
  await writeAudit(ctx.db, entry);
  return reply;
}

/** Runs a route's precheck; what it throws is kept to be thrown in the command's place. */
async function precheckRefusal(
  precheck: NonNullable<Route['precheck']>,
  context: HandlerContext<unknown, unknown, unknown>,
): Promise<{ error: unknown } | undefined> {
  try {
    await precheck(context);
    return undefined;
  } catch (error) {
    return { error };
  }
}

/** RateLimit headers on every authenticated response; past the limit, 429 with Retry-After (docs/api.md, Rate limits). */
function applyRateLimit(ctx: Context, decision: RateDecision): void {
  ctx.set('RateLimit-Policy', `"default";q=${decision.limit};w=60`);
  ctx.set('RateLimit', `"default";r=${decision.remaining};t=${decision.resetSeconds}`);
  if (!decision.allowed) {
    throw problem(
      'RATE_LIMITED',
      `This token may make ${decision.limit} requests a minute; retry in ${decision.resetSeconds} s.`,
      {
        headers: { 'Retry-After': String(decision.resetSeconds) },
      },
    );
  }
}

/** Mounts every declared route under /v1 with one pipeline: params → auth → query → body → idempotency → handler. */
export function mountRoutes(routes: Route[], deps: ResolvedDeps): Router {
  const router = new Router({ prefix: '/v1' });
  for (const route of routes) {
    // A check-in action a kiosk is refused raises an alert for reception (docs/api.md, Alerts).
    const alerting = isCheckinAction(route);
    router.register(route.path, [route.method], (ctx) =>
      alerting ? alertingKioskRefusals(route, ctx, deps, () => handle(route, ctx, deps)) : handle(route, ctx, deps),
    );
  }
  return router;
}
