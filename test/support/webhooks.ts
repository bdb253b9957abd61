import type { ChildProcess } from 'node:child_process';
import { expect } from 'vitest';
import type { CreatedWebhookSubscription, WebhookDelivery } from '../../shared/src/schemas/webhooks';
import {
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
  startWebhookDispatcher,
} from '../../server/src/jobs/webhookDispatcher';
import type { ApiClient } from './http';
import { spawnEntryPoint } from './serverProcess';
import type { TestServer } from './testServer';

/** A dispatcher on the test server's database with test timings: polls every 20 ms, retries after 50 ms then 100 ms. */
export function startTestDispatcher(
  server: Pick<TestServer, 'database' | 'logs'>,
  overrides: Partial<WebhookDispatcherOptions> = {},
): WebhookDispatcher {
  const record = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    server.logs.push({ level, message, fields });
  };
  return startWebhookDispatcher({
    database: server.database,
    log: { info: record('info'), warn: record('warn'), error: record('error') },
    allowPrivateUrls: true,
    pollMs: 20,
    retryPolicy: { scheduleMs: [50, 100], random: () => 0.5 },
    timeoutMs: 2_000,
    ...overrides,
  });
}

/** Creates a subscription and returns it with its secret. */
export async function subscribe(api: ApiClient, body: Record<string, unknown>): Promise<CreatedWebhookSubscription> {
  const response = await api.post<CreatedWebhookSubscription>('/v1/webhooks/subscriptions', body);
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** The delivery log of a subscription (first page, newest first). */
export async function deliveriesOf(api: ApiClient, subscriptionId: number, query = ''): Promise<WebhookDelivery[]> {
  const response = await api.get<{ data: WebhookDelivery[]; nextCursor: string | null }>(
    `/v1/webhooks/subscriptions/${subscriptionId}/deliveries${query}`,
  );
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

/** Polls the delivery log until `done` holds (the dispatcher records outcomes just after the receiver answers). */
export async function waitForDeliveries(
  api: ApiClient,
  subscriptionId: number,
  done: (deliveries: WebhookDelivery[]) => boolean,
  timeoutMs = 10_000,
): Promise<WebhookDelivery[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const deliveries = await deliveriesOf(api, subscriptionId, '?limit=200');
    if (done(deliveries)) return deliveries;
    if (Date.now() > deadline) throw new Error(`delivery log never settled: ${JSON.stringify(deliveries)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export interface WorkerProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | string>;
}

/** Runs `server/src/worker.ts` (what `npm run worker` runs) as its own process; resolves once it polls. */
export async function spawnWorker(env: Record<string, string>, readyTimeoutMs = 30_000): Promise<WorkerProcess> {
  return spawnEntryPoint(
    'server/src/worker.ts',
    { LOG_LEVEL: 'info', ...env },
    'Gatehouse webhook worker running',
    readyTimeoutMs,
  );
}
