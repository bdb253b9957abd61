import type { Context } from 'koa';
import type { z } from 'zod';
import type { ResolvedDeps } from '../../context';
import { ProblemError, notFound } from '../../errors/problem';
import { keysSince, parseIdempotencyKey } from '../../idempotency/key';
import type { RateDecision } from '../../rateLimit/limiter';
import type { Route } from '../define';

/** The query and the body, each as its route's schema made it; the body also as sent (for the key's fingerprint). */
export interface ValidInput {
  query: unknown;
  body: unknown;
  sent: unknown;
}

/** What is known of a request before anything is asked of the database. */
export interface Received {
  route: Route;
  now: Date;
  requestId: string;
  params: Record<string, unknown>;
  /** A write of the token API: it takes an Idempotency-Key. */
  keyed: boolean;
  key: string | undefined;
  /** The header's 400, thrown once the caller is known: a request without a valid token is a 401 whatever its key. */
  keyRefusal: ProblemError | undefined;
  /** The start of the keys' retention window. */
  since: Date;
  /** The query and body, once read (by whichever step read them first). */
  input?: Promise<ValidInput>;
  /** The rate limit's decision, once this request was counted (a request counts once, whichever step counted it). */
  counted?: { principalKey: number; decision: RateDecision };
}

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

/** The Idempotency-Key header as parseIdempotencyKey reads it, or its refusal (400), to throw after authentication. */
function readIdempotencyKey(header: string | undefined): { key: string | undefined; keyRefusal?: ProblemError } {
  try {
    return { key: parseIdempotencyKey(header) };
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    return { key: undefined, keyRefusal: error };
  }
}

/** Step 0: the route and time of the request, its path parameters (404 when they name nothing), its key. */
export function receive(route: Route, ctx: Context, deps: ResolvedDeps): Received {
  ctx.state.route = `/v1${route.path}`;
  const now = deps.clock?.() ?? new Date();
  const params = parseParams(route.params, ctx.params as Record<string, string>);
  const keyed = route.write && (route.auth === 'token' || route.auth === 'session' || route.auth === 'visit');
  // The raw header: Koa's ctx.get answers '' both when it is absent and when it was sent empty.
  const header = ctx.req.headers['idempotency-key'];
  const { key, keyRefusal } = keyed ? readIdempotencyKey(Array.isArray(header) ? header.join(', ') : header) : {};
  return {
    route,
    now,
    requestId: String(ctx.state.requestId),
    params,
    keyed,
    key,
    keyRefusal,
    since: keysSince(now, deps.env.IDEMPOTENCY_TTL_HOURS),
  };
}
