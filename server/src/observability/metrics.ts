import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Executor } from '../db/query';

/** Connections of the statement pool checked out right now. */
const poolInUse = (db: Executor): number => db.pool.totalCount - db.pool.idleCount;

export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  idempotentReplays: Counter;
  webhookDeliveries: Counter<'result'>;
}

/**
 * One registry per process (never the global default, so several apps can live in one test process).
 * `outboxBacklog` is asked at scrape time, so a scrape costs one count query and requests nothing.
 */
export function createMetrics(db: Executor, outboxBacklog?: () => Promise<number>): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route template and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const idempotentReplays = new Counter({
    name: 'gatehouse_idempotent_replays_total',
    help: 'Responses replayed from a stored Idempotency-Key outcome',
    registers: [registry],
  });
  const webhookDeliveries = new Counter({
    name: 'gatehouse_webhook_deliveries_total',
    help: 'Webhook delivery attempts by result',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'gatehouse_db_pool_in_use',
    help: 'Database connections checked out of the pool',
    registers: [registry],
    collect() {
      this.set(poolInUse(db));
    },
  });
  new Gauge({
    name: 'gatehouse_outbox_pending',
    help: 'Outbox events not yet handed to the webhook dispatcher',
    registers: [registry],
    async collect() {
      this.set(outboxBacklog ? await outboxBacklog().catch(() => Number.NaN) : 0);
    },
  });
  return { registry, httpDuration, idempotentReplays, webhookDeliveries };
}
