import type { Context } from 'koa';
import { authenticateAdmin } from '../../auth/admin';
import { authenticate, bearerOf } from '../../auth/authenticate';
import type { AuthenticationInput } from '../../auth/authentication';
import { checkSameOrigin } from '../../auth/csrf';
import { type Principal, type SiteAccess, principalKey } from '../../auth/principal';
import { sessionIdOf } from '../../auth/sessions';
import { type VisitCaller, authenticateVisit } from '../../auth/visitAuth';
import type { ResolvedDeps } from '../../context';
import { problem } from '../../errors/problem';
import { type StoredOutcome, storedOutcomeLookup } from '../../idempotency/lookup';
import { spendAddressBudget, withinAddressBudget } from '../../rateLimit/addressGate';
import { clientKey } from '../../rateLimit/addressLimiter';
import type { RateDecision } from '../../rateLimit/limiter';
import { noteCaller } from '../kioskRefusals';
import type { Received } from './receive';

/** The management API and public routes act for no account; their handlers never read the principal. */
export const OPERATOR: Principal = {
  actor: { type: 'token', id: 0, name: 'operator' },
  accountId: 0,
  scopes: new Set(),
  source: 'API',
  allSites: false,
  tokenId: null,
  userId: null,
};

/** Who is calling, and what was read with them. */
export interface Caller {
  principal: Principal;
  /** The site of a path with :siteId, resolved with the caller. */
  site: SiteAccess | undefined;
  /** The Idempotency-Key's stored outcome, read in the caller's statement. */
  stored: StoredOutcome | undefined;
  /** How to ask again (token and session as sent), for a body that came after the check. */
  asked: Omit<AuthenticationInput, 'now'> | undefined;
  /** Whether the whole body was in when the caller was checked (the usual case: it comes with the headers). */
  bodyInByCheck: boolean;
  /** Visit routes only: the phone's key and the site's phone settings. */
  visit?: VisitCaller;
}

/** The rate limit's decision for this request's caller: counted once per request, whichever step asks first. */
export function countedOnce(request: Received, key: number, deps: ResolvedDeps): RateDecision {
  if (request.counted?.principalKey === key) return request.counted.decision;
  const decision = deps.limiter.consume(key, request.now);
  request.counted = { principalKey: key, decision };
  return decision;
}

/** RateLimit headers on every authenticated response (docs/api.md, Rate limits). */
export function setRateLimitHeaders(ctx: Context, decision: RateDecision): void {
  ctx.set('RateLimit-Policy', `"default";q=${decision.limit};w=60`);
  ctx.set('RateLimit', `"default";r=${decision.remaining};t=${decision.resetSeconds}`);
}

/** The RateLimit headers; past the limit, 429 with Retry-After. */
function applyRateLimit(ctx: Context, decision: RateDecision): void {
  setRateLimitHeaders(ctx, decision);
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

/**
 * Step 1, authenticate: the management API's ADMIN_TOKEN; anyone on public routes; else the token or the
 * session, with the path's site and the key's stored outcome in the same round trip. Requests without a
 * valid token, and the management API, share a budget per client address; a known caller's request counts
 * against its rate limit, refused or not. A refusal for a known caller (403, 404) is thrown after that.
 */
export async function authenticateCaller(request: Received, ctx: Context, deps: ResolvedDeps): Promise<Caller> {
  const { route, now } = request;
  const address = clientKey(ctx.ip);
  const authorization = ctx.get('Authorization');
  if (route.auth === 'admin' || route.auth === 'none') {
    // The management API, and sign-in and one-time links (anyone may call): each request spends the budget.
    spendAddressBudget(deps.addressLimiter, address, now);
    if (route.auth === 'admin') authenticateAdmin(deps.env.ADMIN_TOKEN, authorization);
    return { principal: OPERATOR, site: undefined, stored: undefined, asked: undefined, bodyInByCheck: true };
  }
  if (route.auth === 'visit') {
    // A visitor's phone: anyone may call too; the code names the site, the phone's key its visit.
    spendAddressBudget(deps.addressLimiter, address, now);
    if (request.keyRefusal) throw request.keyRefusal;
    const { params, key } = request;
    const { principal, site, stored, visit } = await authenticateVisit(deps.database, {
      code: String(params.code),
      checkinId: typeof params.checkinId === 'number' ? params.checkinId : undefined,
      needsKey: route.write || params.checkinId !== undefined,
      authorization,
      idempotency: key === undefined ? undefined : { key, since: request.since },
    });
    return { principal, site, stored, asked: undefined, bodyInByCheck: true, visit };
  }
  const siteId = typeof request.params.siteId === 'number' ? request.params.siteId : undefined;
  const sessionOnly = route.auth === 'session';
  const asked = { authorization, sessionId: sessionIdOf(ctx), sessionOnly, scope: route.scope, siteId };
  // What vouches for the caller at the address budget: the bearer token, or else the session cookie.
  const credential =
    (sessionOnly ? undefined : bearerOf(authorization)) ??
    (asked.sessionId === undefined ? undefined : `session ${asked.sessionId}`);
  const lookup = request.key === undefined ? undefined : storedOutcomeLookup(request.key, request.since);
  const authentication = await withinAddressBudget(deps.addressLimiter, { address, bearer: credential, now }, () =>
    authenticate(deps.database, { ...asked, now }, lookup),
  );
  const { principal, site, alongside, refusal } = authentication;
  noteCaller(ctx, principal);
  if (route.atomicity === 'statement') deps.rememberedCallers.remember(authentication);
  applyRateLimit(ctx, countedOnce(request, principalKey(principal), deps));
  // A browser sends the cookie wherever the request comes from: a cookie write must come from our own pages.
  if (principal.session && route.write) checkSameOrigin(ctx, deps.env.PUBLIC_URL);
  const bodyInByCheck = route.body === undefined || ctx.req.complete;
  if (refusal) throw refusal;
  if (request.keyRefusal) throw request.keyRefusal;
  return { principal, site, stored: alongside, asked, bodyInByCheck };
}

/**
 * Step 2b: a body that arrived after the token and the site were checked, maybe minutes later: they are
 * checked again, so a token revoked or a site taken from it meanwhile is refused now, not written for
 * (docs/api.md).
 */
export async function checkedAgainIfLate(caller: Caller, deps: ResolvedDeps): Promise<Caller> {
  if (caller.bodyInByCheck || !caller.asked) return caller;
  const again = await authenticate(deps.database, { ...caller.asked, now: deps.clock?.() ?? new Date() });
  if (again.refusal) throw again.refusal;
  return { ...caller, principal: again.principal, site: again.site };
}
