import Koa from 'koa';
import type { AppDeps } from './context';
import { migrationsApplied } from './db/migrate';
import { problem } from './errors/problem';
import { sendProblem } from './errors/respond';
import { cors } from './middlewares/cors';
import { errorHandler } from './middlewares/errorHandler';
import { requestId } from './middlewares/requestId';
import { routes } from './routes';
import { mountRoutes } from './routes/mount';

const READY_TIMEOUT_MS = 2_000;

async function isReady(deps: AppDeps): Promise<boolean> {
  const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), READY_TIMEOUT_MS).unref());
  return Promise.race([migrationsApplied(deps.sequelize).catch(() => false), timeout]);
}

/** The whole HTTP API as a Koa app (no listening here: main.ts and tests decide where). */
export function createApp(deps: AppDeps): Koa {
  const app = new Koa({ proxy: false });
  const router = mountRoutes(routes, deps);
  app.use(requestId);
  app.use(cors);
  app.use(errorHandler(deps.log));
  app.use(async (ctx, next) => {
    if (ctx.path === '/healthz' && ctx.method === 'GET') {
      ctx.body = { status: 'ok' };
      return;
    }
    if (ctx.path === '/readyz' && ctx.method === 'GET') {
      if (await isReady(deps)) {
        ctx.body = { status: 'ready' };
      } else {
        sendProblem(ctx, problem('UNAVAILABLE', 'The database is unreachable or not migrated.'));
      }
      return;
    }
    await next();
  });
  app.use(async (ctx, next) => {
    await next();
    // allowedMethods answered 405 (or 501 for a method nothing takes) with an Allow header: send it as a problem (RFC 9110 §15.5.6).
    if ((ctx.status === 405 || ctx.status === 501) && ctx.body === undefined) {
      throw problem('METHOD_NOT_ALLOWED', 'This endpoint does not take that method.', { headers: { Allow: ctx.response.get('Allow') } });
    }
  });
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
