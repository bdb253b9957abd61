import { grantsScope } from '../../../../shared/src/schemas/admin';
import type { Context } from 'koa';
import { bearerOf } from '../../auth/authenticate';
import { stillAsRemembered } from '../../auth/rememberedCallers';
import { principalKey } from '../../auth/principal';
import type { ResolvedDeps } from '../../context';
import { CallerUnconfirmed } from '../../idempotency/runWrite';
import type { SerializedReply } from '../../idempotency/serialized';
import { type Caller, countedOnce, setRateLimitHeaders } from './authenticateCaller';
import { execute } from './execute';
import { noteCaller } from '../kioskRefusals';
import type { Received } from './receive';
import { validate } from './validate';

/**
 * Step 1 for a statement-mode write by a token that wrote to this site a moment ago: the caller is taken
 * as remembered (auth/rememberedCallers.ts), with no round trip of its own, and the write's one statement
 * checks it: the token and the site still as they were, the site still the token's. So access is still
 * resolved against the database on every request, in the write itself. Answers the reply; or nothing,
 * having written nothing, for anything it cannot answer for sure without the caller confirmed (not
 * remembered, a scope missing, the rate limit reached, an invalid body, a refusal, a key used before, a
 * caller that changed): the request then goes through the full steps, which answer it as ever.
 */
export async function writeForRememberedCaller(
  request: Received,
  ctx: Context,
  deps: ResolvedDeps,
): Promise<SerializedReply | undefined> {
  const { route } = request;
  const siteId = request.params.siteId;
  const token = bearerOf(ctx.get('Authorization'));
  if (route.atomicity !== 'statement' || route.auth !== 'token' || route.precheck) return undefined;
  if (token === undefined || typeof siteId !== 'number' || request.keyRefusal) return undefined;
  const remembered = deps.rememberedCallers.recall(token, siteId, request.now);
  if (!remembered || (route.scope && !grantsScope(remembered.principal.scopes, route.scope))) return undefined;
  const decision = countedOnce(request, principalKey(remembered.principal), deps);
  if (!decision.allowed) return undefined;
  setRateLimitHeaders(ctx, decision);
  noteCaller(ctx, remembered.principal);
  const input = await validate(request, ctx).catch(() => undefined);
  if (!input) return undefined;
  const caller: Caller = {
    principal: remembered.principal,
    site: remembered.site,
    stored: undefined,
    asked: undefined,
    bodyInByCheck: true,
  };
  try {
    return await execute(request, caller, input, ctx, deps, stillAsRemembered(remembered));
  } catch (error) {
    if (!(error instanceof CallerUnconfirmed)) throw error;
    if (error.changed) deps.rememberedCallers.forget(remembered);
    return undefined;
  }
}
