import type http from 'node:http';
import Koa from 'koa';
import { RememberedCallers } from './auth/rememberedCallers';
import { defaultConsoleDir } from './console/build';
import { serveConsole } from './console/serveConsole';
import { defaultKioskDir } from './kioskApp/build';
import { serveKiosk } from './kioskApp/serveKiosk';
import { defaultVisitDir } from './visitApp/build';
import { serveVisit } from './visitApp/serveVisit';
import type { AppDeps, ResolvedDeps } from './context';
import { migrationsApplied } from './db/migrate';
import { problem } from './errors/problem';
import { sendProblem } from './errors/respond';
import { cors } from './middlewares/cors';
import { errorHandler } from './middlewares/errorHandler';
import { EXPORT_THREAD_DEFAULTS, createExportThreads } from './exports/exportThreads';
import { observe } from './middlewares/observe';
import { LiveEventHub } from './live/eventHub';
import { KioskPresence } from './live/kioskPresence';
import { countStreams } from './live/streamMetrics';
import { createMetrics } from './observability/metrics';
import { buildOpenApiDocument, withOrigin } from './openapi/document';
import { docsPage } from './openapi/docsPage';
import { AddressLimiter } from './rateLimit/addressLimiter';
import { RateLimiter } from './rateLimit/limiter';
import { requestId } from './middlewares/requestId';
import { routes } from './routes';
import { mountRoutes } from './routes/mount';

const READY_TIMEOUT_MS = 2_000;
const FIXED_ROUTES = new Set(['/healthz', '/readyz', '/metrics', '/v1/openapi.json', '/docs']);

async function isReady(deps: AppDeps): Promise<boolean> {
  const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), READY_TIMEOUT_MS).unref());
  return Promise.race([migrationsApplied(deps.database).catch(() => false), timeout]);
}

/** The URL the server's pool connects with: an export thread opens its own connection with it. */
function databaseUrlOf(input: AppDeps): string {
  const url = input.database.pool.options.connectionString;
  if (url === undefined) throw new Error('the database pool has no connection string');
  return url;
}

/** The whole HTTP API as a Koa app (no listening here: main.ts and tests decide where). */
export function createApp(input: AppDeps): Koa {
  const deps: ResolvedDeps = {
    ...input,
    metrics: input.metrics ?? createMetrics(input.database),
    limiter: input.limiter ?? new RateLimiter(input.database, input.env.RATE_LIMIT_PER_MINUTE, input.clock),
    addressLimiter: new AddressLimiter(input.env.RATE_LIMIT_PER_MINUTE),
    rememberedCallers: new RememberedCallers(),
    exportThreads:
      input.exportThreads ?? createExportThreads({ ...EXPORT_THREAD_DEFAULTS, databaseUrl: databaseUrlOf(input) }),
    liveEvents:
      input.liveEvents ?? new LiveEventHub({ pool: input.database, log: input.log, pollMs: input.env.EVENTS_POLL_MS }),
    kioskPresence:
      input.kioskPresence ??
      new KioskPresence({
        pool: input.database,
        log: input.log,
        seenEveryMs: input.env.EVENTS_KIOSK_SEEN_SECONDS * 1000,
      }),
  };
  countStreams(deps.metrics.registry, deps.liveEvents);
  // Behind one trusted proxy (TRUST_PROXY=true) the client is the last X-Forwarded-For entry, the one that
  // proxy appended; earlier entries are whatever the client wrote.
  const app = new Koa({ proxy: input.env.TRUST_PROXY, maxIpsCount: 1 });
  const router = mountRoutes(routes, deps);
  // Made once: the document only changes when the code does (the origin it names, per request).
  const openApi = buildOpenApiDocument(routes);
  app.use(requestId);
  app.use(observe(deps.metrics, deps.log));
  app.use(cors);
  app.use(errorHandler(deps.log));
  app.use(async (ctx, next) => {
    // The fixed endpoints are routes too, for metrics and logs (anything else unmatched stays "unmatched").
    if (FIXED_ROUTES.has(ctx.path)) ctx.state.route = ctx.path;
    else if (ctx.path.startsWith('/docs/')) ctx.state.route = '/docs/*';
    await next();
  });
  app.use(docsPage());
  app.use(serveConsole(input.consoleDir ?? defaultConsoleDir));
  app.use(serveKiosk(input.kioskDir ?? defaultKioskDir));
  app.use(serveVisit(input.visitDir ?? defaultVisitDir, deps.database));
  app.use(async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === '/v1/openapi.json') {
      ctx.type = 'application/json; charset=utf-8';
      // PUBLIC_URL when the operator set it; never the request's Host, which anyone can send (docs/api.md).
      const own = deps.env.PUBLIC_URL?.replace(/\/+$/, '');
      ctx.body = JSON.stringify(own ? withOrigin(openApi, own) : openApi);
      return;
    }
    if (ctx.method === 'GET' && ctx.path === '/metrics') {
      ctx.type = deps.metrics.registry.contentType;
      ctx.body = await deps.metrics.registry.metrics();
      return;
    }
    if (ctx.path === '/healthz' && ctx.method === 'GET') {
      if (deps.healthy?.() === false) {
        sendProblem(
          ctx,
          problem('UNAVAILABLE', 'The embedded database could not be restarted; the server is exiting.'),
        );
      } else {
        ctx.body = { status: 'ok' };
      }
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
      throw problem('METHOD_NOT_ALLOWED', 'This endpoint does not take that method.', {
        headers: { Allow: ctx.response.get('Allow') },
      });
    }
  });
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/** Koa's handler as node:http takes it: Koa answers its own errors, so nothing waits on the promise it returns. */
export const requestHandler =
  (handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>): http.RequestListener =>
  (req, res) =>
    void handle(req, res);
