/**
 * The webhook dispatcher's thread (started by `startDispatcherThread`): its own event loop and database
 * pool, so delivery bursts never delay a request. Talks to the main thread by messages only.
 */
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { createDatabase } from '../db/database';
import { createLogger } from '../logger';
import type { DeliveryResult } from '../webhooks/retrySchedule';
import { busyReader } from './loadSignal';
import type { DispatcherThreadData, ThreadMessage } from './webhookThread';
import { DISPATCHER_POOL_MAX, DISPATCHER_SESSION_OPTIONS, startWebhookDispatcher } from './webhookDispatcher';

const REPORT_EVERY_MS = 1_000;
/** Background work yields the CPU to requests: on Linux a thread has its own nice value. */
const NICENESS = 10;

const port = parentPort;
if (!port) throw new Error('webhookThreadEntry runs in a worker thread');
const data = workerData as DispatcherThreadData;
try {
  os.setPriority(NICENESS);
} catch {
  // Not permitted or not supported here: run at normal priority.
}
const log = createLogger(data.logLevel);
const database = createDatabase({
  url: data.databaseUrl,
  poolMax: DISPATCHER_POOL_MAX,
  sessionOptions: DISPATCHER_SESSION_OPTIONS,
});
const dispatcher = startWebhookDispatcher({
  database,
  log,
  allowPrivateUrls: data.allowPrivateUrls,
  pollMs: data.pollMs,
  busy: busyReader(data.load),
  yieldMs: data.yieldMs,
});

let reported: Record<DeliveryResult, number> = dispatcher.stats();
const report = () => {
  const now = dispatcher.stats();
  const delta = { ...now };
  for (const result of Object.keys(delta) as DeliveryResult[]) delta[result] -= reported[result];
  reported = now;
  if (Object.values(delta).some((count) => count > 0))
    port.postMessage({ type: 'results', counts: delta } satisfies ThreadMessage);
};
const timer = setInterval(report, REPORT_EVERY_MS);

port.on('message', (message: { type: 'stop' }) => {
  if (message.type !== 'stop') return;
  clearInterval(timer);
  void (async () => {
    await dispatcher.stop();
    report();
    await database.close();
    port.postMessage({ type: 'stopped' } satisfies ThreadMessage);
  })();
});
