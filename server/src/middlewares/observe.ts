import type { Middleware } from 'koa';
import type { Logger } from '../logger';
import type { Metrics } from '../observability/metrics';

/**
 * Times every request and records it by route template (unmatched paths under one label, so a scan of
 * random URLs cannot blow up the metric), and writes one log line per request.
 */
export function observe(metrics: Metrics, log: Logger): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = typeof ctx.state.route === 'string' ? ctx.state.route : 'unmatched';
      metrics.httpDuration.observe({ method: ctx.method, route, status_code: String(ctx.status) }, seconds);
      if (ctx.response.get('Idempotent-Replayed') === 'true') metrics.idempotentReplays.inc();
      log.info('request', {
        requestId: ctx.state.requestId,
        method: ctx.method,
        route,
        status: ctx.status,
        durationMs: Math.round(seconds * 10_000) / 10,
      });
    }
  };
}
