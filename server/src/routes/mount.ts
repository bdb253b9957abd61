import Router from '@koa/router';
import type { Context } from 'koa';
import type { ResolvedDeps } from '../context';
import type { Route } from './define';
import { alertingKioskRefusals, isCheckinAction } from './kioskRefusals';
import { authenticateCaller, checkedAgainIfLate } from './pipeline/authenticateCaller';
import { execute } from './pipeline/execute';
import { present } from './pipeline/present';
import { receive } from './pipeline/receive';
import { writeForRememberedCaller } from './pipeline/rememberedCaller';
import { validate } from './pipeline/validate';

/**
 * One request through a declared route, step by step (docs/operations.md, The write path): its path
 * parameters and key are read; a write by a token seen a moment ago goes out at once, as one statement that
 * checks the caller itself; else the caller is authenticated (with the site and the key's stored outcome in
 * the same round trip) and rate-limited, the query and body are validated, and the command runs (a write
 * with its key's record and audit row, in one statement or one transaction); and the reply is presented.
 */
async function handle(route: Route, ctx: Context, deps: ResolvedDeps): Promise<void> {
  const request = receive(route, ctx, deps);
  const written = await writeForRememberedCaller(request, ctx, deps);
  if (written) return present(route, ctx, written, deps);
  const caller = await authenticateCaller(request, ctx, deps);
  const input = await validate(request, ctx);
  const current = await checkedAgainIfLate(caller, deps);
  const reply = await execute(request, current, input, ctx, deps);
  if (reply) present(route, ctx, reply, deps);
}

/** Mounts every declared route under /v1 on the one pipeline of `handle`. */
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
