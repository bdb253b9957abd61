import type { Context } from 'koa';
import type { Principal } from '../auth/principal';
import { type Refusal, raiseKioskRefusal } from '../commands/kioskRefusalAlert';
import type { ResolvedDeps } from '../context';
import { toProblem } from '../errors/classify';
import { parseIdempotencyKey } from '../idempotency/key';
import type { Route } from './define';

/** The writes of check-ins (create, breaks, checkout, approve, deny), people or vehicles; not the form's. */
const CHECKIN_ACTION = /^\/sites\/:siteId\/checkins\/(people|vehicles)(\/:checkinId(\/.+)?)?$/;

export const isCheckinAction = (route: Route): boolean => route.write && CHECKIN_ACTION.test(route.path);

/**
 * Which refusals are alerts (docs/api.md, Alerts): every 4xx but 401 (no kiosk is known), 409 (the visit's
 * own state, which the kiosk shows) and 429 (the kiosk retries it).
 */
const isAlertable = (status: number) =>
  status >= 400 && status < 500 && status !== 401 && status !== 409 && status !== 429;

/** The action of a check-in route in words: "Check-in", "Break start", "Vehicle exit". */
export function actionWords(route: Pick<Route, 'method' | 'path'>): string {
  const vehicle = route.path.includes('/checkins/vehicles');
  const last = route.path.split('/').at(-1);
  if (last === 'people' || last === 'vehicles') return vehicle ? 'Vehicle entry' : 'Check-in';
  if (route.path.endsWith('/breaks/start')) return 'Break start';
  if (route.path.endsWith('/breaks/end')) return 'Break end';
  if (last === 'approve') return vehicle ? 'Vehicle approval' : 'Approval';
  if (last === 'deny') return vehicle ? 'Vehicle refusal' : 'Refusal';
  return vehicle ? 'Vehicle exit' : 'Check-out';
}

/** The caller of each request in flight, as authentication found it (set by the route pipeline). */
const callers = new WeakMap<Context, Principal>();

/** Notes who is calling, so a refusal of their request can name them. */
export function noteCaller(ctx: Context, principal: Principal): void {
  callers.set(ctx, principal);
}

/** The problem body a refused request sent (a stored 422 is sent, not thrown). */
function sentProblem(body: unknown): { detail: string; errors?: Array<{ message: string }> } {
  if (typeof body !== 'string') return { detail: '' };
  try {
    const parsed = JSON.parse(body) as { detail?: unknown; errors?: unknown };
    const errors = Array.isArray(parsed.errors)
      ? parsed.errors.filter(
          (error): error is { message: string } =>
            typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string',
        )
      : undefined;
    return { detail: typeof parsed.detail === 'string' ? parsed.detail : '', errors };
  } catch {
    return { detail: '' };
  }
}

function keyOf(ctx: Context): string | undefined {
  const header = ctx.req.headers['idempotency-key'];
  try {
    return parseIdempotencyKey(Array.isArray(header) ? header.join(', ') : header);
  } catch {
    return undefined;
  }
}

async function raise(ctx: Context, deps: ResolvedDeps, route: Route, refusal: Omit<Refusal, 'action'>) {
  const principal = callers.get(ctx);
  if (!principal) return;
  const raw = (ctx.params as Record<string, string | undefined>).siteId ?? '';
  const siteId = /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : undefined;
  try {
    await raiseKioskRefusal(deps.database, {
      principal,
      siteId,
      refusal: { ...refusal, action: actionWords(route) },
      key: keyOf(ctx),
      now: deps.clock?.() ?? new Date(),
    });
  } catch (error) {
    // The refusal is still answered as it was; only reception's notice of it is lost.
    deps.log.error('kiosk refusal alert failed', {
      requestId: ctx.state.requestId as unknown,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/**
 * Runs a check-in route and, when it refuses a kiosk (docs/api.md, Alerts), raises an alert naming the site,
 * the kiosk and the reason, committed on its own. A replay raises nothing: its alert was raised the first time.
 */
export async function alertingKioskRefusals(
  route: Route,
  ctx: Context,
  deps: ResolvedDeps,
  run: () => Promise<void>,
): Promise<void> {
  try {
    await run();
  } catch (error) {
    const { problem } = toProblem(error);
    if (isAlertable(problem.status))
      await raise(ctx, deps, route, { detail: problem.detail, errors: problem.extras.errors });
    throw error;
  }
  if (isAlertable(ctx.status) && ctx.response.get('Idempotent-Replayed') !== 'true') {
    await raise(ctx, deps, route, sentProblem(ctx.body));
  }
}
