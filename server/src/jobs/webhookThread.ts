import type { Worker } from 'node:worker_threads';
import type { LogLevel, Logger } from '../logger';
import { tsWorker } from '../threads/tsWorker';
import type { DeliveryResult } from '../webhooks/retrySchedule';

/** What the dispatcher thread is started with (structured-cloned into it). */
export interface DispatcherThreadData {
  databaseUrl: string;
  allowPrivateUrls: boolean;
  pollMs: number;
  logLevel: LogLevel;
  /** The main thread's load signal (loadSignal.ts) and how long new work may wait while it says busy. */
  load: SharedArrayBuffer;
  yieldMs: number;
}

/** Messages from the thread: result counts since the last report, and the end of a stop. */
export type ThreadMessage = { type: 'results'; counts: Record<DeliveryResult, number> } | { type: 'stopped' };

const RESTART_AFTER_MS = 1_000;
const STOP_TIMEOUT_MS = 30_000;

/**
 * Runs the webhook dispatcher of `npm start` in a worker thread: the same code as `npm run worker`, on its
 * own event loop, so attempts in flight never hold up a request. A thread that dies is started again.
 */
export function startDispatcherThread(
  data: DispatcherThreadData,
  options: { log: Logger; onResults: (counts: Record<DeliveryResult, number>) => void },
): { stop: () => Promise<void> } {
  const entry = new URL('./webhookThreadEntry.ts', import.meta.url);
  let stopping = false;
  let alive = false;
  let worker: Worker;
  let stopped: (() => void) | undefined;

  const spawn = () => {
    worker = tsWorker(entry, { workerData: data });
    alive = true;
    worker.on('message', (message: ThreadMessage) => {
      if (message.type === 'results') options.onResults(message.counts);
      else stopped?.();
    });
    worker.on('error', (error) => options.log.error('webhook dispatcher thread failed', { error: String(error) }));
    worker.on('exit', (code) => {
      alive = false;
      stopped?.();
      if (stopping) return;
      options.log.error('webhook dispatcher thread exited; restarting it', { code });
      setTimeout(() => {
        if (!stopping) spawn();
      }, RESTART_AFTER_MS).unref();
    });
  };
  spawn();

  return {
    async stop() {
      stopping = true;
      if (!alive) return;
      const done = new Promise<void>((resolve) => {
        stopped = resolve;
      });
      worker.postMessage({ type: 'stop' });
      const timer = setTimeout(() => stopped?.(), STOP_TIMEOUT_MS);
      await done;
      clearTimeout(timer);
      await worker.terminate();
    },
  };
}
